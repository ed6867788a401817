import type { RecoveryCodesResponse } from '@billfold/contract/mfa';
import { attempt, type Outcome } from '../outcome.ts';
import { useUserChange } from './get-user.ts';

/** `POST /user/mfa/recovery-codes`: ten new codes; the old ones stop working. */
export function regenerateRecoveryCodes(password: string, code: string): Promise<Outcome<RecoveryCodesResponse>> {
  return attempt<RecoveryCodesResponse>('POST', '/user/mfa/recovery-codes', { body: { password, code } });
}

export function useRegenerateRecoveryCodes(username: string) {
  return useUserChange(regenerateRecoveryCodes, username);
}
