import { type EntryFilters, SORT_FIELDS, type SortField } from '@billfold/contract/entries';
import { type CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database.ts';
import { DueRepository } from '../src/modules/due/due.repository.ts';
import {
  distinctTexts,
  invoicesAfter,
  livePaymentsAfter,
  predecessors,
  TEXT_SORT_COLUMNS,
} from '../src/modules/read-model/ledger-index-store.ts';
import { ReadModelRepository } from '../src/modules/read-model/read-model.repository.ts';
import { toScope } from '../src/modules/read-model/scope.ts';
import { type EntrySort, SORT_COLUMNS } from '../src/modules/read-model/scope-sql.ts';
import { SchedulesRepository } from '../src/modules/schedules/schedules.repository.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { signUp } from './helpers/factories.ts';
import { type EntrySeed, personalLedgerOf, type SeededBill, seedBills, seedEntries } from './helpers/seed.ts';

/** Twenty entities (every fifth archived) and `count` invoices spread over them, each shaped by `entry(i)`. */
async function seedLedger(db: Db, ledgerId: number, count: number, entry: (i: number) => Omit<EntrySeed, 'bill'>) {
  const bills = await seedBills(
    db,
    { ledger: ledgerId },
    Array.from({ length: 20 }, (_, i) => ({ name: `Entity ${i}`, archived: i % 5 === 0 })),
  );
  await seedEntries(
    db,
    { ledger: ledgerId },
    Array.from({ length: count }, (_, i) => ({ bill: bills[i % bills.length] as SeededBill, ...entry(i) })),
  );
}

/**
 * SQLite's plan for the list queries exactly as the repository compiles them: a walk of the partial index
 * of the sort field (no temporary B-tree to sort), whatever the statistics say.
 */
describe('SQLite query plans of the invoice list', () => {
  let t: TestApp;
  let repo: ReadModelRepository;
  let ledgerId: number;

  const plan = async (query: { compile(): CompiledQuery }): Promise<string[]> => {
    const compiled = query.compile();
    const result = await t.app.db.executeQuery<{ detail: string }>({
      ...compiled,
      sql: `EXPLAIN QUERY PLAN ${compiled.sql}`,
    });
    return result.rows.map((row) => row.detail);
  };
  /** The page query as the repository plans and writes it for the first page. */
  const page = async (sort: EntrySort, filters: EntryFilters = {}, owner = ledgerId) => {
    const scope = toScope(owner, filters);
    return repo.pageQuery(scope, sort, 0, 100, await repo.hints(scope, sort, 100));
  };

  const expectIndexWalk = (details: string[], index: RegExp) => {
    expect(details.join(' | ')).toMatch(index);
    expect(details.join(' | ')).not.toMatch(/TEMP B-TREE/);
    expect(details.some((d) => /^SCAN entries\b(?! USING)/.test(d))).toBe(false);
  };

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    repo = new ReadModelRepository(t.app.db);
    const session = await signUp(t.app);
    ledgerId = await personalLedgerOf(t.app.db, session.username);
  });
  afterAll(() => t.close());

  describe.each(['empty database', 'after ANALYZE of a one-user ledger'])('%s', (state) => {
    beforeAll(async () => {
      if (state === 'empty database') return;
      await seedLedger(t.app.db, ledgerId, 3000, (i) => ({
        date: `2026-0${1 + (i % 9)}-${String(1 + (i % 28)).padStart(2, '0')}`,
        amountCents: (i * 7919) % 100_000,
        dueDate: i % 4 === 0 ? null : `2026-1${i % 3}-${String(1 + (i % 28)).padStart(2, '0')}`,
        payments: i % 3 === 0 ? [{ amountCents: 100 }] : [],
      }));
      await sql`ANALYZE`.execute(t.app.db);
    });

    it('default list query (date desc, invoice number desc) walks entries_live_date', async () => {
      expectIndexWalk(
        await plan(await page({ field: 'date', order: 'desc' })),
        /USING (COVERING )?INDEX entries_live_date\b/,
      );
    });

    it.each([
      ['balance', 'asc'],
      ['balance', 'desc'],
      ['amount', 'asc'],
      ['amount', 'desc'],
    ] as const)('sort by %s %s walks its index', async (field, order) => {
      const index = field === 'balance' ? 'entries_live_balance' : 'entries_live_amount';
      expectIndexWalk(await plan(await page({ field, order })), new RegExp(`USING (COVERING )?INDEX ${index}\\b`));
    });

    it.each(SORT_FIELDS.flatMap((field) => (['asc', 'desc'] as const).map((order) => [field, order] as const)))(
      'sort by %s %s needs no sort step',
      async (field: SortField, order) => {
        expectIndexWalk(await plan(await page({ field, order })), /USING (COVERING )?INDEX entries_/);
      },
    );

    it('the web app’s default (last 30 days) is an index range over entries_live_date', async () => {
      const details = await plan(await page({ field: 'date', order: 'desc' }, { startDate: '2026-10-23' }));
      expectIndexWalk(details, /entries_live_date \(ledger_id=\? AND date>\?\)/);
    });

    it('the due filter, the due summary’s sums and its lists are ranges of entries_live_unpaid_due', async () => {
      // `due_date is not null` reads as `due_date>NULL`.
      const range = /INDEX entries_live_unpaid_due \(ledger_id=\? AND (due_date>\? AND )?due_date<\?\)/;
      const filtered = await plan(
        await page({ field: 'date', order: 'desc' }, { due: 'overdue', today: '2026-05-01' }),
      );
      expect(filtered.join(' | ')).toMatch(range);
      const due = new DueRepository(t.app.db);
      const sums = await plan(due.totalsQuery(ledgerId, '2026-05-01', [7, 30]));
      expect(sums.join(' | ')).toMatch(
        /COVERING INDEX entries_live_unpaid_due \(ledger_id=\? AND (due_date>\? AND )?due_date<\?\)/,
      );
      expectIndexWalk(await plan(due.firstDueQuery(ledgerId, null, '2026-04-30', 5)), range);
    });

    it('the estimates of many schedules seek each entity’s newest invoices, never scanning the ledger', async () => {
      const sources = Array.from({ length: 40 }, (_, i) => ({
        id: i + 1,
        ledger_id: ledgerId,
        bill_id: i + 1,
        flow: 'OUTGOING',
      }));
      const query = new SchedulesRepository(t.app.db).recentActualsQuery(sources, 3);
      const details = await plan({ compile: () => query.compile(t.app.db) });
      const text = details.join(' | ');
      expect(text).toMatch(/SEARCH e USING INDEX entries_live_bill_date \(ledger_id=\? AND bill_id=\? AND date>\?\)/);
      expect(text).toMatch(/SEARCH x USING INDEX entries_live_bill_date \(ledger_id=\? AND bill_id=\?\)/);
      expect(text).not.toMatch(/TEMP B-TREE/);
      expect(details.some((d) => /^SCAN (e|x|entries)\b/.test(d))).toBe(false);
    });

    it('an export chunk after a keyset position seeks into the index', async () => {
      const after = { value: '2026-03-01', invoiceNumber: 42 };
      const details = await plan(
        repo.chunkQuery(toScope(ledgerId, {}), { field: 'date', order: 'desc' }, after, 1000, {}),
      );
      expectIndexWalk(details, /entries_live_date \(ledger_id=\? AND \(date,invoice_number\)<\(\?,\?\)\)/);
    });
  });

  describe('balance and category sorts (ADR 0402)', () => {
    let ownerLedger: number;
    const hinted = async (filters: EntryFilters, sort: EntrySort) => plan(await page(sort, filters, ownerLedger));

    beforeAll(async () => {
      ownerLedger = await personalLedgerOf(t.app.db, (await signUp(t.app)).username);
      const bills = await seedBills(
        t.app.db,
        { ledger: ownerLedger },
        Array.from({ length: 12 }, (_, i) => ({ name: `Kind ${i}`, category: i < 6 ? 'Home Services' : 'Dining' })),
      );
      await seedEntries(
        t.app.db,
        { ledger: ownerLedger },
        Array.from({ length: 4000 }, (_, i) => ({
          bill: bills[i % bills.length] ?? (bills[0] as (typeof bills)[number]),
          date: `20${16 + (i % 10)}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
          amountCents: 100 + ((i * 7919) % 100_000),
          payments:
            i % 4 === 0 ? [{ amountCents: 100 + ((i * 7919) % 100_000) }] : i % 4 === 1 ? [{ amountCents: 50 }] : [],
        })),
      );
      await sql`ANALYZE`.execute(t.app.db);
    });

    it.each([
      ['true', 'desc', /entries_live_balance \(ledger_id=\? AND balance_cents=\?\)/],
      ['false', 'asc', /entries_live_balance \(ledger_id=\? AND balance_cents>\?\)/],
      ['partial', 'asc', /entries_live_balance \(ledger_id=\? AND balance_cents>\?\)/],
      ['overpaid', 'desc', /entries_live_(balance|status) \(ledger_id=\? AND (balance_cents|pay_state)=\?\)/],
    ] as const)(
      'paid=%s sorted by balance %s walks only the matching side of the balance',
      async (paid, order, index) => {
        expectIndexWalk(await hinted({ paid }, { field: 'balance', order }), index);
      },
    );

    it('a category over most of its dates, sorted by balance, walks entries_live_category_balance', async () => {
      const filters: EntryFilters = { categoryList: ['Home Services'], startDate: '2019-01-01', paid: 'false' };
      expectIndexWalk(
        await hinted(filters, { field: 'balance', order: 'desc' }),
        /entries_live_category_balance \(ledger_id=\? AND category=\? AND balance_cents>\?\)/,
      );
    });

    it('a category over most of its dates, sorted by amount, walks entries_live_category_amount', async () => {
      const filters = { categoryList: ['home_services'], startDate: '2017-06-01', endDate: '2025-12-31' };
      expectIndexWalk(
        await hinted(filters, { field: 'amount', order: 'asc' }),
        /entries_live_category_amount \(ledger_id=\? AND category=\?\)/,
      );
    });

    it('a narrow date range is read from entries_live_category_date and sorted (a few rows)', async () => {
      const filters = { categoryList: ['Home Services'], startDate: '2020-03-01', endDate: '2020-03-31' };
      const details = (await hinted(filters, { field: 'amount', order: 'asc' })).join(' | ');
      expect(details).toMatch(/entries_live_category_date \(ledger_id=\? AND category=\? AND date>\? AND date<\?\)/);
    });
  });

  it('the ledger index moves a changed invoice with one seek of each sort index (ADR 0405)', async () => {
    for (const column of new Set(Object.values(SORT_COLUMNS))) {
      const compiled = predecessors(ledgerId, column, [1, 2]).compile(t.app.db);
      const result = await t.app.db.executeQuery<{ detail: string }>({
        ...compiled,
        sql: `EXPLAIN QUERY PLAN ${compiled.sql}`,
      });
      const details = result.rows.map((r) => r.detail).join(' | ');
      expect(details, column).toMatch(/SEARCH e USING INTEGER PRIMARY KEY/);
      expect(details, column).toMatch(/SEARCH p USING (COVERING )?INDEX entries_(live_|ledger_number)/);
      expect(details, column).not.toMatch(/TEMP B-TREE|SCAN p\b/);
    }
  });

  it('a ledger index load reads a small ledger among large ones by its own rows, in id order', async () => {
    const small = await personalLedgerOf(t.app.db, (await signUp(t.app)).username);
    await seedLedger(t.app.db, small, 5, () => ({ payments: [{ amountCents: 100 }] }));
    await sql`ANALYZE`.execute(t.app.db);
    for (const owner of [small, ledgerId]) {
      const invoices = (await plan(invoicesAfter(t.app.db, owner, 0))).join(' | ');
      const payments = (await plan(livePaymentsAfter(t.app.db, owner, 0))).join(' | ');
      for (const details of [invoices, payments]) expect(details).not.toMatch(/TEMP B-TREE|SCAN (entries|payments)\b/);
      for (const column of TEXT_SORT_COLUMNS) {
        const details = (await plan(distinctTexts(t.app.db, owner, column))).join(' | ');
        expect(details, column).toMatch(/SEARCH entries USING (COVERING )?INDEX entries_live_/);
        expect(details, column).not.toMatch(/TEMP B-TREE|SCAN entries\b/);
      }
      if (owner === small) {
        expect(invoices).toMatch(/SEARCH entries USING INDEX entries_ledger_id \(ledger_id=\? AND id>\?\)/);
        expect(payments).toMatch(
          /SEARCH payments USING INDEX payments_ledger_(id \(ledger_id=\? AND id|recycled \(ledger_id=\? AND recycled_at=\? AND rowid)>\?\)/,
        );
      }
    }
  });
});

/**
 * PostgreSQL's plans for the key shapes, read from `EXPLAIN (FORMAT JSON)` over an analysed ledger: each page is
 * an index scan of the sort's partial index that yields the rows in order (no Sort node, no scan of the whole
 * table), a balance sort with a paid filter scans only the matching side, and the total of a flow, paid and
 * archive filter reads the small state rollup, not `entries`.
 */
describe.runIf(dialects.includes('postgres'))('PostgreSQL query plans of the invoice list', () => {
  let t: TestApp;
  let repo: ReadModelRepository;
  let ledgerId: number;

  interface PlanNode {
    'Node Type': string;
    'Index Name'?: string;
    'Relation Name'?: string;
    'Index Cond'?: string;
    Plans?: PlanNode[];
  }
  const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];
  const plan = async (query: { compile(): CompiledQuery }): Promise<PlanNode[]> => {
    const compiled = query.compile();
    const result = await t.app.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>({
      ...compiled,
      sql: `EXPLAIN (FORMAT JSON) ${compiled.sql}`,
    });
    const root = result.rows[0]?.['QUERY PLAN'][0]?.Plan;
    if (!root) throw new Error('no plan');
    return nodes(root);
  };
  const page = async (sort: EntrySort, filters: EntryFilters = {}) => {
    const scope = toScope(ledgerId, filters);
    return plan(repo.pageQuery(scope, sort, 0, 100, await repo.hints(scope, sort, 100)));
  };
  const expectIndexWalk = (plan: PlanNode[], index: RegExp) => {
    const summary = plan.map((n) => `${n['Node Type']} ${n['Index Name'] ?? n['Relation Name'] ?? ''}`).join(' | ');
    expect(
      plan.some((n) => /Index/.test(n['Node Type']) && index.test(n['Index Name'] ?? '')),
      summary,
    ).toBe(true);
    expect(
      plan.some((n) => n['Node Type'] === 'Sort' || n['Node Type'] === 'Incremental Sort'),
      summary,
    ).toBe(false);
    expect(
      plan.some((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'entries'),
      summary,
    ).toBe(false);
  };

  beforeAll(async () => {
    t = await createTestApp('postgres');
    repo = new ReadModelRepository(t.app.db);
    ledgerId = await personalLedgerOf(t.app.db, (await signUp(t.app)).username);
    await seedLedger(t.app.db, ledgerId, 20_000, (i) => ({
      date: `20${16 + (i % 10)}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
      amountCents: 100 + ((i * 7919) % 100_000),
      services: `service ${i % 97}`,
      payments:
        i % 4 === 0 ? [{ amountCents: 100 + ((i * 7919) % 100_000) }] : i % 4 === 1 ? [{ amountCents: 50 }] : [],
    }));
    await sql`ANALYZE`.execute(t.app.db);
  }, 180_000);
  afterAll(() => t.close());

  it.each(SORT_FIELDS.flatMap((field) => (['asc', 'desc'] as const).map((order) => [field, order] as const)))(
    'sort by %s %s is an ordered scan of its index',
    async (field: SortField, order) => {
      expectIndexWalk(await page({ field, order }), /^entries_(live_|ledger_number$)/);
    },
  );

  it('the ledger index moves a changed invoice with one seek of each sort index (ADR 0405)', async () => {
    for (const column of new Set(Object.values(SORT_COLUMNS))) {
      const compiled = predecessors(ledgerId, column, [1, 2]).compile(t.app.db);
      const result = await t.app.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>({
        ...compiled,
        sql: `EXPLAIN (FORMAT JSON) ${compiled.sql}`,
      });
      const root = result.rows[0]?.['QUERY PLAN'][0]?.Plan;
      if (!root) throw new Error('no plan');
      const all = nodes(root);
      const summary = all.map((n) => `${n['Node Type']} ${n['Index Name'] ?? n['Relation Name'] ?? ''}`).join(' | ');
      expect(
        all.some((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'entries'),
        summary,
      ).toBe(false);
      expect(
        all.some((n) => /^entries_(live_|ledger_number$)/.test(n['Index Name'] ?? '')),
        summary,
      ).toBe(true);
      expect(
        all.some((n) => n['Node Type'] === 'Sort'),
        summary,
      ).toBe(false);
    }
  });

  it('a ledger index load reads a small ledger among large ones by its own rows, in id order', async () => {
    const small = await personalLedgerOf(t.app.db, (await signUp(t.app)).username);
    await seedLedger(t.app.db, small, 5, () => ({ payments: [{ amountCents: 100 }] }));
    await sql`ANALYZE`.execute(t.app.db);
    for (const [query, index] of [
      [invoicesAfter(t.app.db, small, 0), 'entries_ledger_id'],
      [livePaymentsAfter(t.app.db, small, 0), 'payments_ledger_id'],
    ] as const) {
      const all = await plan(query);
      const summary = all.map((n) => `${n['Node Type']} ${n['Index Name'] ?? n['Relation Name'] ?? ''}`).join(' | ');
      expect(
        all.some((n) => /Index/.test(n['Node Type']) && n['Index Name'] === index),
        summary,
      ).toBe(true);
      expect(
        all.some((n) => n['Node Type'] === 'Seq Scan' || n['Node Type'] === 'Sort'),
        summary,
      ).toBe(false);
    }
    // The text orders' distinct values: a walk of the column's own index, each value once. (For a ledger that is
    // nearly the whole table PostgreSQL rightly reads the table and sorts the few distinct values.)
    for (const column of TEXT_SORT_COLUMNS) {
      const all = await plan(distinctTexts(t.app.db, small, column));
      const summary = all.map((n) => `${n['Node Type']} ${n['Index Name'] ?? n['Relation Name'] ?? ''}`).join(' | ');
      expect(
        all.some((n) => n['Node Type'] === 'Index Only Scan' && /^entries_live_/.test(n['Index Name'] ?? '')),
        `${column}: ${summary}`,
      ).toBe(true);
      expect(
        all.some((n) => n['Node Type'] === 'Seq Scan' || n['Node Type'] === 'Sort'),
        `${column}: ${summary}`,
      ).toBe(false);
    }
  });

  it('the default list walks entries_live_date; a date range is a range of it', async () => {
    expectIndexWalk(await page({ field: 'date', order: 'desc' }), /^entries_live_date$/);
    expectIndexWalk(await page({ field: 'date', order: 'desc' }, { startDate: '2025-06-01' }), /^entries_live_date$/);
  });

  it.each(['true', 'false', 'partial'] as const)(
    'paid=%s sorted by balance scans the balance index within the matching side',
    async (paid) => {
      const nodesOf = await page({ field: 'balance', order: 'asc' }, { paid });
      expectIndexWalk(nodesOf, /^entries_live_balance$/);
      const scan = nodesOf.find((n) => n['Index Name'] === 'entries_live_balance');
      expect(scan?.['Index Cond']).toMatch(/balance_cents [=>]/);
    },
  );

  it('an export chunk after a keyset position starts inside the index', async () => {
    const after = { value: '2020-03-01', invoiceNumber: 42 };
    const nodesOf = await plan(
      repo.chunkQuery(toScope(ledgerId, {}), { field: 'date', order: 'desc' }, after, 1000, {}),
    );
    expectIndexWalk(nodesOf, /^entries_live_date$/);
    expect(nodesOf.find((n) => n['Index Name'] === 'entries_live_date')?.['Index Cond']).toMatch(
      /ROW\(date, invoice_number\) </,
    );
  });
});
