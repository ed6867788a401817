/**
 * Calendar arithmetic of recurring invoices (docs/decisions/1010-recurring-invoices.md), on `YYYY-MM-DD` dates.
 * Plain integer arithmetic on year, month and day (weeks through the UTC day count of dates.ts): no `Date` at local
 * midnight, so the host's time zone and its daylight-saving shifts never move a date, and a step costs a few
 * additions. Generating N occurrences steps by occurrence index (`occurrencesAfter`), O(N) cheap steps.
 */
import { addDays as addIsoDays, daysBetween, MAX_DATE } from './dates.ts';

export const CADENCES = ['weekly', 'monthly', 'quarterly', 'yearly'] as const;
export type Cadence = (typeof CADENCES)[number];

/** Months between two steps of each month-based cadence, per unit of `interval`. */
const MONTHS_PER_STEP: Record<Exclude<Cadence, 'weekly'>, number> = { monthly: 1, quarterly: 3, yearly: 12 };

export interface ScheduleRule {
  cadence: Cadence;
  /** Every `interval` weeks, months, quarters or years. */
  interval: number;
  /** Month-based cadences: the day of the month, the month's last day when it is shorter. Null for weekly. */
  dayOfMonth: number | null;
  /** No occurrence before it. */
  firstDate: string;
  /** No occurrence after it (inclusive), or open-ended. */
  endDate: string | null;
}

/** Year, month (1–12) and day of a `YYYY-MM-DD` date. */
function parts(date: string): [number, number, number] {
  return [Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10))];
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Months a month-based cadence moves per step. */
function monthStep(rule: ScheduleRule): number {
  return MONTHS_PER_STEP[rule.cadence as Exclude<Cadence, 'weekly'>] * rule.interval;
}

/** The month-based cadence's candidate `j` steps after the first date's month, on its day or the month's last. */
function monthCandidate(rule: ScheduleRule, j: number): string {
  const [year, month, firstDay] = parts(rule.firstDate);
  const total = month - 1 + j * monthStep(rule);
  const y = year + Math.floor(total / 12);
  const m = total - Math.floor(total / 12) * 12 + 1;
  const day = Math.min(rule.dayOfMonth ?? firstDay, daysInMonth(y, m));
  return `${String(y).padStart(4, '0')}-${pad2(m)}-${pad2(day)}`;
}

/** 1 when the first date's own month has its day before the first date, so the series starts a step later. */
function monthOffset(rule: ScheduleRule): number {
  return monthCandidate(rule, 0) < rule.firstDate ? 1 : 0;
}

/** Occurrence `index` given the rule's month offset, ignoring the end date, or null past the last stored date. */
function dateAt(rule: ScheduleRule, index: number, offset: number): string | null {
  const date =
    rule.cadence === 'weekly'
      ? addIsoDays(rule.firstDate, index * 7 * rule.interval)
      : monthCandidate(rule, index + offset);
  return date <= MAX_DATE ? date : null;
}

/** The date of occurrence `index` (0, 1, 2…) ignoring the end date, or null past the last date the app stores. */
export function occurrenceDate(rule: ScheduleRule, index: number): string | null {
  return dateAt(rule, index, rule.cadence === 'weekly' ? 0 : monthOffset(rule));
}

/** Index of the first occurrence on or after `date`, ignoring the end date. */
function indexOnOrAfter(rule: ScheduleRule, date: string): number {
  if (date <= rule.firstDate) return 0;
  if (rule.cadence === 'weekly') return Math.ceil(daysBetween(rule.firstDate, date) / (7 * rule.interval));
  const step = monthStep(rule);
  const offset = monthOffset(rule);
  const [year, month] = parts(date);
  const [firstYear, firstMonth] = parts(rule.firstDate);
  // The candidate in or just before `date`'s month, then at most two steps forward.
  let j = Math.max(offset, Math.floor(((year - firstYear) * 12 + month - firstMonth) / step));
  while (monthCandidate(rule, j) < date) j++;
  return j - offset;
}

/** The first occurrence on or after `date` (within the end date), or null when the schedule has none left. */
export function firstOccurrenceOnOrAfter(rule: ScheduleRule, date: string): string | null {
  const next = occurrenceDate(rule, indexOnOrAfter(rule, date));
  return next !== null && (rule.endDate === null || next <= rule.endDate) ? next : null;
}

