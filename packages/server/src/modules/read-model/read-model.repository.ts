import { sql } from 'kysely';
import { type Db, isSqlite } from '../../db/database.ts';
import { Repository } from '../../db/repository.ts';
import { ENTRY_VIEW_COLUMNS } from '../entries/entry.mapper.ts';
import {
  complementOf,
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

const toEntryGroup = (
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

const toMethodGroup = (r: {
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

const ENTRY_FIGURES = ['amount', 'received', 'overpaid', 'outstanding', 'paid'] as const;
const entryKey = (g: EntryGroup) => `${g.side}\u0000${g.name}\u0000${g.category}`;
const methodKey = (g: MethodGroup) => `${g.side}\u0000${g.type}\u0000${g.medium}`;

/** `from` minus `take`, group by group (the groups of `take` are all in `from`: it is a subset of the rows). */
function subtract<G>(from: G[], take: G[], key: (g: G) => string, figures: readonly (keyof G)[]): G[] {
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
    const complement = await this.complement(s);
    if (complement) return complement.baseCount - complement.outsideCount;
    return this.scanCount(s);
  }

  /** `count(*)` over `entries`, stopping at `cap` rows when one is given. */
  private async scanCount(s: EntryScope, cap?: number): Promise<number> {
    const rows = scopedEntries(this.db, s).select(sql<number>`1`.as('one'));
    const row = await this.db
      .selectFrom((cap === undefined ? rows : rows.limit(cap)).as('matching'))
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  /**
   * The complement plan (`complementOf`) when the rows outside the range are fewer than those inside it: the
   * outside is counted only up to half the base, so deciding costs at most what a scan of the smaller side does.
   */
  private async complement(s: EntryScope) {
    const plan = complementOf(s);
    if (!plan) return null;
    const baseCount = await rollupCount(this.db, plan.base);
    const cap = Math.ceil(baseCount / 2);
    let outsideCount = 0;
    for (const o of plan.outside) {
      outsideCount += countFromRollups(o) ? await rollupCount(this.db, o) : await this.scanCount(o, cap - outsideCount);
      if (outsideCount >= cap) return null;
    }
    return { ...plan, baseCount, outsideCount };
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

  /**
   * The stats' sums of a scope: per side and entity (`entries`), and per side and payment method with the side's
   * largest payment (`methods`). From the per-entity rollups when they answer the scope; for one wide range, the
   * rollups without the range minus a scan of the rows outside it; otherwise a scan of the scope.
   */
  async stats(s: EntryScope): Promise<{ entries: EntryGroup[]; methods: MethodGroup[] }> {
    let entries: EntryGroup[];
    let methods: MethodGroup[];
    const complement = statsFromRollups(s) ? null : await this.complement(s);
    if (statsFromRollups(s)) {
      [entries, methods] = [await this.rollupEntryGroups(s), await this.rollupMethodGroups(s)];
    } else if (complement) {
      entries = await this.rollupEntryGroups(complement.base);
      methods = await this.rollupMethodGroups(complement.base);
      for (const o of complement.outside) {
        entries = subtract(entries, await this.scanEntryGroups(o), entryKey, ENTRY_FIGURES);
        methods = subtract(methods, await this.scanMethodGroups(o), methodKey, ['total', 'count'] as const);
      }
    } else {
      [entries, methods] = [await this.scanEntryGroups(s), await this.scanMethodGroups(s)];
    }
    for (const side of ['income', 'expense'] as const) {
      const payments = methods.reduce((n, g) => n + (g.side === side ? g.count : 0), 0);
      if (payments === 0) continue;
      const max = await this.largestPayment(s, side, walksForLargestPayment(payments, this.options));
      for (const g of methods) if (g.side === side) g.max = max;
    }
    return { entries, methods: methods.filter((g) => g.count > 0) };
  }

  private async rollupEntryGroups(s: EntryScope): Promise<EntryGroup[]> {
    return (await rollupEntryGroups(this.db, s).execute()).map(toEntryGroup);
  }

  private async scanEntryGroups(s: EntryScope): Promise<EntryGroup[]> {
    const rows = await scopedEntries(this.db, s)
      .select([
        'flow',
        'internal',
        'bill_name',
        'category',
        ...ENTRY_SUM_NAMES.map((name) => sql<number>`sum(${sql.raw(ENTRY_SUMS[name].sql)})`.as(name)),
      ])
      .groupBy(['flow', 'internal', 'bill_name', 'category'])
      .execute();
    return rows.map(toEntryGroup);
  }

  private async rollupMethodGroups(s: EntryScope): Promise<MethodGroup[]> {
    return (await rollupMethodGroups(this.db, s).execute()).map(toMethodGroup);
  }

  /** Σ and count of the live payments of the scope's entries per flow, internal flag and method. */
  private async scanMethodGroups(s: EntryScope): Promise<MethodGroup[]> {
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
      ])
      .groupBy(['e.flow', 'e.internal', 'payments.type', 'payments.medium'])
      .execute();
    return rows.map(toMethodGroup);
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
