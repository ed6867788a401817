/**
 * The stats' sums of a scope as every read path returns them: per side and entity, and per side and payment
 * method. `StatsService` turns them into the figures; whether they came from the ledger index, the rollups or a
 * scan of `entries` does not show.
 */

/** Which side of the ledger a figure belongs to. */
export type Side = 'income' | 'expense';

/** Entry-level sums of one entity on one side, in cents. */
export interface EntryGroup {
  side: Side;
  name: string;
  category: string;
  amount: number;
  received: number;
  overpaid: number;
  outstanding: number;
  paid: number;
}

/** Live payments of one method on one side, in cents; `max` is the largest single payment of the whole side. */
export interface MethodGroup {
  side: Side;
  type: string;
  medium: string;
  total: number;
  count: number;
  max: number;
}

/** Income = INCOMING entries of non-internal entities; everything else in the scope is an expense. */
export const sideOf = (row: { flow: string; internal: number }): Side =>
  row.flow === 'INCOMING' && Number(row.internal) === 0 ? 'income' : 'expense';

export const num = (value: unknown) => Number(value ?? 0);

/** The sum of the amounts of one side's invoices of one category in one month (`YYYY-MM`), in cents: what trends add up. */
export interface MonthGroup {
  month: string;
  side: Side;
  category: string;
  amount: number;
}

export const toEntryGroup = (
  r: { flow: string; internal: number; bill_name: string; category: string } & Record<string, unknown>,
): EntryGroup => ({
  side: sideOf(r),
  name: r.bill_name,
  category: r.category,
  amount: num(r.amount_cents),
  received: num(r.received_cents),
  overpaid: num(r.overpaid_cents),
  outstanding: num(r.balance_cents),
  paid: num(r.paid_cents),
});

export const toMethodGroup = (r: {
  flow: string;
  internal: number;
  type: string;
  medium: string;
  total: unknown;
  count: unknown;
}): MethodGroup => ({
  side: sideOf(r),
  type: r.type,
  medium: r.medium,
  total: num(r.total),
  count: num(r.count),
  max: 0,
});

export const ENTRY_FIGURES = ['amount', 'received', 'overpaid', 'outstanding', 'paid'] as const;
export const entryKey = (g: EntryGroup) => `${g.side}\u0000${g.name}\u0000${g.category}`;
export const methodKey = (g: MethodGroup) => `${g.side}\u0000${g.type}\u0000${g.medium}`;

/** `from` minus `take`, group by group (the groups of `take` are all in `from`: it is a subset of the rows). */
export function subtract<G>(from: G[], take: G[], key: (g: G) => string, figures: readonly (keyof G)[]): G[] {
  const out = new Map<string, G>();
  for (const g of from) {
    const row = out.get(key(g));
    if (!row) out.set(key(g), { ...g });
    else for (const f of figures) (row[f] as number) += g[f] as number;
  }
  for (const g of take) {
    const row = out.get(key(g));
    if (!row) throw new Error(`read model: a group outside the range is not in the whole (${key(g)})`);
    for (const f of figures) (row[f] as number) -= g[f] as number;
  }
  return [...out.values()];
}

/** An unpaid invoice due on a day of the forecast, as both read paths give it; `balance_cents` is what is still owed. */
export interface OpenInvoiceRow {
  id: number;
  invoice_number: number;
  bill_id: number;
  bill_name: string;
  due_date: string;
  flow: string;
  services: string;
  balance_cents: number;
}

/**
 * One due day of unpaid invoices of active entities (the due summary's): how many, what is still owed on the
 * income and on the expenses in cents, and the first ones by invoice number.
 */
export interface OwedDay {
  dueDate: string;
  count: number;
  incomeCents: number;
  expenseCents: number;
  first: OpenInvoiceRow[];
}
