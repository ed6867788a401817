import type { OidcLink } from '@billfold/contract/oidc';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

export const identityLinkQueryKey = ['user', 'oidc'] as const;

/** `GET /account/oidc`: the identity provider, and whether this account is linked to it (ADR 0722). */
export function getIdentityLink(): Promise<Outcome<OidcLink>> {
  return attempt<OidcLink>('GET', '/account/oidc');
}

export function useIdentityLink() {
  return useQuery({ queryKey: identityLinkQueryKey, queryFn: async () => dataOf(await getIdentityLink()) });
}
