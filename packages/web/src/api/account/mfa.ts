/**
 * Two-factor sign-in (MFA) of the signed-in account: its status, set-up, confirmation, new recovery codes and
 * switching it off. Each reports the server's reason on failure (wrong password, invalid code, throttled), so
 * the dialog can say which field to fix.
 */
import type { MfaEnableResponse, MfaSetupResponse, MfaStatus, RecoveryCodesResponse } from '@billfold/contract/mfa';
import type { User } from '@billfold/contract/users';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { attempt, dataOf } from '../outcome.ts';
import { userQueryKey } from './get-user.ts';

export const mfaStatusQueryKey = (username: string) => [...userQueryKey(username), 'mfa'] as const;

/** `GET /user/mfa`: whether MFA is on and how many recovery codes are left. */
export function useMfaStatus(username: string) {
  return useQuery({
    queryKey: mfaStatusQueryKey(username),
    queryFn: async () => dataOf(await attempt<MfaStatus>('GET', '/user/mfa')),
    enabled: Boolean(username),
  });
}

/** `POST /user/mfa/setup`: a new secret, pending until a code from it is confirmed. */
export function setupMfa(password: string) {
  return attempt<MfaSetupResponse>('POST', '/user/mfa/setup', { body: { password } });
}

/** After a change of MFA state: the user (its `mfaEnabled`) and the status are read again. */
function useMfaChange<A extends unknown[], T>(call: (...args: A) => ReturnType<typeof attempt<T>>, username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (args: A) => call(...args),
    onSuccess: (outcome) => {
      if (outcome.ok) void queryClient.invalidateQueries({ queryKey: userQueryKey(username) });
    },
  });
}

/** `POST /user/mfa/enable`: a code from the pending secret switches MFA on; the recovery codes come back once. */
export function useEnableMfa(username: string) {
  return useMfaChange(
    (code: string) => attempt<MfaEnableResponse>('POST', '/user/mfa/enable', { body: { code } }),
    username,
  );
}

/** `POST /user/mfa/recovery-codes`: ten new codes; the old ones stop working. */
export function useRegenerateRecoveryCodes(username: string) {
  return useMfaChange(
    (password: string, code: string) =>
      attempt<RecoveryCodesResponse>('POST', '/user/mfa/recovery-codes', { body: { password, code } }),
    username,
  );
}

/** `PUT /user {password, mfaEnabled: false, code}`: MFA off, with the password and a code. */
export function useDisableMfa(username: string) {
  return useMfaChange(
    (password: string, code: string) => attempt<User>('PUT', '/user', { body: { password, mfaEnabled: false, code } }),
    username,
  );
}
