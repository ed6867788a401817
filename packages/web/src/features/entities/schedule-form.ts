import { addDays, isValidIsoDate } from '@billfold/contract/dates';
import { formatUsd } from '@billfold/contract/money';
import type { PaymentMethodCode } from '@billfold/contract/payment-methods';
import {
  type Cadence,
  expandTemplate,
  occurrencesUpTo,
  type ScheduleRule,
  TEMPLATE_PLACEHOLDERS,
  upcomingOccurrences,
} from '@billfold/contract/schedule-dates';
import {
  type AmountMode,
  AVERAGE_OF,
  MAX_CATCH_UP,
  type Schedule,
  type ScheduleBody,
  type SchedulePreview,
  scheduleBody,
} from '@billfold/contract/schedules';
import { amountInputText, parseAmountInput } from '../../lib/amount-input.ts';
import { countOf } from '../../lib/format.ts';

export type ScheduleEnds = 'never' | 'date' | 'count';

/** The schedule editor's fields, as typed. */
export interface ScheduleFormValues {
  description: string;
  amount: string;
  /** Where each invoice's amount comes from (docs/decisions/0212-estimated-amounts.md). */
  amountMode: AmountMode;
  /** How many recent invoices `average` averages, as typed. */
  averageOf: string;
  flow: 'income' | 'expense';
  cadence: Cadence;
  interval: string;
  dayOfMonth: string;
  firstDate: string;
  ends: ScheduleEnds;
  endDate: string;
  count: string;
  dueDays: string;
  autopay: boolean;
  method: PaymentMethodCode | '';
  /** Day of month follows the first date's day until the user picks a day of their own. */
  dayFollowsFirstDate: boolean;
}

export const CADENCE_LABELS: Record<Cadence, { label: string; unit: string }> = {
  weekly: { label: 'Weekly', unit: 'weeks' },
  monthly: { label: 'Monthly', unit: 'months' },
  quarterly: { label: 'Quarterly', unit: 'quarters' },
  yearly: { label: 'Yearly', unit: 'years' },
};

/** What a field is called on screen, for the contract's messages. */
const FIELD_LABELS: Record<string, string> = {
  description: 'Description',
  amount: 'Amount',
  amountMode: 'Amount is',
  averageOf: 'Average of',
  flow: 'Flow',
  cadence: 'Repeats',
  interval: 'Every',
  dayOfMonth: 'Day of month',
  firstDate: 'First invoice date',
  endDate: 'End date',
  count: 'Number of invoices',
  dueDays: 'Due after (days)',
  autopay: 'Payment method',
};

export function emptyScheduleForm(today: string, internal: boolean): ScheduleFormValues {
  return {
    description: '',
    amount: '',
    amountMode: 'fixed',
    averageOf: String(AVERAGE_OF.default),
    flow: 'expense',
    cadence: 'monthly',
    interval: '1',
    dayOfMonth: String(Number(today.slice(8, 10))),
    firstDate: today,
    ends: 'never',
    endDate: '',
    count: '',
    dueDays: '0',
    autopay: false,
    method: internal ? 'bank|ach' : '',
    dayFollowsFirstDate: true,
  };
}

export function scheduleFormFromSchedule(schedule: Schedule): ScheduleFormValues {
  const firstDay = Number(schedule.firstDate.slice(8, 10));
  return {
    description: schedule.description,
    amount: amountInputText(schedule.amount),
    amountMode: schedule.amountMode,
    averageOf: String(schedule.averageOf ?? AVERAGE_OF.default),
    flow: schedule.flow === 'INCOMING' ? 'income' : 'expense',
    cadence: schedule.cadence,
    interval: String(schedule.interval),
    dayOfMonth: String(schedule.dayOfMonth ?? firstDay),
    firstDate: schedule.firstDate,
    ends: schedule.endDate !== null ? 'date' : schedule.count !== null ? 'count' : 'never',
    endDate: schedule.endDate ?? '',
    count: schedule.count === null ? '' : String(schedule.count),
    dueDays: String(schedule.dueDays),
    autopay: schedule.autopay !== null,
    method: (schedule.autopay ?? '') as PaymentMethodCode | '',
    dayFollowsFirstDate: schedule.dayOfMonth === null || schedule.dayOfMonth === firstDay,
  };
}

