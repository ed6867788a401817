/** The Account page's calendar feed (docs/decisions/1002-calendar-feed.md). */
import type { CalendarFeed } from '@billfold/contract/due';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

export const calendarFeedQueryKey = ['user', 'calendar-feed'] as const;

/** `GET /account/calendar-feed`: whether the feed is on (its address is shown only when it is switched on). */
export function getCalendarFeed(): Promise<Outcome<CalendarFeed>> {
  return attempt<CalendarFeed>('GET', '/account/calendar-feed');
}

export function useCalendarFeed() {
  return useQuery({ queryKey: calendarFeedQueryKey, queryFn: async () => dataOf(await getCalendarFeed()) });
}
