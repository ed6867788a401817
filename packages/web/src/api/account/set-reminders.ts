import type { ReminderSettings, ReminderSettingsBody } from '@billfold/contract/due';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notificationChannelsQueryKey } from '../notifications/get-notification-channels.ts';
import { attempt, type Outcome } from '../outcome.ts';
import { remindersQueryKey } from './get-reminders.ts';

/** `PUT /account/reminders`: the new settings. */
export function setReminders(body: ReminderSettingsBody): Promise<Outcome<ReminderSettings>> {
  return attempt<ReminderSettings>('PUT', '/account/reminders', { body });
}

export function useSetReminders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setReminders,
    onSuccess: (outcome) => {
      if (!outcome.ok) return;
      queryClient.setQueryData(remindersQueryKey, outcome.data);
      // Reminders are an email channel hearing the digest (docs/decisions/1154-reminder-digest-channel.md).
      void queryClient.invalidateQueries({ queryKey: notificationChannelsQueryKey });
    },
  });
}
