import { Repository } from '../../db/repository.ts';
import { rollupEntryGroups, rollupMethodGroups } from '../../db/rollups.ts';
import { type EntryQueryFilters, filteredEntries } from '../entries/entries.query.ts';

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

/** Single live payments of one method on one side, in cents. */
export interface MethodGroup {
  side: Side;
  type: string;
  medium: string;
  total: number;
  count: number;
  max: number;
}

/**
 * Income = INCOMING entries of non-internal entities; everything else in the filtered set is an expense.
 * The service has already left internal entries out unless the filter asks for them (then they are
 * expenses even if stored INCOMING). Grouping by the stored columns keeps CASE out of the GROUP BY.
 */
const sideOf = (row: { flow: string; internal: number }): Side =>
  row.flow === 'INCOMING' && Number(row.internal) === 0 ? 'income' : 'expense';

const num = (value: unknown) => Number(value ?? 0);

/**
 * Stats as SQL aggregates in integer cents. Entry-level figures, and the payment sums per entity and per
 * category, come from the totals stored on `entries` (`paid_cents` is the sum of the entry's live
 * payments) in one pass; only the per-method figures and the largest single payment read `payments`.
 */
export class StatsRepository extends Repository {
  /** One row per side and entity (an entity has one category, so grouping by it adds no rows). */
  async entryGroups(userId: number, filters: EntryQueryFilters): Promise<EntryGroup[]> {
    // Without dates or amounts the per-entity rollup answers from a few thousand rows (ADR 0400).
    const rolled = await rollupEntryGroups(this.db, userId, filters);
    if (rolled)
      return rolled.map(({ bill_name, flow, internal, ...sums }) => ({
        side: sideOf({ flow, internal }),
        name: bill_name,
        ...sums,
      }));
    const rows = await filteredEntries(this.db, userId, filters)
      .select((eb) => [
        'flow',
        'internal',
        'bill_name',
        'category',
        eb.fn.sum<number>('amount_cents').as('amount'),
        eb.fn
          .sum<number>(
            eb
              .case()
              .when('paid_cents', '<', eb.ref('amount_cents'))
              .then(eb.ref('paid_cents'))
              .else(eb.ref('amount_cents'))
              .end(),
          )
          .as('received'),
        eb.fn
          .sum<number>(
            eb
              .case()
              .when('paid_cents', '>', eb.ref('amount_cents'))
              .then(eb('paid_cents', '-', eb.ref('amount_cents')))
              .else(0)
              .end(),
          )
          .as('overpaid'),
        eb.fn.sum<number>('balance_cents').as('outstanding'),
        eb.fn.sum<number>('paid_cents').as('paid'),
      ])
      .groupBy(['flow', 'internal', 'bill_name', 'category'])
      .execute();
    return rows.map((r) => ({
      side: sideOf(r),
      name: r.bill_name,
      category: r.category,
      amount: num(r.amount),
      received: num(r.received),
      overpaid: num(r.overpaid),
      outstanding: num(r.outstanding),
      paid: num(r.paid),
    }));
  }

  /** Per side and payment method: Σ, count and max of the live payments of the filtered entries. */
  async methodGroups(userId: number, filters: EntryQueryFilters): Promise<MethodGroup[]> {
    // From the rollups `max` is the largest payment of the row's side, which is all the service reads (ADR 0400).
    const rolled = await rollupMethodGroups(this.db, userId, filters, filteredEntries);
    if (rolled) return rolled.map(({ flow, internal, ...rest }) => ({ side: sideOf({ flow, internal }), ...rest }));
    const entries = filteredEntries(this.db, userId, filters)
      .where('payment_count', '>', 0)
      .select(['id', 'flow', 'internal']);
    const rows = await this.db
      .selectFrom('payments')
      .innerJoin(entries.as('e'), 'e.id', 'payments.entry_id')
      .where('payments.user_id', '=', userId)
      .where('payments.recycled_at', 'is', null)
      .select((eb) => [
        'e.flow',
        'e.internal',
        'payments.type',
        'payments.medium',
        eb.fn.sum<number>('payments.amount_cents').as('total'),
        eb.fn.countAll<number>().as('count'),
        eb.fn.max('payments.amount_cents').as('max'),
      ])
      .groupBy(['e.flow', 'e.internal', 'payments.type', 'payments.medium'])
      .execute();
    return rows.map((r) => ({
      side: sideOf(r),
      type: r.type,
      medium: r.medium,
      total: num(r.total),
      count: num(r.count),
      max: num(r.max),
    }));
  }
}
