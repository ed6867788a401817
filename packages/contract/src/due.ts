/**
 * What is due: the Home panel's summary, the private calendar feed and the e-mail reminders
 * (docs/decisions/1001-upcoming-and-overdue.md, 1002-calendar-feed.md, 1003-email-reminders.md).
 */
import { z } from 'zod';
import { password } from './auth.ts';
import { entry, FLOWS } from './entries.ts';
import { isoDate, looseBoolean, moneyOut, timestamp } from './primitives.ts';

/** Invoices each group of the summary lists, soonest due first. */
export const DUE_SUMMARY_LIST = 5;
/** The summary's windows, in days after today. */
export const DUE_SOON_DAYS = [7, 30] as const;

export const dueSummaryQuery = z.object({
  /** The client's own date; the server's UTC date when absent. */
  today: z.preprocess((v) => (v === '' ? undefined : v), isoDate.optional()),
});

/**
 * An occurrence of a schedule that has not become an invoice yet: the invoice it will create on `date`, due on
 * `dueDate`, for the schedule's amount (docs/decisions/1012-scheduled-occurrences-in-upcoming.md).
 */
export const scheduledInvoice = z.object({
  scheduleId: z.number().int(),
  /** The entity the schedule belongs to. */
  entityId: z.number().int(),
  /** The entity's name. */
  name: z.string(),
  /** The invoice date the schedule will create it on. */
  date: z.string(),
  dueDate: z.string(),
  amount: moneyOut,
  flow: z.enum(FLOWS),
  /** The description its invoice will carry (the template expanded). */
  description: z.string(),
});
export type ScheduledInvoice = z.infer<typeof scheduledInvoice>;

/** How many a group holds and what is owed on them, the same for its invoices and for its scheduled ones. */
const groupTotals = {
  count: z.number().int(),
  /** What is still owed on the group's expenses. */
  toPay: moneyOut,
  /** What is still owed to the user on the group's income. */
  toCollect: moneyOut,
};

/** The scheduled invoices of a group, counted and summed apart from the invoices that exist. */
const scheduledGroup = z.object({
  ...groupTotals,
  /** The first `DUE_SUMMARY_LIST` by due date. */
  invoices: z.array(scheduledInvoice),
});
export type ScheduledGroup = z.infer<typeof scheduledGroup>;

const dueGroup = z.object({
  ...groupTotals,
  /** The first `DUE_SUMMARY_LIST` invoices by due date (then invoice number). */
  entries: z.array(entry),
  /** What active schedules will create in the group's window and have not created yet; not in the above. */
  scheduled: scheduledGroup,
});
export type DueGroup = z.infer<typeof dueGroup>;

/**
 * Unpaid invoices of active entities: due before today, and due from today to today + 7 or + 30 days (`next30`
 * includes `next7`); `later` is the part of `next30` after `next7`, so overdue, next7 and later never overlap.
 */
export const dueSummary = z.object({
  today: z.string(),
  overdue: dueGroup,
  next7: dueGroup,
  next30: dueGroup,
  later: dueGroup,
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
