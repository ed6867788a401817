import type { CalendarFeed } from '@billfold/contract/due';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { calendarFeedQueryKey } from './get-calendar-feed.ts';

/** `PUT /account/calendar-feed`: on (a new address, shown in the answer only) or off. */
export function setCalendarFeed(enabled: boolean): Promise<Outcome<CalendarFeed>> {
  return attempt<CalendarFeed>('PUT', '/account/calendar-feed', { body: { enabled } });
}

export function useSetCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setCalendarFeed,
    onSuccess: (outcome) => {
      if (outcome.ok) queryClient.setQueryData(calendarFeedQueryKey, { ...outcome.data, url: undefined });
    },
  });
}
