import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { type Db, isSqlite, readAside } from '../../db/database.ts';
import { Repository } from '../../db/repository.ts';
import { nextTurn } from '../../lib/turns.ts';
import { type CategoryBook, readFilterBook } from '../categories/category-book.ts';
import type { ExportRow } from '../entries/entries-export.ts';
import { ENTRY_VIEW_COLUMNS, type EntryView } from '../entries/entry.mapper.ts';
import { DataVersionRepository } from './data-version.repository.ts';
import {
  ENTRY_FIGURES,
  type EntryGroup,
  entryKey,
  type MethodGroup,
  type MonthGroup,
  methodKey,
  num,
  type Side,
  sideOf,
  subtract,
  toEntryGroup,
  toMethodGroup,
} from './groups.ts';
import { LedgerIndexes } from './ledger-indexes.ts';
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
import {
  afterKey,
  attachmentCounts,
  type EntrySort,
  orderEntries,
  SORT_COLUMNS,
  type SortKey,
  type SqlHints,
  scopedEntries,
} from './scope-sql.ts';
import { ENTRY_SUM_NAMES, ENTRY_SUMS } from './sums.ts';

/**
 * Step 4 of the read model: the rows and sums come back. One repository for every read of a set of invoices:
 * the list's total and page, the export's rows and the stats' sums. Each is answered by the ledger's index
 * when it is ready (ledger-index.ts: the scope as a mask over columns in memory, the page's rows from its columns),
 * else by the plan's choices run as SQL.
 */

/**
 * Below this many slots, a mask of the whole ledger index costs less than the rollups' count, which is a statement
 * (on PostgreSQL a round trip): from it on, the count lets a page near the start stop its walk at the page.
 */
const ROLLUP_TOTAL_FROM = 65_536;

/** One page of the list: the scope's total, the page's invoices, and those of them that may have files attached. */
export interface ListPage {
  total: number;
  rows: EntryView[];
  filed: number[];
}

/** What the CSV export needs beyond the entry view: the key of every sort and the stored balance. */
export const EXPORT_COLUMNS = [...ENTRY_VIEW_COLUMNS, 'bill_name_key', 'balance_cents'] as const;

export class ReadModelRepository extends Repository {
  private readonly options: ReadModelOptions;
  readonly indexes: LedgerIndexes;

  constructor(db: Db, options: Partial<ReadModelOptions> = {}, log?: FastifyBaseLogger) {
    super(db);
    this.options = { ...DEFAULT_READ_MODEL_OPTIONS, ...options };
    this.indexes = new LedgerIndexes(
      db,
      new DataVersionRepository(db),
      (ledgerId) => rollupCount(db, { ledgerId }),
      this.options.ledgerIndex,
      Date.now,
      log,
    );
  }
  /**
   * The ledger's own categories when a filter's values may name one (docs/decisions/0105-categories-of-your-own.md);
   * none read when every value is built in.
   */
  categoryBook(ledgerId: number, values: readonly string[] | undefined): Promise<CategoryBook> {
    return readFilterBook(this.db, ledgerId, values);
  }

  // ---------------------------------------------------------------- list

  /** Per invoice of `ids`: the files attached to it and to its live payments (0 for none). */
  async attachmentCounts(ledgerId: number, ids: number[]): Promise<Map<number, number>> {
    const counts = new Map(ids.map((id) => [id, 0]));
    if (ids.length === 0) return counts;
    const { rows } = await attachmentCounts(ledgerId, ids).execute(this.db);
    for (const r of rows) counts.set(Number(r.entry_id), Number(r.n));
    return counts;
  }

  /** Number of live entries in the scope: from the rollups in well under a millisecond when they answer it (ADR 0400). */
  async count(s: EntryScope): Promise<number> {
    if (countFromRollups(s)) return rollupCount(this.db, s);
    const complement = await this.complement(s);
    if (complement) return complement.baseCount - complement.outsideCount;
    return this.scanCount(s);
  }

