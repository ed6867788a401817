import type { ScheduledGroup } from '@billfold/contract/due';
import type { Flow } from '@billfold/contract/entries';
import { fromCents } from '@billfold/contract/money';
import {
  expandTemplate,
  occurrenceDueDate,
  occurrencesAfter,
  type ScheduleRule,
} from '@billfold/contract/schedule-dates';
import type { ScheduleRow } from '../../db/schema.ts';
import { ruleOf } from '../schedules/schedule.mapper.ts';

/**
 * An occurrence a schedule has not turned into an invoice yet, in cents
 * (docs/decisions/1012-scheduled-occurrences-in-upcoming.md).
 */
export interface ScheduledOccurrence {
  scheduleId: number;
  entityId: number;
  name: string;
  date: string;
  dueDate: string;
  amountCents: number;
  flow: Flow;
  description: string;
}

/** The columns of a schedule the due reads select, beside its entity's name. */
export const OCCURRENCE_COLUMNS = [
  'id',
  'bill_id',
  'cadence',
  'interval',
  'day_of_month',
  'first_date',
  'end_date',
  'max_count',
  'amount_cents',
  'flow',
  'template',
  'due_days',
  'next_date',
  'created_count',
  'ledger_id',
  'amount_mode',
  'amount_of',
] as const satisfies readonly (keyof ScheduleRow)[];

/** A schedule row as the due reads select it: with its entity's name. */
export type ScheduleWithEntity = Pick<ScheduleRow, (typeof OCCURRENCE_COLUMNS)[number]> & { bill_name: string };

/** Occurrences of one schedule a window may reach: a weekly one over a year is 53; this also bounds a long backlog. */
const MAX_PER_SCHEDULE = 400;

/**
 * The occurrences the schedule will still create whose due date falls in `[from, to]` (from the first one when `from`
 * is null). They start at the schedule's cursor `next_date`: the runner moves it past an occurrence in the same
 * transaction that creates its invoice, so an occurrence is either an invoice or here, never both.
 */
export function pendingOccurrences(
  schedule: ScheduleWithEntity,
  from: string | null,
  to: string,
): ScheduledOccurrence[] {
  if (schedule.next_date === null) return [];
  const found: ScheduledOccurrence[] = [];
  let n = schedule.created_count;
  for (const date of fromCursor(ruleOf(schedule), schedule.next_date)) {
    n++;
    if (n - schedule.created_count > MAX_PER_SCHEDULE) break;
    if (schedule.max_count !== null && n > schedule.max_count) break;
    // The invoice's due date as the runner sets it (docs/decisions/1010-recurring-invoices.md).
    const dueDate = occurrenceDueDate(date, schedule.due_days);
    if (dueDate > to) break;
    if (from === null || dueDate >= from) {
      found.push({
        scheduleId: schedule.id,
        entityId: schedule.bill_id,
        name: schedule.bill_name,
        date,
        dueDate,
        amountCents: schedule.amount_cents,
        flow: schedule.flow as Flow,
        description: expandTemplate(schedule.template, date, n),
      });
    }
  }
  return found;
}

/** The cursor, then each later occurrence by index: one search, then a cheap step each. */
function* fromCursor(rule: ScheduleRule, cursor: string): Generator<string, void, undefined> {
  yield cursor;
  yield* occurrencesAfter(rule, cursor);
}

/** Soonest due first, then by entity name and schedule, so the order is total. */
export const byDueDate = (a: ScheduledOccurrence, b: ScheduledOccurrence) =>
  a.dueDate.localeCompare(b.dueDate) || a.name.localeCompare(b.name) || a.scheduleId - b.scheduleId;

/** A window's scheduled invoices: counted and summed in cents, the first `limit` listed. */
export function scheduledGroup(occurrences: ScheduledOccurrence[], limit: number): ScheduledGroup {
  let toPay = 0;
  let toCollect = 0;
  for (const o of occurrences) {
    if (o.flow === 'OUTGOING') toPay += o.amountCents;
    else toCollect += o.amountCents;
  }
  return {
    count: occurrences.length,
    toPay: fromCents(toPay),
    toCollect: fromCents(toCollect),
    invoices: [...occurrences]
      .sort(byDueDate)
      .slice(0, limit)
      .map((o) => ({
        scheduleId: o.scheduleId,
        entityId: o.entityId,
        name: o.name,
        date: o.date,
        dueDate: o.dueDate,
        amount: fromCents(o.amountCents),
        flow: o.flow,
        description: o.description,
      })),
  };
}
