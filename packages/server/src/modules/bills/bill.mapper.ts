import type { Bill, BillOverview, BillScheduleSummary } from '@billfold/contract/bills';
import { categoryLabel } from '@billfold/contract/categories';
import { fromCents } from '@billfold/contract/money';
import type { BillRow, EntriesTable, ScheduleRow } from '../../db/schema.ts';
import { toSchedule } from '../schedules/schedule.mapper.ts';
import type { BillOverviewRow } from './bills.repository.ts';

/** The entity columns every invoice carries a copy of. */
export type EntryBillColumns = Pick<EntriesTable, 'bill_name' | 'bill_name_key' | 'category' | 'internal' | 'archived'>;

/** The case-insensitive key that makes entity names unique per ledger. */
export function billNameKey(name: string): string {
  return name.toLowerCase();
}

export function toBill(row: BillRow): Bill {
  return {
    id: row.id,
    name: row.name,
    category: categoryLabel(row.category),
    internal: row.internal === 1,
    status: row.status === 1 ? 1 : 0,
    recycle: row.recycled_at !== null,
  };
}

/** What an invoice copies from its entity. */
export function entryColumnsOf(
  bill: Pick<BillRow, 'name' | 'name_key' | 'category' | 'internal' | 'status'>,
): EntryBillColumns {
  return {
    bill_name: bill.name,
    bill_name_key: bill.name_key,
    category: bill.category,
    internal: bill.internal,
    archived: bill.status === 0 ? 1 : 0,
  };
}

/**
 * A schedule in short: what `toSchedule` says of its rule, amounts, flow and next date, and whether it has ended;
 * `estimateCents` is the amount its next invoice would get now (`scheduleEstimates`).
 */
export function toScheduleSummary(row: ScheduleRow, estimateCents: number): BillScheduleSummary {
  const { id, cadence, interval, dayOfMonth, amount, amountMode, averageOf, estimate, flow, paused, nextDate } =
    toSchedule(row, estimateCents);
  return {
    id,
    cadence,
    interval,
    dayOfMonth,
    amount,
    amountMode,
    averageOf,
    estimate,
    flow,
    paused,
    nextDate,
    ended: row.next_date === null,
  };
}

/** An entity of the overview with its open balances, next due date and schedules; `overdue` is the request's. */
export function toBillOverview(
  row: BillOverviewRow,
  schedules: readonly ScheduleRow[],
  estimates: ReadonlyMap<number, number>,
): Omit<BillOverview, 'overdue'> {
  return {
    ...toBill(row),
    invoiceCount: Number(row.invoice_count),
    balance: { toPay: fromCents(Number(row.to_pay_cents)), toCollect: fromCents(Number(row.to_collect_cents)) },
    nextDueDate: row.next_due,
    schedules: schedules.map((s) => toScheduleSummary(s, estimates.get(s.id) ?? s.amount_cents)),
  };
}
