import type { MfaSetupResponse } from '@billfold/contract/mfa';
import { attempt, type Outcome } from '../outcome.ts';

/** `POST /user/mfa/setup`: a new secret, pending until a code from it is confirmed; the password proves it is you. */
export function setupMfa(password: string): Promise<Outcome<MfaSetupResponse>> {
  return attempt<MfaSetupResponse>('POST', '/user/mfa/setup', { body: { password } });
}
