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
import { firstAtOrAfter } from '../../lib/sorted.ts';
import { ruleOf } from '../schedules/schedule.mapper.ts';

/**
 * An occurrence a schedule has not turned into an invoice yet, in cents
 * (docs/decisions/1012-scheduled-occurrences-in-upcoming.md). Its description is worked out only where it is shown
 * (`describeOccurrence`): a forecast reaches thousands of occurrences and lists ten a day.
 */
export interface ScheduledOccurrence {
  scheduleId: number;
  entityId: number;
  name: string;
  date: string;
  dueDate: string;
  amountCents: number;
  flow: Flow;
  /** The schedule's description template, and which of its invoices this one would be (1 for the first). */
  template: string;
  number: number;
}

/** The description the occurrence's invoice would get. */
export const describeOccurrence = (o: ScheduledOccurrence): string => expandTemplate(o.template, o.date, o.number);

/** A schedule with its entity's name, as the due reads take it (`DueRepository.scheduled`). */
export type ScheduleWithEntity = ScheduleRow & { bill_name: string };

/** Occurrences of one schedule a window may reach: a weekly one over a year is 53; this also bounds a long backlog. */
const MAX_PER_SCHEDULE = 400;

/**
 * A schedule's pending occurrences from its cursor, in date order (so also in due date order), as far as a read has
 * asked: `upTo` the last due date asked, `complete` when they end before it (the rule's end, `max_count` or
 * `MAX_PER_SCHEDULE`). Kept per schedule while every field the dates depend on stays the same (`datesKey`).
 */
interface Expansion {
  dates: string[];
  dues: string[];
  upTo: string;
  complete: boolean;
}

/**
 * The expansions of recent schedules, least recently used first, with at most `EXPANSIONS_MAX_DATES` dates in all
 * (about 10 MB): the due summary, the forecast and the calendar feed then step through each schedule's dates once,
 * not once per request.
 */
const expansions = new Map<string, Expansion>();
const EXPANSIONS_MAX_DATES = 100_000;
let expansionDates = 0;

/** Every field of the schedule its pending dates depend on: a write to any of them makes a new key. */
const datesKey = (s: ScheduleWithEntity) =>
  [
    s.id,
    s.cadence,
    s.interval,
    s.day_of_month,
    s.first_date,
    s.end_date,
    s.max_count,
    s.due_days,
    s.next_date,
    s.created_count,
  ].join('|');

function expansionOf(schedule: ScheduleWithEntity, cursor: string, to: string): Expansion {
  const key = datesKey(schedule);
  const kept = expansions.get(key);
  if (kept) {
    expansions.delete(key); // re-inserted below: the Map's order is least recently used first
    expansions.set(key, kept);
    if (kept.complete || kept.upTo >= to) return kept;
    expansionDates -= kept.dates.length;
  }
  const expansion: Expansion = { dates: [], dues: [], upTo: to, complete: true };
  let n = schedule.created_count;
  for (const date of fromCursor(ruleOf(schedule), cursor)) {
    n++;
    if (n - schedule.created_count > MAX_PER_SCHEDULE) break;
    if (schedule.max_count !== null && n > schedule.max_count) break;
    // The invoice's due date as the runner sets it (docs/decisions/1010-recurring-invoices.md).
    const dueDate = occurrenceDueDate(date, schedule.due_days);
    if (dueDate > to) {
      expansion.complete = false;
      break;
    }
    expansion.dates.push(date);
    expansion.dues.push(dueDate);
  }
  expansions.set(key, expansion);
  expansionDates += expansion.dates.length;
  for (const [oldest, dropped] of expansions) {
    if (expansionDates <= EXPANSIONS_MAX_DATES || oldest === key) break;
    expansions.delete(oldest);
    expansionDates -= dropped.dates.length;
  }
  return expansion;
}

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
  const { dates, dues } = expansionOf(schedule, schedule.next_date, to);
  const found: ScheduledOccurrence[] = [];
  for (let k = from === null ? 0 : firstAtOrAfter(dues, from); k < dues.length && (dues[k] as string) <= to; k++) {
    found.push({
      scheduleId: schedule.id,
      entityId: schedule.bill_id,
      name: schedule.bill_name,
      date: dates[k] as string,
      dueDate: dues[k] as string,
      amountCents: schedule.amount_cents,
      flow: schedule.flow as Flow,
      template: schedule.template,
      number: schedule.created_count + k + 1,
    });
  }
  return found;
}

/** The cursor, then each later occurrence by index: one search, then a cheap step each. */
function* fromCursor(rule: ScheduleRule, cursor: string): Generator<string, void, undefined> {
  yield cursor;
  yield* occurrencesAfter(rule, cursor);
}

/**
 * Soonest due first, then by entity name (`localeCompare`) and schedule, so the order is total. Each distinct name is
 * ranked once: a forecast orders thousands of occurrences of a few hundred entities.
 */
export function occurrenceOrder(
  occurrences: readonly ScheduledOccurrence[],
): (a: ScheduledOccurrence, b: ScheduledOccurrence) => number {
  const names = [...new Set(occurrences.map((o) => o.name))].sort((a, b) => a.localeCompare(b));
  const rank = new Map<string, number>();
  names.forEach((name, i) => {
    const previous = names[i - 1];
    rank.set(name, previous !== undefined && previous.localeCompare(name) === 0 ? (rank.get(previous) as number) : i);
  });
  const rankOf = (o: ScheduledOccurrence) => rank.get(o.name) as number;
  return (a, b) =>
    (a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : 0) ||
    rankOf(a) - rankOf(b) ||
    a.scheduleId - b.scheduleId;
}

/** The occurrences in `occurrenceOrder`, sorted in place. */
export function sortByDueDate(occurrences: ScheduledOccurrence[]): ScheduledOccurrence[] {
  return occurrences.sort(occurrenceOrder(occurrences));
}

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
    invoices: sortByDueDate([...occurrences])
      .slice(0, limit)
      .map((o) => ({
        scheduleId: o.scheduleId,
        entityId: o.entityId,
        name: o.name,
        date: o.date,
        dueDate: o.dueDate,
        amount: fromCents(o.amountCents),
        flow: o.flow,
        description: describeOccurrence(o),
      })),
  };
}
