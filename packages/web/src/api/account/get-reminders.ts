/** The Account page's e-mail reminders (docs/decisions/1003-email-reminders.md). */
import type { ReminderSettings } from '@billfold/contract/due';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

export const remindersQueryKey = ['user', 'reminders'] as const;

/** `GET /account/reminders`: whether reminders are on, and when they are sent. */
export function getReminders(): Promise<Outcome<ReminderSettings>> {
  return attempt<ReminderSettings>('GET', '/account/reminders');
}

export function useReminders() {
  return useQuery({ queryKey: remindersQueryKey, queryFn: async () => dataOf(await getReminders()) });
}
