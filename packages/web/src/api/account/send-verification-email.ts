import type { EmailStatus } from '@billfold/contract/email-verification';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { emailStatusQueryKey } from './get-email-status.ts';

/** `POST /account/email/verification`: a new link to the account's address (a few per 15 minutes). */
export function sendVerificationEmail(): Promise<Outcome<EmailStatus>> {
  return attempt<EmailStatus>('POST', '/account/email/verification');
}

export function useSendVerificationEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendVerificationEmail,
    onSuccess: (outcome) => {
      if (outcome.ok) queryClient.setQueryData(emailStatusQueryKey, outcome.data);
    },
  });
}