  /** `count(*)` over `entries`, stopping at `cap` rows when one is given: a scan of the scope, off the loop. */
  private async scanCount(s: EntryScope, cap?: number): Promise<number> {
    const rows = scopedEntries(this.db, s).select(sql<number>`1`.as('one'));
    const [row] = await readAside(
      this.db,
      this.db
        .selectFrom((cap === undefined ? rows : rows.limit(cap)).as('matching'))
        .select((eb) => eb.fn.countAll<number>().as('total')),
    );
    return Number(row?.total ?? 0);
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
   * The total, one page and which of its invoices may have files (`filed`, for `attachmentCounts`). From the ledger
   * index, the page is built from its columns and `filed` holds only the invoices its `ATTACHED` flag marks (ADR
   * 1143), so a page without files reads nothing more. By SQL, every invoice of the page is asked. On SQLite the
   * page's plan may depend on the total (`sqlHints`); the queries run one after the other there anyway (one
   * connection), while PostgreSQL runs them side by side.
   */
  async countAndPage(s: EntryScope, sort: EntrySort, offset: number, limit: number): Promise<ListPage> {
    const indexed = await this.indexes.read(
      s.ledgerId,
      async (index) => {
        // On a large ledger the total from the rollups (well under a millisecond) lets the walk stop at the page; on a
        // smaller one a mask of the whole ledger costs less than that statement.
        const known =
          index.slotCount >= ROLLUP_TOTAL_FROM && countFromRollups(s) ? await rollupCount(this.db, s) : undefined;
        const { count, slots } = index.page(s, SORT_COLUMNS[sort.field], sort.order === 'desc', offset, limit, known);
        const filed = slots.filter((slot) => index.attached(slot)).map((slot) => index.idOf(slot));
        return { total: count, rows: slots.map((slot) => index.entryRow(slot)), filed };
      },
      s.version,
    );
    if (indexed) return indexed.value;
    const [total, rows] = isSqlite(this.db)
      ? await this.count(s).then(async (total) => [total, await this.page(s, sort, offset, limit, total)] as const)
      : await Promise.all([this.count(s), this.page(s, sort, offset, limit)]);
    return { total, rows, filed: rows.map((row) => row.id) };
  }

  /**
   * One page in the requested order: an index walk over `entries_live_<sort>`, no sort step. When the ledger index
   * does not answer (it is loading), a page of a filter no SQL index serves reads the whole scope: seconds on a large
   * ledger, so it runs off the loop, which meanwhile answers others and loads the ledger's index.
   */
  async page(s: EntryScope, sort: EntrySort, offset: number, limit: number, total?: number) {
    if (seeks(s, sort, offset, this.options)) {
      // A deep page in date order starts at the day the rollups say holds row `offset` (ADR 0400).
      const seek = await rollupDateSeek(this.db, s, sort.order, offset);
      if (!seek) return [];
      const { offset: rest, ...dates } = seek;
      const hints = await this.hints(s, sort, rest + limit);
      return readAside(this.db, this.pageQuery({ ...s, ...dates }, sort, rest, limit, hints));
    }
    return readAside(this.db, this.pageQuery(s, sort, offset, limit, await this.hints(s, sort, offset + limit, total)));
  }

  pageQuery(s: EntryScope, sort: EntrySort, offset: number, limit: number, hints: SqlHints) {
    return orderEntries(scopedEntries(this.db, s, hints).select(ENTRY_VIEW_COLUMNS), sort)
      .limit(limit)
      .offset(offset);
  }

  /**
   * Every row of the scope in the sort's order, `size` at a time (the CSV export): by id from the ledger index's
   * order, or in keyset chunks of SQL; memory stays flat either way.
   */
  async *exportRows(s: EntryScope, sort: EntrySort, size: number): AsyncGenerator<ExportRow[]> {
    const column = SORT_COLUMNS[sort.field];
    const indexed = await this.indexes.read(
      s.ledgerId,
      (index) => ({ index, slots: index.slots(s, column, sort.order === 'desc') }),
      s.version,
    );
    if (indexed) {
      const { index, slots } = indexed.value;
      for (let i = 0; i < slots.length; i += size) {
        yield slots.slice(i, i + size).map((slot) => index.entryRow(slot));
        await nextTurn(); // other requests get their turn
      }
      return;
    }
    let after: SortKey | null = null;
    for (;;) {
      const rows = await this.chunk(s, sort, after, size);
      if (rows.length > 0) yield rows;
      const last = rows[rows.length - 1];
      if (!last || rows.length < size) return;
      after = { value: last[column], invoiceNumber: last.invoice_number };
    }
  }

