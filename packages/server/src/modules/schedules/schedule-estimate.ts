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
 * The amount, in cents, each schedule gives its next invoice now, by schedule id: its fixed amount, or the estimate
 * from the recent confirmed invoices (docs/decisions/0212-estimated-amounts.md). One read for all the variable
 * schedules; nothing for fixed ones.
 */
export async function scheduleEstimates(
  repo: SchedulesRepository,
  rows: readonly EstimatedSchedule[],
): Promise<Map<number, number>> {
  const rules = rows.map((row) => {
    const rule = amountRuleOf(row);
    return { row, rule, needed: amountsNeeded(rule) };
  });
  const variable = rules.filter((r) => r.needed > 0).map((r) => r.row);
  const limit = Math.max(0, ...rules.map((r) => r.needed));
  const actuals = await repo.recentActuals(variable, limit);
  return new Map(rules.map(({ row, rule }) => [row.id, estimateCents(rule, actuals.get(row.id) ?? [])]));
}

/** `scheduleEstimates` of one schedule. */
export async function scheduleEstimate(repo: SchedulesRepository, row: EstimatedSchedule): Promise<number> {
  return (await scheduleEstimates(repo, [row])).get(row.id) ?? Number(row.amount_cents);
}