/** The form after a new first date: Day of month follows its day while the user has not picked one. */
export function withFirstDate(values: ScheduleFormValues, firstDate: string): ScheduleFormValues {
  const follows = values.dayFollowsFirstDate && isValidIsoDate(firstDate);
  return { ...values, firstDate, dayOfMonth: follows ? String(Number(firstDate.slice(8, 10))) : values.dayOfMonth };
}

/** The form after the user picks a Day of month: it no longer follows the first date (unless it is its day). */
export function withDayOfMonth(values: ScheduleFormValues, dayOfMonth: string): ScheduleFormValues {
  const firstDay = isValidIsoDate(values.firstDate) ? String(Number(values.firstDate.slice(8, 10))) : null;
  return { ...values, dayOfMonth, dayFollowsFirstDate: dayOfMonth === firstDay };
}

/**
 * The question a save asks, from the server's preview, before it creates invoices dated before today or beside an
 * existing invoice of the same date and amount: how many it creates at once, how many of them it also pays
 * automatically, and which already exist. Null when there is nothing to ask (nothing at once, or only today's
 * invoice and no duplicate).
 */
export function catchUpQuestion(preview: SchedulePreview, today: string): CatchUpQuestion | null {
  const { invoices } = preview;
  const duplicates = invoices.filter((i) => i.duplicateOf !== null);
  if (duplicates.length === 0 && !invoices.some((i) => i.date < today)) return null;
  const first = invoices[0]?.date ?? '';
  const last = invoices[invoices.length - 1]?.date ?? '';
  const lines = [
    `This creates ${countOf(invoices.length, 'invoice', 'invoices')} at once, dated ${first === last ? first : `${first} to ${last}`}.`,
  ];
  const paid = invoices.filter((i) => i.autopay).length;
  if (paid > 0)
    lines.push(
      invoices.length === 1
        ? 'It is also paid automatically at once: its due date has passed.'
        : `${paid === invoices.length ? 'All' : paid} of them ${paid === 1 ? 'is' : 'are'} also paid automatically at once: their due dates have passed.`,
    );
  if (duplicates.length > 0) {
    const which = duplicates.map((i) => `${i.date} (#${i.duplicateOf?.invoiceId})`).join(', ');
    const one = duplicates.length === 1;
    const others = invoices.length - duplicates.length;
    lines.push(
      `This entity already has ${one ? 'an invoice' : 'invoices'} of the same date and amount: ${which}.`,
      `Skip existing keeps ${one ? 'it' : 'them'} as the schedule's own, never paid automatically, and creates ${others === 0 ? 'nothing else' : `the other ${countOf(others, 'invoice', 'invoices')}`}.`,
    );
  }
  return { lines, duplicates: duplicates.length, created: invoices.length };
}

export interface CatchUpQuestion {
  /** Sentences, in order. */
  lines: string[];
  /** How many would stand beside an existing invoice: the question then offers to skip or create them. */
  duplicates: number;
  /** How many invoices the save creates at once (duplicates included). */
  created: number;
}

/** Whole numbers as typed; anything else goes to the server's rules as it is (and is refused with their words). */
const whole = (text: string): number | string => (/^\d{1,6}$/.test(text.trim()) ? Number(text.trim()) : text);

