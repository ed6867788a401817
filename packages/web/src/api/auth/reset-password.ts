import type { PasswordResetBody, PasswordResetResult } from '@billfold/contract/password-reset';
import { useMutation } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';

/** `POST /auth/password-reset/confirm`: the link's token and the new password; needs no session. */
export function resetPassword(body: PasswordResetBody): Promise<Outcome<PasswordResetResult>> {
  return attempt<PasswordResetResult>('POST', '/auth/password-reset/confirm', { body, auth: false });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