  /** The next `limit` rows strictly after `after` (keyset paging: cost independent of depth). */
  async chunk(s: EntryScope, sort: EntrySort, after: SortKey | null, limit: number) {
    // A chunk of a filter and order no index serves reads the whole scope: seconds on a large ledger, off the loop.
    return readAside(this.db, this.chunkQuery(s, sort, after, limit, await this.hints(s, sort, limit)));
  }

  chunkQuery(s: EntryScope, sort: EntrySort, after: SortKey | null, limit: number, hints: SqlHints) {
    let q = scopedEntries(this.db, s, hints).select(EXPORT_COLUMNS);
    if (after) q = afterKey(q, sort, after);
    return orderEntries(q, sort).limit(limit);
  }

  hints(s: EntryScope, sort: EntrySort, rows: number, total?: number): Promise<SqlHints> {
    return sqlHints(s, sort, isSqlite(this.db), rows, async () => ({
      matching: total ?? (await this.count(s)),
      ledger: await this.count({ ledgerId: s.ledgerId }),
    }));
  }

  // ---------------------------------------------------------------- stats

  /**
   * The stats' sums of a scope: per side and entity (`entries`), and per side and payment method with the side's
   * largest payment (`methods`). From the per-entity rollups when they answer the scope; for one wide range, the
   * rollups without the range minus a scan of the rows outside it; otherwise a scan of the scope.
   */
  async stats(s: EntryScope): Promise<{ entries: EntryGroup[]; methods: MethodGroup[] }> {
    const indexed = await this.indexes.read(s.ledgerId, (index) => index.groups(index.match(s)), s.version);
    if (indexed) return indexed.value;
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

  /**
   * The amounts of the scope's invoices per month, side and category (the trends, docs/decisions/0210-trends.md):
   * one pass over the ledger index when it is ready, else one grouped scan of the scope. No rollup keys amounts by
   * month, so there is no rollup path.
   */
  async monthGroups(s: EntryScope): Promise<MonthGroup[]> {
    const indexed = await this.indexes.read(s.ledgerId, (index) => index.monthGroups(index.match(s).mask), s.version);
    if (indexed) return indexed.value;
    const query = scopedEntries(this.db, s)
      .select([
        sql<string>`substr(date, 1, 7)`.as('month'),
        'flow',
        'internal',
        'category',
        sql<number>`sum(amount_cents)`.as('amount'),
      ])
      .groupBy([sql`substr(date, 1, 7)`, 'flow', 'internal', 'category']);
    return (await readAside(this.db, query)).map((r) => ({
      month: r.month,
      side: sideOf(r),
      category: r.category,
      amount: num(r.amount),
    }));
  }

  private async rollupEntryGroups(s: EntryScope): Promise<EntryGroup[]> {
    return (await rollupEntryGroups(this.db, s).execute()).map(toEntryGroup);
  }

  private async scanEntryGroups(s: EntryScope): Promise<EntryGroup[]> {
    const rows = await readAside(
      this.db,
      scopedEntries(this.db, s)
        .select([
          'flow',
          'internal',
          'bill_name',
          'category',
          ...ENTRY_SUM_NAMES.map((name) => sql<number>`sum(${sql.raw(ENTRY_SUMS[name].sql)})`.as(name)),
        ])
        .groupBy(['flow', 'internal', 'bill_name', 'category']),
    );
    return rows.map(toEntryGroup);
  }

  private async rollupMethodGroups(s: EntryScope): Promise<MethodGroup[]> {
    return (await rollupMethodGroups(this.db, s).execute()).map(toMethodGroup);
  }

  /** Σ and count of the live payments of the scope's entries per flow, internal flag and method. */
  private async scanMethodGroups(s: EntryScope): Promise<MethodGroup[]> {
    const entries = scopedEntries(this.db, s).where('payment_count', '>', 0).select(['id', 'flow', 'internal']);
    const query = this.db
      .selectFrom('payments')
      .innerJoin(entries.as('e'), 'e.id', 'payments.entry_id')
      .where('payments.ledger_id', '=', s.ledgerId)
      .where('payments.recycled_at', 'is', null)
      .select((eb) => [
        'e.flow',
        'e.internal',
        'payments.type',
        'payments.medium',
        eb.fn.sum<number>('payments.amount_cents').as('total'),
        eb.fn.countAll<number>().as('count'),
      ])
      .groupBy(['e.flow', 'e.internal', 'payments.type', 'payments.medium']);
    return (await readAside(this.db, query)).map(toMethodGroup);
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
        .where('p.ledger_id', '=', s.ledgerId)
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
