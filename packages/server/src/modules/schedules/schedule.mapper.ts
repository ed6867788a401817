import { toApiTimestamp } from '@billfold/contract/dates';
import type { Flow } from '@billfold/contract/entries';
import { fromCents } from '@billfold/contract/money';
import type { Cadence, ScheduleRule } from '@billfold/contract/schedule-dates';
import type { AmountMode, Schedule } from '@billfold/contract/schedules';
import type { ScheduleRow } from '../../db/schema.ts';

export function ruleOf(
  row: Pick<ScheduleRow, 'cadence' | 'interval' | 'day_of_month' | 'first_date' | 'end_date'>,
): ScheduleRule {
  return {
    cadence: row.cadence as Cadence,
    interval: row.interval,
    dayOfMonth: row.day_of_month,
    firstDate: row.first_date,
    endDate: row.end_date,
  };
}

/** The schedule as the API shows it, with the amount its next invoice would get now (`scheduleEstimate`). */
export function toSchedule(row: ScheduleRow, estimateCents: number): Schedule {
  return {
    id: row.id,
    entityId: row.bill_id,
    cadence: row.cadence as Cadence,
    interval: row.interval,
    dayOfMonth: row.day_of_month,
    firstDate: row.first_date,
    endDate: row.end_date,
    count: row.max_count,
    amount: fromCents(row.amount_cents),
    amountMode: row.amount_mode as AmountMode,
    averageOf: row.amount_of,
    estimate: fromCents(estimateCents),
    flow: row.flow as Flow,
    description: row.template,
    dueDays: row.due_days,
    autopay: row.autopay_method,
    paused: row.paused === 1,
    nextDate: row.paused === 1 ? null : row.next_date,
    createdCount: row.created_count,
    createdAt: toApiTimestamp(new Date(row.created_at)),
  };
}
