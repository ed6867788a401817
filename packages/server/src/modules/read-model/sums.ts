/**
 * The money sums the per-entity rollup (`entry_bill_totals`) holds for a set of entries, defined once: as SQL
 * over a row of `entries` (the rebuild and the stats' scan of `entries`) and as arithmetic on one entry (the
 * benchmark seeder, which sums while it generates, and the ledger index, which sums in memory). `test/read-model.test.ts` checks the two forms agree.
 * The triggers of migration `2026-11-23T00-00_rollups` hold a frozen copy, checked by `rollupDifferences`.
 */
/** One entry's sum from its amount, paid total and balance, in cents. */
type Of = (amountCents: number, paidCents: number, balanceCents: number) => number;

export const ENTRY_SUMS = {
  amount_cents: { sql: 'amount_cents', of: ((amount) => amount) as Of },
  paid_cents: { sql: 'paid_cents', of: ((_, paid) => paid) as Of },
  /** What was received against the amount: the paid total, at most the amount. */
  received_cents: {
    sql: 'CASE WHEN paid_cents < amount_cents THEN paid_cents ELSE amount_cents END',
    of: ((amount, paid) => Math.min(paid, amount)) as Of,
  },
  overpaid_cents: {
    sql: 'CASE WHEN paid_cents > amount_cents THEN paid_cents - amount_cents ELSE 0 END',
    of: ((amount, paid) => Math.max(paid - amount, 0)) as Of,
  },
  balance_cents: { sql: 'balance_cents', of: ((_, __, balance) => balance) as Of },
} as const;

export type EntrySum = keyof typeof ENTRY_SUMS;
export const ENTRY_SUM_NAMES = Object.keys(ENTRY_SUMS) as EntrySum[];
