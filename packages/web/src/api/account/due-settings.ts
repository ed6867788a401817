/** The Account page's calendar feed and e-mail reminders (docs/decisions/1002-calendar-feed.md, 1003). */
import type { CalendarFeed, ReminderSettings, ReminderSettingsBody } from '@billfold/contract/due';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { attempt, dataOf } from '../outcome.ts';

const calendarKey = ['user', 'calendar-feed'] as const;
const remindersKey = ['user', 'reminders'] as const;

async function read<T>(path: string): Promise<T> {
  return dataOf(await attempt<T>('GET', path));
}

export function useCalendarFeed() {
  return useQuery({ queryKey: calendarKey, queryFn: () => read<CalendarFeed>('/account/calendar-feed') });
}

/** On (a new address, shown in the answer only) or off. */
export function useSetCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => attempt<CalendarFeed>('PUT', '/account/calendar-feed', { body: { enabled } }),
    onSuccess: (outcome) => {
      if (outcome.ok) queryClient.setQueryData(calendarKey, { ...outcome.data, url: undefined });
    },
  });
}

export function useReminders() {
  return useQuery({ queryKey: remindersKey, queryFn: () => read<ReminderSettings>('/account/reminders') });
}

export function useSetReminders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReminderSettingsBody) => attempt<ReminderSettings>('PUT', '/account/reminders', { body }),
    onSuccess: (outcome) => {
      if (outcome.ok) queryClient.setQueryData(remindersKey, outcome.data);
    },
  });
}
