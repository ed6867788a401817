/**
 * Recurring invoices: a schedule on an entity creates one invoice per occurrence (docs/api/schedules.md,
 * docs/decisions/1010-recurring-invoices.md).
 */
import { z } from 'zod';
import { AMOUNT_MODES, type AmountMode } from './amount-modes.ts';
import { FLOWS, flowIn } from './entries.ts';
import { meanCents } from './money.ts';
import { PAYMENT_METHOD_CODES, type PaymentMethodCode } from './payment-methods.ts';
import { isoDate, moneyIn, moneyOut, text, timestamp } from './primitives.ts';
import { CADENCES, TEMPLATE_PLACEHOLDERS, unknownPlaceholder } from './schedule-dates.ts';

/** A template expands by at most a few characters per placeholder, so 200 always fits an invoice's 500. */
export const TEMPLATE_MAX_LENGTH = 200;
export const MAX_INTERVAL = 99;
export const MAX_COUNT = 1000;
export const MAX_DUE_DAYS = 365;
/** A new schedule creates at most this many invoices at once (ten years of a monthly bill). */
export const MAX_CATCH_UP = 120;

const placeholderList = Object.keys(TEMPLATE_PLACEHOLDERS)
  .map((name) => `{${name}}`)
  .join(', ');

export const descriptionTemplate = text(TEMPLATE_MAX_LENGTH).superRefine((value, ctx) => {
  const unknown = unknownPlaceholder(value);
  if (unknown)
    ctx.addIssue({ code: 'custom', message: `has an unknown placeholder ${unknown}: use ${placeholderList}` });
});

const wholeNumber = (min: number, max: number) =>
  z
    .number(`must be a whole number from ${min} to ${max}`)
    .int(`must be a whole number from ${min} to ${max}`)
    .min(min, `must be a whole number from ${min} to ${max}`)
    .max(max, `must be a whole number from ${min} to ${max}`);

export const autopayMethod = z.enum(PAYMENT_METHOD_CODES as [PaymentMethodCode, ...PaymentMethodCode[]], {
  error: `must be one of the payment methods: ${PAYMENT_METHOD_CODES.join(', ')}`,
});

export { AMOUNT_MODES, type AmountMode } from './amount-modes.ts';

export const AVERAGE_OF = { min: 2, max: 24, default: 3 } as const;

/** A schedule's amount rule, in cents. */
export interface AmountRule {
  mode: AmountMode;
  /** `average` only: how many invoices. */
  averageOf: number | null;
  /** The fixed amount; the stand-in when the other modes have no invoice to go by. */
  amountCents: number;
}

/** How many recent confirmed amounts the rule reads (0 for `fixed`). */
export function amountsNeeded(rule: AmountRule): number {
  if (rule.mode === 'last') return 1;
  if (rule.mode === 'average') return rule.averageOf ?? AVERAGE_OF.default;
  return 0;
}

/**
 * The amount, in cents, a schedule with this rule gives its next invoice, from the recent confirmed amounts
 * (newest first; only the first `amountsNeeded` are read). Exact cents: the mean rounds half up (`meanCents`).
 */
export function estimateCents(rule: AmountRule, recentCents: readonly number[]): number {
  const used = recentCents.slice(0, amountsNeeded(rule));
  if (used.length === 0) return rule.amountCents;
  return meanCents(
    used.reduce((sum, cents) => sum + cents, 0),
    used.length,
  );
}

/** Whether the rule's invoices are estimates, marked until the user confirms their amount. */
export const isEstimating = (mode: AmountMode): boolean => mode !== 'fixed';

/**
 * What a save does with an invoice it would create at once (dated up to today) when the entity already has one of
 * that date and amount: `skip` (the existing invoice stands for that occurrence) or `create` (a second one). A save
 * that would create such an invoice without saying which is refused (409 `SCHEDULE_DUPLICATES`).
 */
export const DUPLICATE_CHOICES = ['skip', 'create'] as const;
export type DuplicateChoice = (typeof DUPLICATE_CHOICES)[number];

/**
 * Create or replace a schedule. `dayOfMonth` defaults to the first date's day for the month-based cadences and is
 * refused for weekly ones; an end date and a count are alternatives.
 */
