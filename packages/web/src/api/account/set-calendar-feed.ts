import type { CalendarFeed, CalendarFeedBody } from '@billfold/contract/due';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { calendarFeedQueryKey } from './get-calendar-feed.ts';

/**
 * `PUT /account/calendar-feed`: on with the current password (a new address, shown in the answer only), or off.
 */
export function setCalendarFeed(body: CalendarFeedBody): Promise<Outcome<CalendarFeed>> {
  return attempt<CalendarFeed>('PUT', '/account/calendar-feed', { body });
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
