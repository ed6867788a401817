import { sql } from 'kysely';
import { type Db, isSqlite } from '../../db/database.ts';
import { Repository } from '../../db/repository.ts';
import { ENTRY_VIEW_COLUMNS } from '../entries/entry.mapper.ts';
import {
  countFromRollups,
  DEFAULT_READ_MODEL_OPTIONS,
  type ReadModelOptions,
  seeks,
  sqlHints,
  statsFromRollups,
  walksForLargestPayment,
} from './plan.ts';
import { rollupCount, rollupDateSeek, rollupEntryGroups, rollupMethodGroups } from './rollups.ts';
import type { EntryScope } from './scope.ts';
import { afterKey, type EntrySort, orderEntries, type SortKey, type SqlHints, scopedEntries } from './scope-sql.ts';
import { ENTRY_SUM_NAMES, ENTRY_SUMS } from './sums.ts';

/**
 * Step 4 of the read model: the plan's choices run as SQL, and the rows come back. One repository for every
 * read of a set of invoices: the list's total and page, the export's chunks and the stats' sums.
 */

/** What the CSV export needs beyond the entry view: the key of every sort and the stored balance. */
export const EXPORT_COLUMNS = [...ENTRY_VIEW_COLUMNS, 'bill_name_key', 'balance_cents'] as const;

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
const sideOf = (row: { flow: string; internal: number }): Side =>
  row.flow === 'INCOMING' && Number(row.internal) === 0 ? 'income' : 'expense';

const num = (value: unknown) => Number(value ?? 0);

export class ReadModelRepository extends Repository {
  constructor(
    db: Db,
    private readonly options: ReadModelOptions = DEFAULT_READ_MODEL_OPTIONS,
  ) {
    super(db);
  }

  // ---------------------------------------------------------------- list

