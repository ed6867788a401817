import type { FastifyInstance } from 'fastify';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { Db } from '../src/db/database.ts';
import { DataVersionRepository } from '../src/modules/read-model/data-version.repository.ts';
import { LedgerIndex } from '../src/modules/read-model/ledger-index.ts';
import { estimateLedgerBytes } from '../src/modules/read-model/ledger-index-size.ts';
import { IndexTooLarge } from '../src/modules/read-model/ledger-index-store.ts';
import { DEFAULT_LEDGER_INDEX_OPTIONS, LedgerIndexes } from '../src/modules/read-model/ledger-indexes.ts';
import { createTestApp, dialects, type TestApp, testConfig } from './helpers/app.ts';
import { type Session, signUp } from './helpers/factories.ts';
import { type SeededBill, seedBills, seedEntries, userIdOf } from './helpers/seed.ts';

/**
 * The ledger index's memory cap (docs/decisions/0405-ledger-index.md, Memory): a ledger is sized from SQL before
 * it is read, names and descriptions counted; one that would not fit is never loaded and SQL answers, the same;
 * a load that outgrows the memory anyway stops; the count of a loaded index includes its names.
 */

const INVOICES = 60;
const LONG = 500;

/** A database handle that keeps every statement it runs (as its query tree), to see what was read. */
function watched(db: Db): { db: Db; statements: string[] } {
  const statements: string[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      statements.push(JSON.stringify(node));
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { db: db.withPlugin(plugin), statements };
}

describe.each(dialects)('the ledger index memory cap on %s', (dialect) => {
  let t: TestApp;
  let short: { session: Session; id: number };
  let long: { session: Session; id: number };

  /** A user with `INVOICES` invoices over 3 entities, each with a payment; long names and unique long descriptions, or not. */
  async function ledger(withLongText: boolean) {
    const session = await signUp(t.app);
    const id = await userIdOf(t.app.db, session.username);
    const name = (i: number) => (withLongText ? `${'N'.repeat(95)} ${i}` : `E${i}`);
    const bills: SeededBill[] = await seedBills(
      t.app.db,
      id,
      [0, 1, 2].map((i) => ({ name: name(i) })),
    );
    await seedEntries(
      t.app.db,
      id,
      Array.from({ length: INVOICES }, (_, i) => ({
        bill: bills[i % 3] as SeededBill,
        services: withLongText ? `${i}`.padEnd(LONG, 'd') : 'Rent',
        payments: [{ amountCents: 100 }],
      })),
    );
    return { session, id };
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    short = await ledger(false);
    long = await ledger(true);
  });
  afterAll(() => t.close());

  it('estimates from SQL with the text counted: long descriptions and names estimate bigger, by their characters', async () => {
    const a = await estimateLedgerBytes(t.app.db, short.id);
    const b = await estimateLedgerBytes(t.app.db, long.id);
    expect(a.invoices).toBe(INVOICES);
    expect(b.invoices).toBe(INVOICES);
    // 60 distinct descriptions of 500 characters against one of 4, and three names of ~97 characters (name and key).
    const extraChars = INVOICES * LONG - 4 + 3 * 2 * 95;
    expect(b.bytes - a.bytes).toBeGreaterThanOrEqual(2 * extraChars);
  });

  it('counts names and descriptions in a loaded index, and never more than the estimate', async () => {
    // Loaded as `LedgerIndexes` loads them: the columns sized for the estimate's count of invoices.
    const load = async (id: number) =>
      LedgerIndex.load(
        t.app.db,
        id,
        await new DataVersionRepository(t.app.db).version(id),
        Number.POSITIVE_INFINITY,
        (await estimateLedgerBytes(t.app.db, id)).invoices,
      );
    const a = await load(short.id);
    const b = await load(long.id);
    const extraChars = INVOICES * LONG - 4 + 3 * 2 * 95;
    expect(b.bytes - a.bytes).toBeGreaterThanOrEqual(2 * extraChars);
    for (const [index, id] of [
      [a, short.id],
      [b, long.id],
    ] as const) {
      const estimate = await estimateLedgerBytes(t.app.db, id);
      expect(index.bytes).toBeLessThanOrEqual(estimate.bytes);
      expect(index.bytes).toBeGreaterThan(estimate.bytes * 0.8);
    }
  });

  it('never reads a ledger whose estimate is over the memory: SQL answers, and reads it once it fits', async () => {
    const { bytes } = await estimateLedgerBytes(t.app.db, long.id);
    const make = (maxBytes: number) => {
      const w = watched(t.app.db);
      const indexes = new LedgerIndexes(w.db, new DataVersionRepository(w.db), async () => 0, {
        ...DEFAULT_LEDGER_INDEX_OPTIONS,
        maxBytes,
      });
      const reads = (table: string) => w.statements.some((s) => s.includes(`"name":"${table}"`));
      return { indexes, statements: w.statements, reads };
    };
    const over = make(bytes - 1);
    expect(await over.indexes.read(long.id, (index) => index.bytes)).toBeNull();
    expect(over.indexes.answered(long.id)).toBe('sql');
    expect(over.reads('bills')).toBe(true); // the estimate's name lengths
    expect(over.reads('payments')).toBe(false); // the load's first pass over the payments never ran
    // The refusal is remembered: the next read neither loads nor estimates again.
    over.statements.length = 0;
    expect(await over.indexes.read(long.id, (index) => index.bytes)).toBeNull();
    expect(over.statements).toEqual([]);

    const fits = make(bytes);
    const loaded = await fits.indexes.read(long.id, (index) => index.bytes);
    expect(loaded?.value).toBeGreaterThan(0);
    expect(fits.reads('payments')).toBe(true);
  });

  it('estimates a ledger that did not fit again only after tooLargeRecheckMs, and loads it once it fits', async () => {
    const { bytes } = await estimateLedgerBytes(t.app.db, long.id);
    let clock = 1_000_000;
    const w = watched(t.app.db);
    const options = { ...DEFAULT_LEDGER_INDEX_OPTIONS, maxBytes: bytes - 1 };
    const indexes = new LedgerIndexes(
      w.db,
      new DataVersionRepository(w.db),
      async () => 0,
      options,
      () => clock,
    );
    expect(await indexes.read(long.id, (index) => index.bytes)).toBeNull();
    expect(w.statements.length).toBeGreaterThan(0);
    // Past the retry of a failed load, still before the recheck: neither estimated nor read.
    clock += Math.max(options.retryAfterMs, options.tooLargeRecheckMs - 1);
    w.statements.length = 0;
    expect(await indexes.read(long.id, (index) => index.bytes)).toBeNull();
    expect(w.statements).toEqual([]);
    // At the recheck it is estimated again; still over, so still SQL, and the next recheck is as far away.
    clock += 1;
    expect(await indexes.read(long.id, (index) => index.bytes)).toBeNull();
    expect(w.statements.some((st) => st.includes('"name":"bills"'))).toBe(true);
    w.statements.length = 0;
    clock += options.tooLargeRecheckMs - 1;
    expect(await indexes.read(long.id, (index) => index.bytes)).toBeNull();
    expect(w.statements).toEqual([]);
    // Given the memory it needs, the recheck loads it.
    options.maxBytes = bytes;
    clock += 1;
    expect((await indexes.read(long.id, (index) => index.bytes))?.value).toBeGreaterThan(0);
    expect(indexes.answered(long.id)).toBe('index');
  });

  it('grows full columns by a sixteenth as invoices are caught up with, staying within the estimate', async () => {
    const grower = await ledger(false);
    const indexes = new LedgerIndexes(t.app.db, new DataVersionRepository(t.app.db), async () => 0, {
      ...DEFAULT_LEDGER_INDEX_OPTIONS,
    });
    expect((await indexes.read(grower.id, (index) => index.slotCount))?.value).toBe(INVOICES);
    // Past the columns' capacity for 60 invoices (124 slots): they grow once, while catching up.
    const [bill] = await seedBills(t.app.db, grower.id, [{ name: 'Grower' }]);
    await seedEntries(
      t.app.db,
      grower.id,
      Array.from({ length: 70 }, () => ({ bill: bill as SeededBill, services: 'Rent' })),
    );
    const grown = await indexes.read(grower.id, (index) => ({ slots: index.slotCount, bytes: index.bytes }));
    expect(grown?.value.slots).toBe(INVOICES + 70);
    // Doubled columns (248 slots) would hold more than the estimate counts for 130 invoices.
    expect(grown?.value.bytes).toBeLessThanOrEqual((await estimateLedgerBytes(t.app.db, grower.id)).bytes);
  });

  it('drops an index that the changes it caught up with took past the memory, and SQL answers', async () => {
    const grower = await ledger(false);
    const { bytes } = await estimateLedgerBytes(t.app.db, grower.id);
    const indexes = new LedgerIndexes(t.app.db, new DataVersionRepository(t.app.db), async () => 0, {
      ...DEFAULT_LEDGER_INDEX_OPTIONS,
      maxBytes: bytes + 4_000,
    });
    expect((await indexes.read(grower.id, (index) => index.bytes))?.value).toBeLessThanOrEqual(bytes);
    const [bill] = await seedBills(t.app.db, grower.id, [{ name: 'Grower' }]);
    await seedEntries(
      t.app.db,
      grower.id,
      Array.from({ length: 10 }, (_, i) => ({ bill: bill as SeededBill, services: `${i}`.padEnd(LONG, 'g') })),
    );
    expect(await indexes.read(grower.id, (index) => index.bytes)).toBeNull();
    expect(indexes.answered(grower.id)).toBe('sql');
  });

  it('stops a load that outgrows the memory, whatever was estimated', async () => {
    const version = await new DataVersionRepository(t.app.db).version(long.id);
    const { bytes } = await estimateLedgerBytes(t.app.db, long.id);
    await expect(LedgerIndex.load(t.app.db, long.id, version, bytes / 2)).rejects.toThrow(IndexTooLarge);
  });

  it('answers every read the same as SQL when the ledger does not fit', async () => {
    const { bytes } = await estimateLedgerBytes(t.app.db, long.id);
    const server = async (maxBytes: number) => {
      const app = await buildApp(testConfig(t.database.config, { now: t.clock.now }), {
        readModel: { ledgerIndex: { ...DEFAULT_LEDGER_INDEX_OPTIONS, maxBytes } },
      });
      await app.ready();
      return app;
    };
    const tooSmall = await server(bytes - 1);
    const sqlOnly = await server(0);
    const roomy = await server(bytes * 4);
    try {
      const get = async (app: FastifyInstance, path: string) => {
        const res = await app.inject({
          method: 'GET',
          url: `/api/v1${path}`,
          headers: { ...long.session.headers, 'cache-control': 'no-cache' },
        });
        expect(res.statusCode, res.body).toBe(200);
        return { body: res.body, timing: res.headers['server-timing'] };
      };
      const paths = [
        '/entries/stats',
        '/entries?sortField=services&sortOrder=desc&pageSize=7&pageNum=2',
        '/entries?sortField=name&min=0.5&flow=expense',
        '/entries/export?sortField=amount',
      ];
      for (const path of paths) {
        await get(roomy, path); // loads the roomy server's index (a small ledger loads during the request)
        const [small, plain, indexed] = [await get(tooSmall, path), await get(sqlOnly, path), await get(roomy, path)];
        expect(small.body, path).toBe(plain.body);
        expect(indexed.body, path).toBe(plain.body);
      }
      expect((await get(tooSmall, '/entries/stats')).timing).toBe('ledger;desc=sql');
      expect((await get(roomy, '/entries/stats')).timing).toBe('ledger;desc=index');
    } finally {
      await Promise.all([tooSmall.close(), sqlOnly.close(), roomy.close()]);
    }
  });
});
