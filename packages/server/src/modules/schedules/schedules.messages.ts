import { MAX_CATCH_UP } from '@billfold/contract/schedules';

/** The schedule module's own messages. */
export const SCHEDULE_MESSAGES = {
  notFound: 'Schedule not found.',
  noOccurrence: 'This schedule has no occurrence between its first date and its end date.',
  tooManyAtOnce: `This schedule would create more than ${MAX_CATCH_UP} invoices dated up to today at once. Pick a later first date.`,
} as const;
