import type { OidcLink } from '@billfold/contract/oidc';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { identityLinkQueryKey } from './get-identity-link.ts';

/** `POST /account/oidc/unlink` with the current password; refused while it would leave no way to sign in. */
export function unlinkIdentity(password: string): Promise<Outcome<OidcLink>> {
  return attempt<OidcLink>('POST', '/account/oidc/unlink', { body: { password } });
}

export function useUnlinkIdentity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unlinkIdentity,
    onSuccess: (outcome) => {
      if (outcome.ok) queryClient.setQueryData(identityLinkQueryKey, outcome.data);
    },
  });
}