  /** Number of live entries in the scope: from the rollups in well under a millisecond when they answer it (ADR 0400). */
  async count(s: EntryScope): Promise<number> {
    if (countFromRollups(s)) return rollupCount(this.db, s);
    const row = await scopedEntries(this.db, s)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  /**
   * The total and one page. On SQLite the page's plan may depend on the total (`sqlHints`); the queries run one
   * after the other there anyway (one connection), while PostgreSQL runs them side by side.
   */
  async countAndPage(s: EntryScope, sort: EntrySort, offset: number, limit: number) {
    if (!isSqlite(this.db)) return Promise.all([this.count(s), this.page(s, sort, offset, limit)]);
    const total = await this.count(s);
    return [total, await this.page(s, sort, offset, limit, total)] as const;
  }

  /** One page in the requested order: an index walk over `entries_live_<sort>`, no sort step. */
  async page(s: EntryScope, sort: EntrySort, offset: number, limit: number, total?: number) {
    if (seeks(s, sort, offset, this.options)) {
      // A deep page in date order starts at the day the rollups say holds row `offset` (ADR 0400).
      const seek = await rollupDateSeek(this.db, s, sort.order, offset);
      if (!seek) return [];
      const { offset: rest, ...dates } = seek;
      return this.pageQuery({ ...s, ...dates }, sort, rest, limit, await this.hints(s, sort, rest + limit)).execute();
    }
    return this.pageQuery(s, sort, offset, limit, await this.hints(s, sort, offset + limit, total)).execute();
  }

  pageQuery(s: EntryScope, sort: EntrySort, offset: number, limit: number, hints: SqlHints) {
    return orderEntries(scopedEntries(this.db, s, hints).select(ENTRY_VIEW_COLUMNS), sort)
      .limit(limit)
      .offset(offset);
  }

  /** The next `limit` rows strictly after `after` (keyset paging: cost independent of depth). */
  async chunk(s: EntryScope, sort: EntrySort, after: SortKey | null, limit: number) {
    return this.chunkQuery(s, sort, after, limit, await this.hints(s, sort, limit)).execute();
  }

  chunkQuery(s: EntryScope, sort: EntrySort, after: SortKey | null, limit: number, hints: SqlHints) {
    let q = scopedEntries(this.db, s, hints).select(EXPORT_COLUMNS);
    if (after) q = afterKey(q, sort, after);
    return orderEntries(q, sort).limit(limit);
  }

  hints(s: EntryScope, sort: EntrySort, rows: number, total?: number): Promise<SqlHints> {
    return sqlHints(s, sort, isSqlite(this.db), rows, async () => ({
      matching: total ?? (await this.count(s)),
      ledger: await this.count({ userId: s.userId }),
    }));
  }

  // ---------------------------------------------------------------- stats

  /** One row per side and entity (an entity has one category, so grouping by it adds no rows). */
  async entryGroups(s: EntryScope): Promise<EntryGroup[]> {
    const rows = statsFromRollups(s)
      ? await rollupEntryGroups(this.db, s).execute()
      : await scopedEntries(this.db, s)
          .select([
            'flow',
            'internal',
            'bill_name',
            'category',
            ...ENTRY_SUM_NAMES.map((name) => sql<number>`sum(${sql.raw(ENTRY_SUMS[name].sql)})`.as(name)),
          ])
          .groupBy(['flow', 'internal', 'bill_name', 'category'])
          .execute();
    return rows.map((r) => ({
      side: sideOf(r),
      name: r.bill_name,
      category: r.category,
      amount: num(r.amount_cents),
      received: num(r.received_cents),
      overpaid: num(r.overpaid_cents),
      outstanding: num(r.balance_cents),
      paid: num(r.paid_cents),
    }));
  }

  /** Per side and payment method: Σ and count of the scope's live payments, and the side's largest payment. */
  async methodGroups(s: EntryScope): Promise<MethodGroup[]> {
    if (!statsFromRollups(s)) {
      const entries = scopedEntries(this.db, s).where('payment_count', '>', 0).select(['id', 'flow', 'internal']);
      const rows = await this.db
        .selectFrom('payments')
        .innerJoin(entries.as('e'), 'e.id', 'payments.entry_id')
        .where('payments.user_id', '=', s.userId)
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
      const groups = rows.map((r) => ({
        side: sideOf(r),
        type: r.type,
        medium: r.medium,
        total: num(r.total),
        count: num(r.count),
        max: num(r.max),
      }));
      // `max` is the side's largest payment, as from the rollups below.
      for (const side of ['income', 'expense'] as const) {
        const max = Math.max(0, ...groups.filter((g) => g.side === side).map((g) => g.max));
        for (const g of groups) if (g.side === side) g.max = max;
      }
      return groups;
    }
    const groups = (await rollupMethodGroups(this.db, s).execute()).map((r) => ({
      side: sideOf(r),
      type: r.type,
      medium: r.medium,
      total: num(r.total),
      count: num(r.count),
      max: 0,
    }));
    for (const side of ['income', 'expense'] as const) {
      const payments = groups.reduce((n, g) => n + (g.side === side ? g.count : 0), 0);
      if (payments === 0) continue;
      const max = await this.largestPayment(s, side, walksForLargestPayment(payments, this.options));
      for (const g of groups) if (g.side === side) g.max = max;
    }
    return groups;
  }

  /**
   * The largest live payment of the scope's entries on one side. The rollups cannot keep a maximum (it cannot be
   * decremented): a broad selection walks `payments_live_amount` from the top and meets one of its payments
   * within a few rows; a narrow one goes from its entries to their payments.
   */
  async largestPayment(s: EntryScope, side: Side, walk: boolean): Promise<number> {
    const entries = scopedEntries(this.db, s).where((eb) =>
      side === 'income'
        ? eb.and([eb('flow', '=', 'INCOMING'), eb('internal', '=', 0)])
        : eb.or([eb('flow', '<>', 'INCOMING'), eb('internal', '<>', 0)]),
    );
    if (walk) {
      const top = await this.db
        .selectFrom('payments as p')
        .innerJoin(entries.select('id').as('e'), 'e.id', 'p.entry_id')
        .select('p.amount_cents')
        .where('p.user_id', '=', s.userId)
        .where('p.recycled_at', 'is', null)
        .orderBy('p.amount_cents', 'desc')
        .limit(1)
        .executeTakeFirst();
      return num(top?.amount_cents);
    }
    // CROSS JOIN fixes the order "entries, then their payments" on SQLite.
    const row = await this.db
      .selectFrom(entries.select('id').as('e'))
      .crossJoin('payments as p')
      .select((eb) => eb.fn.max('p.amount_cents').as('max'))
      .whereRef('p.entry_id', '=', 'e.id')
      .where('p.recycled_at', 'is', null)
      .executeTakeFirst();
    return num(row?.max);
  }
}
