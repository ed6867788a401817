import type { SignInMethods } from '@billfold/contract/oidc';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

/** `GET /auth/methods` without a token: password sign-in, and the identity provider by name (ADR 0722). */
export function getSignInMethods(): Promise<Outcome<SignInMethods>> {
  return attempt<SignInMethods>('GET', '/auth/methods', { auth: false });
}

/** Read once per page load: the server's settings change only with a restart. */
export function useSignInMethods() {
  return useQuery({
    queryKey: ['auth', 'methods'],
    queryFn: async () => dataOf(await getSignInMethods()),
    staleTime: Number.POSITIVE_INFINITY,
    retry: 1,
  });
}

/** Where the login page's "Sign in with …" button goes: a navigation to the server, which sends it on. */
export const OIDC_START_PATH = '/api/v1/auth/oidc/start';