export const scheduleBody = z
  .object({
    cadence: z.enum(CADENCES, { error: `must be one of ${CADENCES.join(', ')}` }),
    interval: wholeNumber(1, MAX_INTERVAL).default(1),
    dayOfMonth: wholeNumber(1, 31).nullish(),
    firstDate: isoDate,
    endDate: isoDate.nullish(),
    count: wholeNumber(1, MAX_COUNT).nullish(),
    amount: moneyIn,
    amountMode: z.enum(AMOUNT_MODES, { error: `must be one of ${AMOUNT_MODES.join(', ')}` }).default('fixed'),
    averageOf: wholeNumber(AVERAGE_OF.min, AVERAGE_OF.max).nullish(),
    flow: flowIn,
    description: descriptionTemplate,
    dueDays: wholeNumber(0, MAX_DUE_DAYS).default(0),
    autopay: autopayMethod.nullish(),
    duplicates: z.enum(DUPLICATE_CHOICES, { error: `must be one of ${DUPLICATE_CHOICES.join(', ')}` }).nullish(),
  })
  .superRefine((body, ctx) => {
    const problem = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (body.endDate != null && body.endDate < body.firstDate) problem('endDate', 'must not be before the first date');
    if (body.endDate != null && body.count != null) problem('count', 'cannot be set together with endDate');
    if (body.cadence === 'weekly' && body.dayOfMonth != null)
      problem('dayOfMonth', 'only applies to monthly, quarterly and yearly schedules');
    if (body.amountMode !== 'average' && body.averageOf != null)
      problem('averageOf', 'only applies with amountMode average');
  })
  .transform((body) => ({
    ...body,
    dayOfMonth: body.cadence === 'weekly' ? null : (body.dayOfMonth ?? Number(body.firstDate.slice(8, 10))),
    endDate: body.endDate ?? null,
    count: body.count ?? null,
    autopay: body.autopay ?? null,
    duplicates: body.duplicates ?? null,
    averageOf: body.amountMode === 'average' ? (body.averageOf ?? AVERAGE_OF.default) : null,
  }));
export type ScheduleBody = z.input<typeof scheduleBody>;
export type ScheduleInput = z.output<typeof scheduleBody>;

export const schedule = z.object({
  id: z.number().int(),
  entityId: z.number().int(),
  cadence: z.enum(CADENCES),
  interval: z.number().int(),
  dayOfMonth: z.number().int().nullable(),
  firstDate: z.string(),
  endDate: z.string().nullable(),
  count: z.number().int().nullable(),
  amount: moneyOut,
  amountMode: z.enum(AMOUNT_MODES),
  averageOf: z.number().int().nullable(),
  /** The amount its next invoice would get now: `amount` when fixed, else the estimate from recent invoices. */
  estimate: moneyOut,
  flow: z.enum(FLOWS),
  description: z.string(),
  dueDays: z.number().int(),
  autopay: z.string().nullable(),
  paused: z.boolean(),
  /** The date of the next invoice it will create; null once it has ended. */
  nextDate: z.string().nullable(),
  /** Invoices created so far. */
  createdCount: z.number().int(),
  createdAt: timestamp,
});
export type Schedule = z.infer<typeof schedule>;

export const scheduleList = z.object({ schedules: z.array(schedule) });
export type ScheduleList = z.infer<typeof scheduleList>;

/** One invoice a save would create at once (dated up to today), as `POST …/schedules/preview` tells it. */
export const previewInvoice = z.object({
  date: z.string(),
  dueDate: z.string(),
  amount: moneyOut,
  description: z.string(),
  /** Its automatic payment is recorded at once too (its due date is today or earlier). */
  autopay: z.boolean(),
  /** The entity's existing invoice of the same date and amount, if any. */
  duplicateOf: z.object({ entryId: z.number().int(), invoiceId: z.number().int() }).nullable(),
});
export type PreviewInvoice = z.infer<typeof previewInvoice>;

export const schedulePreview = z.object({
  /** What saving the body would create at once, oldest first; empty when its first occurrence is after today. */
  invoices: z.array(previewInvoice),
});
export type SchedulePreview = z.infer<typeof schedulePreview>;
