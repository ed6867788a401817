import type { PasswordResetRequested } from '@billfold/contract/password-reset';
import { useMutation } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';

/** `POST /auth/password-reset`: a link to choose a new password, mailed to the address if an account has it confirmed. */
export function requestPasswordReset(email: string): Promise<Outcome<PasswordResetRequested>> {
  return attempt<PasswordResetRequested>('POST', '/auth/password-reset', { body: { email }, auth: false });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
