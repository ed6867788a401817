/**
 * What is due: the Home panel's summary, the private calendar feed and the e-mail reminders
 * (docs/decisions/1001-upcoming-and-overdue.md, 1002-calendar-feed.md, 1003-email-reminders.md).
 */
import { z } from 'zod';
import { password } from './auth.ts';
import { entry } from './entries.ts';
import { isoDate, looseBoolean, moneyOut, timestamp } from './primitives.ts';

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

// ---------- the private calendar feed ----------

export const calendarFeed = z.object({
  enabled: z.boolean(),
  /** When the current address was made; null while the feed is off. */
  createdAt: timestamp.nullable(),
  /** Only in the answer that made the address: it is stored hashed and cannot be shown again. */
  url: z.string().optional(),
});
export type CalendarFeed = z.infer<typeof calendarFeed>;
/**
 * `enabled: true` makes a new address (the old one stops working) and needs the account's current `password`;
 * `false` turns the feed off and needs none.
 */
export const calendarFeedBody = z.object({ enabled: looseBoolean, password: password.optional() });
export type CalendarFeedBody = z.input<typeof calendarFeedBody>;
export const CALENDAR_PASSWORD_REQUIRED = 'password: the current password is required to turn the feed on';
export const calendarFileParams = z.object({ file: z.string().max(200) });

// ---------- e-mail reminders ----------

export const REMINDER_DAYS_MIN = 1;
export const REMINDER_DAYS_MAX = 30;
export const REMINDER_DAYS_DEFAULT = 7;
export const REMINDERS_NOT_CONFIGURED = 'Email reminders are not configured on this server.';

export const reminderSettings = z.object({
  /** The server can send mail (`SMTP_URL` and `MAIL_FROM` are set). */
  configured: z.boolean(),
  enabled: z.boolean(),
  /** A daily digest lists what is overdue and what falls due within this many days. */
  daysAhead: z.number().int(),
  /** Where the digest goes: the account's address. */
  email: z.string(),
  /** Digests go only to a verified address: while false, none is sent (docs/decisions/1131-verified-addresses.md). */
  emailVerified: z.boolean(),
});
export type ReminderSettings = z.infer<typeof reminderSettings>;
const daysAheadMessage = `must be a whole number from ${REMINDER_DAYS_MIN} to ${REMINDER_DAYS_MAX}`;
export const reminderSettingsBody = z.object({
  enabled: looseBoolean,
  daysAhead: z
    .number(daysAheadMessage)
    .int(daysAheadMessage)
    .min(REMINDER_DAYS_MIN, daysAheadMessage)
    .max(REMINDER_DAYS_MAX, daysAheadMessage)
    .optional(),
});
export type ReminderSettingsBody = z.input<typeof reminderSettingsBody>;
