import { type AmountMode, type AmountRule, amountsNeeded, estimateCents } from '@billfold/contract/schedules';
import type { ScheduleRow } from '../../db/schema.ts';
import type { SchedulesRepository } from './schedules.repository.ts';

/** The columns an estimate reads off a schedule row. */
export type EstimatedSchedule = Pick<
  ScheduleRow,
  'id' | 'ledger_id' | 'bill_id' | 'flow' | 'amount_cents' | 'amount_mode' | 'amount_of'
>;

export function amountRuleOf(row: Pick<ScheduleRow, 'amount_mode' | 'amount_of' | 'amount_cents'>): AmountRule {
  return { mode: row.amount_mode as AmountMode, averageOf: row.amount_of, amountCents: Number(row.amount_cents) };
}

/**
 * The amount, in cents, the schedule gives its next invoice now: its fixed amount, or the estimate from the recent
 * confirmed invoices (docs/decisions/0212-estimated-amounts.md). Reads nothing for a fixed schedule.
 */
export async function scheduleEstimate(repo: SchedulesRepository, row: EstimatedSchedule): Promise<number> {
  const rule = amountRuleOf(row);
  const needed = amountsNeeded(rule);
  return estimateCents(rule, needed === 0 ? [] : await repo.recentActuals(row, needed));
}