export function toScheduleBody(values: ScheduleFormValues): ScheduleBody {
  return {
    cadence: values.cadence,
    interval: whole(values.interval) as number,
    dayOfMonth: values.cadence === 'weekly' ? null : (whole(values.dayOfMonth) as number),
    firstDate: values.firstDate,
    endDate: values.ends === 'date' ? values.endDate : null,
    count: values.ends === 'count' ? (whole(values.count) as number) : null,
    amount: parseAmountInput(values.amount) ?? Number.NaN,
    amountMode: values.amountMode,
    averageOf: values.amountMode === 'average' ? (whole(values.averageOf) as number) : null,
    flow: values.flow,
    description: values.description,
    dueDays: whole(values.dueDays) as number,
    autopay: values.autopay ? (values.method === '' ? ('' as PaymentMethodCode) : values.method) : null,
  };
}

/**
 * The first problem of the form in words (`Every must be a whole number from 1 to 99.`), checked by the same
 * contract rules the server applies, or null.
 */
export function checkScheduleForm(values: ScheduleFormValues): string | null {
  if (values.autopay && values.method === '') return 'Choose the payment method of the automatic payments.';
  if (parseAmountInput(values.amount) === null) return 'Amount is required.';
  const parsed = scheduleBody.safeParse(toScheduleBody(values));
  if (parsed.success) return null;
  const [issue] = parsed.error.issues;
  if (!issue) return null;
  const field = String(issue.path[0] ?? '');
  const sentence = /^[A-Z]/.test(issue.message) ? issue.message : `${FIELD_LABELS[field] ?? field} ${issue.message}`;
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/**
 * The next few invoice dates the form describes: from its first date when that is after today, else from tomorrow
 * (an invoice dated today is one of those created at once, `immediateCount`); none while it is invalid.
 */
export function previewDates(values: ScheduleFormValues, today: string, limit = 3): string[] {
  const parsed = scheduleBody.safeParse(toScheduleBody(values));
  if (!parsed.success) return [];
  const rule: ScheduleRule = parsed.data;
  return upcomingOccurrences(rule, rule.firstDate > today ? rule.firstDate : addDays(today, 1), limit);
}

/** How many invoices a new schedule creates at once: its occurrences dated up to today (past the limit, one more). */
export function immediateCount(values: ScheduleFormValues, today: string): number {
  const parsed = scheduleBody.safeParse(toScheduleBody(values));
  if (!parsed.success || parsed.data.firstDate > today) return 0;
  const count = occurrencesUpTo(parsed.data, today, MAX_CATCH_UP);
  return parsed.data.count === null ? count : Math.min(count, parsed.data.count);
}

/** The amount modes as the form offers them, with what each means. */
export const AMOUNT_MODE_LABELS: Record<AmountMode, { label: string; help: string }> = {
  fixed: { label: 'Fixed', help: 'Every invoice is for this amount.' },
  last: {
    label: 'Same as last',
    help: 'Each invoice is estimated at the last confirmed invoice’s amount; this amount stands in until there is one.',
  },
  average: {
    label: 'Average of the last',
    help: 'Each invoice is estimated at the average of the last confirmed invoices; this amount stands in until there are some.',
  },
};

/** A schedule's amount as its list shows it: the fixed amount, or the estimate its next invoice would get and why. */
export function scheduleAmountText(
  schedule: Pick<Schedule, 'amount' | 'amountMode' | 'averageOf' | 'estimate'>,
): string {
  if (schedule.amountMode === 'fixed') return formatUsd(schedule.amount);
  const why = schedule.amountMode === 'last' ? 'same as last' : `average of the last ${schedule.averageOf}`;
  return `about ${formatUsd(schedule.estimate)} (${why})`;
}

const PLACEHOLDER_HELP = `Placeholders: ${Object.keys(TEMPLATE_PLACEHOLDERS)
  .map((name) => `{${name}}`)
  .join(' ')}`;

/**
 * The description field's help: the placeholders, and what the next invoice's description will read once the
 * field holds something and the schedule has a next date.
 */
export function descriptionHelp(description: string, next: string | undefined): string {
  if (next === undefined || description.trim() === '') return PLACEHOLDER_HELP;
  return `${PLACEHOLDER_HELP}. Next: “${expandTemplate(description, next, 1)}”`;
}
