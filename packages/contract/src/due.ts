/**
 * What is due: the Home panel's summary, the private calendar feed and the e-mail reminders
 * (docs/decisions/1001-upcoming-and-overdue.md, 1002-calendar-feed.md, 1003-email-reminders.md).
 */
import { z } from 'zod';
import { entry, isoDate, moneyOut } from './schemas.ts';

/** Invoices each group of the summary lists, soonest due first. */
export const DUE_SUMMARY_LIST = 5;
/** The summary's windows, in days after today. */
export const DUE_SOON_DAYS = [7, 30] as const;

export const dueSummaryQuery = z.object({
  /** The client's own date; the server's UTC date when absent. */
  today: z.preprocess((v) => (v === '' ? undefined : v), isoDate.optional()),
});

const dueGroup = z.object({
  count: z.number().int(),
  /** What is still owed on the group's expenses. */
  toPay: moneyOut,
  /** What is still owed to the user on the group's income. */
  toCollect: moneyOut,
  /** The first `DUE_SUMMARY_LIST` invoices by due date (then invoice number). */
  entries: z.array(entry),
});
export type DueGroup = z.infer<typeof dueGroup>;

/** Unpaid invoices of active entities: due before today, and due from today to today + 7 or + 30 days. */
export const dueSummary = z.object({
  today: z.string(),
  overdue: dueGroup,
  next7: dueGroup,
  next30: dueGroup,
});
export type DueSummary = z.infer<typeof dueSummary>;