/** The occurrence after `date` (which need not be one), or null. */
export function occurrenceAfter(rule: ScheduleRule, date: string): string | null {
  return date >= MAX_DATE ? null : firstOccurrenceOnOrAfter(rule, addIsoDays(date, 1));
}

/**
 * The occurrences after `date` (which need not be one), in order, until the end date or the last date the app
 * stores: the same dates as calling `occurrenceAfter` on each in turn, but one search and then a step by index each.
 */
export function* occurrencesAfter(rule: ScheduleRule, date: string): Generator<string, void, undefined> {
  if (date >= MAX_DATE) return;
  const offset = rule.cadence === 'weekly' ? 0 : monthOffset(rule);
  for (let index = indexOnOrAfter(rule, addIsoDays(date, 1)); ; index++) {
    const next = dateAt(rule, index, offset);
    if (next === null || (rule.endDate !== null && next > rule.endDate)) return;
    yield next;
  }
}

/** The next `limit` occurrences on or after `from` (fewer when the schedule ends). */
export function upcomingOccurrences(rule: ScheduleRule, from: string, limit: number): string[] {
  const first = firstOccurrenceOnOrAfter(rule, from);
  if (first === null || limit <= 0) return [];
  const dates = [first];
  for (const next of occurrencesAfter(rule, first)) {
    if (dates.length >= limit) break;
    dates.push(next);
  }
  return dates;
}

/**
 * The due date of an occurrence's invoice: `dueDays` after its date, never past the last date the app stores (as an
 * edit that moves an invoice's due date).
 */
export function occurrenceDueDate(date: string, dueDays: number): string {
  const due = addIsoDays(date, dueDays);
  if (due > MAX_DATE) return MAX_DATE;
  return due;
}

/** How many occurrences fall on or before `today`, counting at most `limit + 1` (enough to tell "too many"). */
export function occurrencesUpTo(rule: ScheduleRule, today: string, limit: number): number {
  return upcomingOccurrences(rule, rule.firstDate, limit + 1).filter((date) => date <= today).length;
}

// ---------- description templates ----------

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** The placeholders of a description template and what each becomes for an invoice dated `date`, number `n`. */
export const TEMPLATE_PLACEHOLDERS = {
  date: 'the invoice date, 2026-03-31',
  day: 'its day of the month, 31',
  month: 'its month, March',
  year: 'its year, 2026',
  quarter: 'its quarter, Q1',
  n: 'the number of the invoice in the schedule, 1 for the first',
} as const;
export type TemplatePlaceholder = keyof typeof TEMPLATE_PLACEHOLDERS;

const PLACEHOLDER = /\{([^{}]*)\}/g;

/** The first `{name}` of a template that is not a placeholder, or null. */
export function unknownPlaceholder(template: string): string | null {
  for (const match of template.matchAll(PLACEHOLDER)) {
    if (!Object.hasOwn(TEMPLATE_PLACEHOLDERS, match[1] ?? '')) return match[0];
  }
  return null;
}

/** The template with its placeholders filled in for the invoice dated `date` that is the schedule's `n`-th. */
export function expandTemplate(template: string, date: string, n: number): string {
  const [year = '', month = '', day = ''] = date.split('-');
  const values: Record<TemplatePlaceholder, string> = {
    date,
    day: String(Number(day)),
    month: MONTH_NAMES[Number(month) - 1] ?? '',
    year,
    quarter: `Q${Math.ceil(Number(month) / 3)}`,
    n: String(n),
  };
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(values, name) ? values[name as TemplatePlaceholder] : whole,
  );
}

// ---------- words ----------

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** "Every 2 weeks", "Monthly on the 31st (the last day in shorter months)", "Every 3 years on the 29th". */
export function cadenceLabel(rule: Pick<ScheduleRule, 'cadence' | 'interval' | 'dayOfMonth'>): string {
  const { cadence, interval } = rule;
  if (cadence === 'weekly') return interval === 1 ? 'Weekly' : `Every ${interval} weeks`;
  const unit = { monthly: 'month', quarterly: 'quarter', yearly: 'year' }[cadence];
  const every = interval === 1 ? `${unit.charAt(0).toUpperCase()}${unit.slice(1)}ly` : `Every ${interval} ${unit}s`;
  const day = rule.dayOfMonth ?? 1;
  const shorter = day > 28 ? ' (the last day in shorter months)' : '';
  return `${every} on the ${ordinal(day)}${shorter}`;
}
