import type { VerifyEmailResult } from '@billfold/contract/email-verification';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { emailStatusQueryKey } from './get-email-status.ts';
import { remindersQueryKey } from './get-reminders.ts';

/** `POST /account/email/verify`: the token of a verification link; needs no session. */
export function verifyEmail(token: string): Promise<Outcome<VerifyEmailResult>> {
  return attempt<VerifyEmailResult>('POST', '/account/email/verify', { body: { token } });
}

export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyEmail,
    onSuccess: (outcome) => {
      if (!outcome.ok) return;
      void queryClient.invalidateQueries({ queryKey: emailStatusQueryKey });
      void queryClient.invalidateQueries({ queryKey: remindersQueryKey });
    },
  });
}
