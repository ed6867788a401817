import type { UpdateUserBody, User } from '@billfold/contract/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { emailStatusQueryKey } from './get-email-status.ts';
import { remindersQueryKey } from './get-reminders.ts';
import { userQueryKey } from './get-user.ts';

/** `PUT /user`: one change with the current password; the updated user, or why it failed (403: wrong password). */
export function updateUser(body: UpdateUserBody): Promise<Outcome<User>> {
  return attempt<User>('PUT', '/user', { body });
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: (outcome, body) => {
      if (!outcome.ok) return;
      queryClient.setQueryData(userQueryKey(outcome.data.username), outcome.data);
      // A new address is unverified: what the page shows of it (and of the reminders sent to it) is read again.
      // Only then: after a password change or deactivation this session's tokens no longer work.
      if (body.newEmail === undefined) return;
      void queryClient.invalidateQueries({ queryKey: emailStatusQueryKey });
      void queryClient.invalidateQueries({ queryKey: remindersQueryKey });
    },
  });
}
