import type { MfaStatus } from '@billfold/contract/mfa';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';
import { userQueryKey } from './get-user.ts';

export const mfaStatusQueryKey = (username: string) => [...userQueryKey(username), 'mfa'] as const;

/** `GET /user/mfa`: whether two-factor sign-in (MFA) is on and how many recovery codes are left. */
export function getMfaStatus(): Promise<Outcome<MfaStatus>> {
  return attempt<MfaStatus>('GET', '/user/mfa');
}

export function useMfaStatus(username: string) {
  return useQuery({
    queryKey: mfaStatusQueryKey(username),
    queryFn: async () => dataOf(await getMfaStatus()),
    enabled: Boolean(username),
  });
}
