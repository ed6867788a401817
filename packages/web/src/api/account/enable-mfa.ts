import type { MfaEnableResponse } from '@billfold/contract/mfa';
import { attempt, type Outcome } from '../outcome.ts';
import { useUserChange } from './get-user.ts';

/** `POST /user/mfa/enable`: a code from the pending secret switches MFA on; the recovery codes come back once. */
export function enableMfa(code: string): Promise<Outcome<MfaEnableResponse>> {
  return attempt<MfaEnableResponse>('POST', '/user/mfa/enable', { body: { code } });
}

export function useEnableMfa(username: string) {
  return useUserChange(enableMfa, username);
}
