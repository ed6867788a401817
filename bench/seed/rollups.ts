import { ENTRY_SUM_NAMES, ENTRY_SUMS } from '../../packages/server/src/modules/read-model/sums.ts';
import type { GenBill, GenEntry, GenPayment } from './generate.ts';

type Value = string | number;

/** Rows for one rollup table, ready for a bulk insert. */
export interface RollupRows {
  table: string;
  columns: string[];
  rows: Value[][];
}

const STATE = ['internal', 'archived', 'flow', 'pay_state'];

/**
 * The rollup tables of migration `2026-11-23T00-00_rollups`, summed while the data is generated: the
 * triggers are off during the bulk load, and this is far quicker than `rebuildRollups` grouping a million
 * rows in SQL. The entity sums are the read model's `ENTRY_SUMS`, applied to each generated entry. The seeder's test checks the result against a recomputation (`rollupDifferences`).
 */
export class RollupAccumulator {
  private readonly counts = {
    entry_state_counts: new Map<string, { key: Value[]; n: number }>(),
    entry_month_state_counts: new Map<string, { key: Value[]; n: number }>(),
    entry_month_counts: new Map<string, { key: Value[]; n: number }>(),
    entry_day_counts: new Map<string, { key: Value[]; n: number }>(),
  };
  private readonly bills = new Map<string, { key: Value[]; sums: number[] }>();
  private readonly payments = new Map<string, { key: Value[]; n: number; sum: number }>();
  private readonly live = new Map<number, { bill: GenBill; flow: string; payState: number }>();

  addEntry(ledgerId: number, e: GenEntry): void {
    if (e.recycledAt !== null) return;
    const state = [e.bill.internal ? 1 : 0, e.bill.archived ? 1 : 0, e.flow, e.payState];
    const month = e.date.slice(0, 7);
    this.bump(this.counts.entry_state_counts, [ledgerId, ...state]);
    this.bump(this.counts.entry_month_state_counts, [ledgerId, month, ...state]);
    this.bump(this.counts.entry_month_counts, [ledgerId, month, e.bill.category, ...state]);
    this.bump(this.counts.entry_day_counts, [ledgerId, e.date, e.bill.category, ...state]);
    const billKey: Value[] = [ledgerId, e.bill.id, e.flow, e.payState];
    const k = billKey.join('\u0000');
    const sums = [1, ...ENTRY_SUM_NAMES.map((name) => ENTRY_SUMS[name].of(e.amountCents, e.paidCents, e.balanceCents))];
    const row = this.bills.get(k);
    if (!row) this.bills.set(k, { key: billKey, sums });
    else for (const [i, v] of sums.entries()) row.sums[i] = (row.sums[i] ?? 0) + v;
    this.live.set(e.id, { bill: e.bill, flow: e.flow, payState: e.payState });
  }

  /** Call after `addEntry` of the payment's entry. */
  addPayment(ledgerId: number, p: GenPayment): void {
    const entry = this.live.get(p.entryId);
    if (p.recycledAt !== null || !entry) return;
    const key: Value[] = [ledgerId, entry.bill.id, entry.flow, entry.payState, p.type, p.medium];
    const k = key.join('\u0000');
    const row = this.payments.get(k);
    if (row) {
      row.n += 1;
      row.sum += p.amountCents;
    } else {
      this.payments.set(k, { key, n: 1, sum: p.amountCents });
    }
  }

  /** Forget entries already matched with their payments (the generator emits both in one batch). */
  endBatch(): void {
    this.live.clear();
  }

  tables(): RollupRows[] {
    const count = (table: keyof RollupAccumulator['counts'], columns: string[]): RollupRows => ({
      table,
      columns: [...columns, 'entry_count'],
      rows: [...this.counts[table].values()].map((r) => [...r.key, r.n]),
    });
    return [
      count('entry_state_counts', ['ledger_id', ...STATE]),
      count('entry_month_state_counts', ['ledger_id', 'month', ...STATE]),
      count('entry_month_counts', ['ledger_id', 'month', 'category', ...STATE]),
      count('entry_day_counts', ['ledger_id', 'day', 'category', ...STATE]),
      {
        table: 'entry_bill_totals',
        columns: ['ledger_id', 'bill_id', 'flow', 'pay_state', 'entry_count', ...ENTRY_SUM_NAMES],
        rows: [...this.bills.values()].map((r) => [...r.key, ...r.sums]),
      },
      {
        table: 'payment_bill_totals',
        columns: ['ledger_id', 'bill_id', 'flow', 'pay_state', 'type', 'medium', 'payment_count', 'amount_cents'],
        rows: [...this.payments.values()].map((r) => [...r.key, r.n, r.sum]),
      },
    ];
  }

  private bump(map: Map<string, { key: Value[]; n: number }>, key: Value[]): void {
    const k = key.join('\u0000');
    const row = map.get(k);
    if (row) row.n += 1;
    else map.set(k, { key, n: 1 });
  }
}
