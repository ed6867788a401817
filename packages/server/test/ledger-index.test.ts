import { type Entry, type EntryList, SORT_FIELDS, SORT_ORDERS } from '@billfold/contract/entries';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { purgeRecycleBin } from '../src/jobs/recycle-purge.ts';
import { DAY } from '../src/lib/time.ts';
import { DataVersionRepository } from '../src/modules/read-model/data-version.repository.ts';
import { estimateLedgerBytes } from '../src/modules/read-model/ledger-index-size.ts';
import {
  DEFAULT_LEDGER_INDEX_OPTIONS,
  LedgerIndexes,
  type LedgerIndexOptions,
  LOADS_AT_ONCE,
} from '../src/modules/read-model/ledger-indexes.ts';
import { createTestApp, dialects, type TestApp, testConfig } from './helpers/app.ts';
import { attach, pdfFile } from './helpers/attachments.ts';
import { drawCombination, drawSourceOf, filterQuery } from './helpers/combinations.ts';
import {
  type Api,
  createBill,
  createEntry,
  createPayment,
  editEntry,
  request,
  uncachedGet,
  updateBill,
  updatePayment,
} from './helpers/domain.ts';
import { signIn, signUp } from './helpers/factories.ts';
import { random } from './helpers/random.ts';
import { personalLedgerOf } from './helpers/seed.ts';

/**
 * The ledger index catches up with every kind of write (docs/decisions/0405-ledger-index.md): after each one,
 * written through the API of this server or of another process on the same database, every list, total, stats
 * answer and export of the indexed server equals the same request answered by SQL.
 */

const SQL_ONLY = { ...DEFAULT_LEDGER_INDEX_OPTIONS, maxBytes: 0 };

/** Seeds the filter combinations drawn after each write; a failure names its seed and step. */
const SEED = Number(process.env.LEDGER_INDEX_SEED ?? 20261123);
/** Combinations drawn after each write, each compared in all 12 sorts both ways (fewer for a quick run). */
const DRAWS = Number(process.env.LEDGER_INDEX_DRAWS ?? 5);

const CASES = dialects.flatMap((dialect) => [
  { dialect, catchUpUpTo: DEFAULT_LEDGER_INDEX_OPTIONS.catchUpUpTo, way: 'caught up' },
  { dialect, catchUpUpTo: 0, way: 'read afresh' },
]);

describe.each(CASES)('the ledger index after every kind of write on $dialect, $way', ({ dialect, catchUpUpTo }) => {
  let t: TestApp;
  let sqlApp: FastifyInstance;
  let indexed: Api;
  let other: Api;
  const r = random(SEED);

  beforeAll(async () => {
    t = await createTestApp(
      dialect,
      {},
      { readModel: { ledgerIndex: { ...DEFAULT_LEDGER_INDEX_OPTIONS, catchUpUpTo } } },
    );
    sqlApp = await buildApp(testConfig(t.database.config, { now: t.clock.now }), {
      readModel: { ledgerIndex: SQL_ONLY },
    });
    await sqlApp.ready();
    const session = await signUp(t.app);
    indexed = { app: t.app, session };
    other = { app: sqlApp, session };
  });
  afterAll(async () => {
    await sqlApp.close();
    await t.close();
  });

  const get = (app: FastifyInstance, path: string) => uncachedGet(app, indexed, path);

  /**
   * Combinations drawn at random from the whole filter panel over the ledger as it stands (its entities, invoice
   * numbers and dates), each in all 12 sorts both ways, with its stats, export and due summary, on both servers:
   * the indexed one must answer from its index, and equally.
   */
  async function expectSameAnswers(step: string) {
    const from = await drawSourceOf((path) => get(sqlApp, path), {
      firstDay: '2025-12-01',
      days: 300,
      attachments: true,
    });
    // The same scopes at every step: the index keeps the masks of recent scopes (`LedgerIndex.match`), which must
    // never outlive the data they were made from.
    for (const query of [
      '',
      'paid=false',
      'flow=expense&archives=false',
      'hasAttachment=true',
      'hasAttachment=false',
    ]) {
      for (const path of [`/entries/stats?${query}`, `/entries?${query}&sortField=balance&sortOrder=desc&pageSize=5`]) {
        const mine = await get(t.app, path);
        if (path.startsWith('/entries/stats')) expect(mine.timing, `${step}: ${path}`).toBe('ledger;desc=index');
        expect(JSON.parse(mine.body), `${step}: ${path}`).toEqual(JSON.parse((await get(sqlApp, path)).body));
      }
    }
    for (let draw = 0; draw < DRAWS; draw++) {
      const c = drawCombination(r, from);
      const query = filterQuery(c);
      const label = `${step}, seed ${SEED}: ?${query}`;
      const stats = await get(t.app, `/entries/stats?${query}`);
      expect(stats.timing, label).toBe('ledger;desc=index');
      expect(JSON.parse(stats.body), label).toEqual(JSON.parse((await get(sqlApp, `/entries/stats?${query}`)).body));
      for (const sortField of SORT_FIELDS) {
        for (const sortOrder of SORT_ORDERS) {
          const path = `/entries?${query}&sortField=${sortField}&sortOrder=${sortOrder}&pageSize=4&pageNum=${r.int(3)}`;
          const mine = JSON.parse((await get(t.app, path)).body) as EntryList;
          expect(mine, `${label}: ${path}`).toEqual(JSON.parse((await get(sqlApp, path)).body));
        }
      }
      const csv = `/entries/export?${query}&sortField=${c.sortField}&sortOrder=${c.sortOrder}`;
      expect((await get(t.app, csv)).body, `${label}: ${csv}`).toBe((await get(sqlApp, csv)).body);
      const due = `/entries/due-summary?today=${c.today ?? from.firstDay}`;
      expect(JSON.parse((await get(t.app, due)).body), `${label}: ${due}`).toEqual(
        JSON.parse((await get(sqlApp, due)).body),
      );
      // The forecast's open invoices per due day come from the index too (docs/decisions/1014-forecast.md).
      const forecast = `/forecast?today=${c.today ?? from.firstDay}&months=${1 + ((draw * 11) % 24)}`;
      const mine = await get(t.app, forecast);
      expect(mine.timing, `${label}: ${forecast}`).toBe('ledger;desc=index');
      expect(JSON.parse(mine.body), `${label}: ${forecast}`).toEqual(JSON.parse((await get(sqlApp, forecast)).body));
    }
  }

  it('equals SQL after creates, payments, edits, renames, archiving, recycling, restores and the purge', async () => {
    const a = await createBill(indexed, { name: 'Acme', category: 'Utilities' });
    const b = await createBill(indexed, { name: 'Bistro', category: 'Dining' });
    const entries: Entry[] = [];
    for (let i = 0; i < 12; i++) {
      entries.push(
        await createEntry(indexed, {
          billId: i % 3 === 0 ? b.id : a.id,
          date: `2026-0${1 + (i % 9)}-1${i % 10}`,
          flow: i % 4 === 0 ? 'expense' : 'income',
          amount: 20 + i * 17.25,
          services: `svc ${(i * 7) % 5}`,
        }),
      );
    }
    const [e0, e1, e2, , e4] = entries as [Entry, Entry, Entry, Entry, Entry];
    for (const [i, e] of entries.entries()) {
      if (i % 3 !== 2) await editEntry(indexed, { ...e, dueDate: `2026-${String(2 + (i % 10)).padStart(2, '0')}-15` });
    }
    await createPayment(indexed, { entryId: e0.entryId, amount: 5 });
    await expectSameAnswers('loaded');

    // A scope of one entity or category among many is masked from its slots alone (`LedgerIndex.grouped`), which
    // are kept per version: the next write, here or in another process, must show in them.
    const rare = await createBill(indexed, { name: 'Rare', category: 'Gifts' });
    const rareScopes = async (step: string, total: number) => {
      for (const query of ['partyList=Rare', 'categoryList=Gifts', 'categoryList=Gifts&flow=income']) {
        for (const path of [`/entries?${query}&sortField=date&sortOrder=desc&pageSize=10`, `/entries/stats?${query}`]) {
          const mine = JSON.parse((await get(t.app, path)).body);
          expect(mine, `${step}: ${path}`).toEqual(JSON.parse((await get(sqlApp, path)).body));
        }
      }
      const list = JSON.parse((await get(t.app, '/entries?partyList=Rare')).body) as EntryList;
      expect(list.total, step).toBe(total);
    };
    await createEntry(indexed, { billId: rare.id, date: '2026-03-03', flow: 'income', amount: 12.5 });
    await rareScopes('one rare invoice', 1);
    await createEntry(other, { billId: rare.id, date: '2026-03-04', flow: 'income', amount: 7.25 });
    await rareScopes('a second from another process', 2);
    await createEntry(indexed, { billId: rare.id, date: '2026-03-05', flow: 'expense', amount: 1 });
    await rareScopes('a third', 3);

    // Another process writes: a payment of a second method makes e0's payments mixed; e1 is overpaid.
    await createPayment(other, { entryId: e0.entryId, amount: 7.5, type: 'credit', medium: 'web' });
    const p1 = await createPayment(other, { entryId: e1.entryId, amount: 500 });
    await expectSameAnswers('payments from another process');

    await updatePayment(indexed, { ...p1, amount: 3, type: 'cash', medium: 'person' });
    await editEntry(indexed, { ...e2, amount: 999.99, date: '2025-12-31', services: 'aaa first' });
    await expectSameAnswers('edits');

    // Due days further apart than 65,536 days (1900 to 2099): the due summary's days are sorted by both 16-bit
    // digits of their distance (`LedgerIndex.owedSlots`), and a window's ends are found by binary search.
    const [e3, e5, e7] = [entries[3], entries[5], entries[7]] as [Entry, Entry, Entry];
    await editEntry(indexed, { ...e3, date: '1900-01-02', dueDate: '1900-01-10' });
    await editEntry(indexed, { ...e5, dueDate: '2099-12-20' });
    await editEntry(other, { ...e7, dueDate: '2099-12-20' });
    for (const today of ['1900-01-10', '1900-01-11', '2026-06-01', '2099-12-20', '2099-12-21']) {
      const due = `/entries/due-summary?today=${today}`;
      expect(JSON.parse((await get(t.app, due)).body), due).toEqual(JSON.parse((await get(sqlApp, due)).body));
    }
    await expectSameAnswers('due days 200 years apart');

    // Files (docs/decisions/1143-attachment-count-and-filter.md): on an invoice here, on a payment from another
    // process; then one deleted, and a payment holding the other one's file recycled and restored.
    const own = await attach(indexed, 'entries', e1.entryId, pdfFile('own'));
    expect(own.statusCode, own.body).toBe(201);
    const p2 = await createPayment(indexed, { entryId: e2.entryId, amount: 1 });
    expect((await attach(other, 'payments', p2.paymentId, pdfFile('paid'))).statusCode).toBe(201);
    await expectSameAnswers('files attached to an invoice and to a payment');
    expect((await request(other, 'DELETE', `/attachments/${own.json().id}`)).statusCode).toBe(204);
    await updatePayment(indexed, { ...p2, recycle: true });
    await expectSameAnswers('a file deleted, a payment with a file recycled');
    const back = await request(other, 'POST', '/recycle/restore', { entityType: 'Payment', entityId: p2.paymentId });
    expect(back.statusCode, back.body).toBe(200);
    await expectSameAnswers('the payment with a file restored');

    await updateBill(indexed, { ...a, name: 'Zeta Corp', category: 'Dining' });
    await updateBill(indexed, { ...b, status: 0 });
    await expectSameAnswers('entity renamed and another archived');

    await updateBill(indexed, { ...b, status: 1 });
    await editEntry(indexed, { ...e4, recycle: true });
    await updatePayment(indexed, { ...p1, recycle: true });
    await expectSameAnswers('unarchived, an invoice and a payment recycled');

    const restored = await request(indexed, 'PUT', '/entries/edit?filter=bypass', { ...e4, recycle: false });
    expect(restored.statusCode).toBe(200);
    await expectSameAnswers('restored');

    // Categories of one's own (docs/decisions/0105-categories-of-your-own.md): an entity moves into one, another
    // process renames it (every invoice of the entity takes the new name), and it is retired.
    const salary = await request(indexed, 'POST', '/categories', { name: 'Salary', flow: 'income' });
    expect(salary.statusCode).toBe(201);
    await updateBill(indexed, { ...b, status: 1, category: 'salary' });
    await expectSameAnswers('an entity moved into a category of its own');
    expect((await request(other, 'PATCH', `/categories/${salary.json().id}`, { name: 'Wages' })).statusCode).toBe(200);
    await expectSameAnswers('the category renamed by another process');
    expect((await request(indexed, 'PATCH', `/categories/${salary.json().id}`, { retired: true })).statusCode).toBe(
      200,
    );
    await expectSameAnswers('the category retired');

    await editEntry(indexed, { ...e2, recycle: true });
    await updateBill(indexed, { ...b, recycle: true });
    t.clock.advance(15 * DAY);
    await purgeRecycleBin(t.app.db, t.clock.now());
    const session = await signIn(t.app, indexed.session); // the access token expired meanwhile
    indexed = { app: t.app, session };
    other = { app: sqlApp, session };
    await expectSameAnswers('entity recycled and the bin purged');

    const c = await createBill(other, { name: 'Corner', category: 'Financial' });
    for (let i = 0; i < 5; i++) await createEntry(other, { billId: c.id, amount: 1 + i, date: '2026-03-03' });
    await expectSameAnswers('a new entity and invoices from another process');
  }, 300_000); // fifteen steps, each comparing hundreds of answers on a shared machine
});

describe.each(dialects)('loading and keeping ledger indexes on %s', (dialect) => {
  let t: TestApp;
  afterAll(() => t.close());

  it('a large ledger loads in the background while SQL answers; beyond the memory the least recently used goes', async () => {
    t = await createTestApp(dialect);
    const users: Api[] = [];
    for (const name of ['first', 'second']) {
      const api = { app: t.app, session: await signUp(t.app, { username: `ledger-${name}` }) };
      const bill = await createBill(api, { name: `Entity of ${name}` });
      for (let i = 0; i < 3; i++) await createEntry(api, { billId: bill.id, amount: 10 + i });
      users.push(api);
    }
    // Every ledger "large" (loaded in the background), and memory for one of these indexes and a half.
    const one = (await estimateLedgerBytes(t.app.db, await personalLedgerOf(t.app.db, 'ledger-first'))).bytes;
    const app = await buildApp(testConfig(t.database.config, { now: t.clock.now }), {
      readModel: { ledgerIndex: { ...DEFAULT_LEDGER_INDEX_OPTIONS, loadInlineBelow: 0, maxBytes: 1.5 * one } },
    });
    try {
      const stats = (api: Api) =>
        request({ ...api, app }, 'GET', '/entries/stats').then((res) => ({
          timing: res.headers['server-timing'],
          body: res.json(),
        }));
      const [first, second] = users as [Api, Api];
      const before = await stats(first);
      expect(before.timing).toBe('ledger;desc=sql');
      await expect.poll(async () => (await stats(first)).timing).toBe('ledger;desc=index');
      expect((await stats(first)).body).toEqual(before.body);
      // The second user's index pushes the first one's out.
      await expect.poll(async () => (await stats(second)).timing).toBe('ledger;desc=index');
      const again = await stats(first);
      expect(again.timing).toBe('ledger;desc=sql');
      expect(again.body).toEqual(before.body);
    } finally {
      await app.close();
    }
  });
});

describe.each(dialects)('a small ledger’s load on %s', (dialect) => {
  let t: TestApp;
  afterAll(() => t.close());

  it('reads its invoices and its payments in one statement each, and no sort order row by row', async () => {
    const statements: string[] = [];
    t = await createTestApp(dialect, {}, { onStatement: (sql) => statements.push(sql) });
    const api = { app: t.app, session: await signUp(t.app) };
    const bill = await createBill(api, { name: 'Waterworks' });
    for (let i = 0; i < 3; i++) {
      const entry = await createEntry(api, { billId: bill.id, amount: 10 + i, services: `meter ${i}` });
      await createPayment(api, { entryId: entry.entryId, amount: 5 });
    }
    statements.length = 0;
    const res = await uncachedGet(t.app, api, '/entries/stats');
    expect(res.timing).toBe('ledger;desc=index');
    const chunks = (table: string) =>
      statements.filter((q) => new RegExp(`from "${table}" where "ledger_id" = .* and "id" > `).test(q));
    // A chunk shorter than a whole one is the last: no statement to find the end.
    expect(chunks('entries')).toHaveLength(1);
    expect(chunks('payments')).toHaveLength(1);
    // Orders come from the index's columns and the text orders' distinct values, never from their rows.
    expect(statements.filter((q) => /order by .*"invoice_number" limit/.test(q) && /from "entries"/.test(q))).toEqual(
      [],
    );
  });
});

describe.each(dialects)('the indexes of many ledgers on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  /** The personal ledgers of `count` new users, each with three invoices. */
  async function ledgersOf(prefix: string, count: number): Promise<number[]> {
    const ledgers: number[] = [];
    for (let i = 0; i < count; i++) {
      const api = { app: t.app, session: await signUp(t.app, { username: `${prefix}-${i}` }) };
      for (let j = 0; j < 3; j++) await createEntry(api, { amount: 3 + j });
      ledgers.push(await personalLedgerOf(t.app.db, api.session.username));
    }
    return ledgers;
  }
  /** Ledger indexes of their own, with their sizes of ledgers and their clock. */
  function indexesWith(options: Partial<LedgerIndexOptions>, ledgerSize = async () => 0, now = Date.now) {
    const versions = new DataVersionRepository(t.app.db);
    const indexes = new LedgerIndexes(
      t.app.db,
      versions,
      ledgerSize,
      { ...DEFAULT_LEDGER_INDEX_OPTIONS, ...options },
      now,
    );
    return async (ledgerId: number) => ((await indexes.read(ledgerId, () => true)) ? 'index' : 'sql');
  }

  it('once the memory is full, a ledger asked for rarely is answered by SQL, not loaded in place of one asked for more', async () => {
    const [busy, rare] = (await ledgersOf('memory', 2)) as [number, number];
    let now = 1_000_000;
    // Memory for one of these indexes and a half.
    const one = (await estimateLedgerBytes(t.app.db, busy)).bytes;
    const answered = indexesWith({ maxBytes: 1.5 * one }, undefined, () => now);
    for (let i = 0; i < 3; i++) expect(await answered(busy)).toBe('index');
    now += 1_000;
    // The memory is full: the rare ledger, asked for once, would push out one asked for three times.
    expect(await answered(rare)).toBe('sql');
    expect(await answered(busy)).toBe('index');
    // Five minutes later the busy ledger is asked for no more: the rare one loads in its place.
    now += 5 * 60_000;
    expect(await answered(rare)).toBe('index');
    expect(await answered(busy)).toBe('sql');
    expect(await answered(rare)).toBe('index');
  });

  it('past LOADS_AT_ONCE loads under way, SQL answers a ledger without an index instead of one more load', async () => {
    const ledgers = await ledgersOf('turns', LOADS_AT_ONCE + 1);
    const last = ledgers.pop() as number;
    // The ledgers' sizes (the first step of a load) are given when the test says so.
    let sized = () => {};
    const sizes = new Promise<void>((resolve) => {
      sized = resolve;
    });
    const answered = indexesWith({}, async () => {
      await sizes;
      return 1;
    });
    const loading = ledgers.map(answered);
    expect(await answered(last)).toBe('sql');
    sized();
    expect(await Promise.all(loading)).toEqual(ledgers.map(() => 'index'));
    // The turns are given back: the last ledger loads now.
    expect(await answered(last)).toBe('index');
  });

  it('the start-up preload’s load takes one of the LOADS_AT_ONCE turns', async () => {
    const ledgers = await ledgersOf('preload', LOADS_AT_ONCE + 1);
    // The preload loads these one after another; its first is the ledger signed in to last.
    const first = (await new DataVersionRepository(t.app.db).ledgersByRecentSignIn())[0] as number;
    const others = ledgers.filter((id) => id !== first);
    const last = others.pop() as number;
    // A load reads the ledger's data version after its estimate: there each load waits until the test opens the gate.
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let waiting = 0;
    const held = new (class extends DataVersionRepository {
      override async version(ledgerId: number): Promise<number> {
        waiting++;
        await gate;
        return super.version(ledgerId);
      }
    })(t.app.db);
    const indexes = new LedgerIndexes(t.app.db, held, async () => 0, DEFAULT_LEDGER_INDEX_OPTIONS);
    const answered = async (ledgerId: number) => ((await indexes.read(ledgerId, () => true)) ? 'index' : 'sql');
    const preloading = indexes.preload();
    await expect.poll(() => waiting).toBe(1);
    // The preload's load and LOADS_AT_ONCE − 1 requests' loads are under way.
    const loading = others.slice(0, LOADS_AT_ONCE - 1).map(answered);
    await expect.poll(() => waiting).toBe(LOADS_AT_ONCE);
    expect(await answered(last)).toBe('sql');
    open();
    expect(await Promise.all(loading)).toEqual(loading.map(() => 'index'));
    await preloading;
    expect(await answered(first)).toBe('index');
  });
});

describe.each(dialects)('the change log and the start-up preload on %s', (dialect) => {
  let t: TestApp;
  afterAll(() => t.close());

  it('preload loads the ledgers of users with invoices; the hourly prune keeps the last hour of the change log', async () => {
    t = await createTestApp(
      dialect,
      {},
      {
        readModel: { ledgerIndex: { ...DEFAULT_LEDGER_INDEX_OPTIONS, loadInlineBelow: 0 } },
      },
    );
    const api = { app: t.app, session: await signUp(t.app) };
    await createEntry(api, { amount: 12 });
    await t.app.ledgerIndexes.preload();
    const res = await request(api, 'GET', '/entries/stats');
    expect(res.headers['server-timing']).toBe('ledger;desc=index');

    const versions = new DataVersionRepository(t.app.db);
    const logged = () => t.app.db.selectFrom('entry_changes').select('at').execute();
    const recent = (await logged()).length;
    expect(recent).toBeGreaterThan(0);
    await t.app.db.insertInto('entry_changes').values({ ledger_id: 1, version: 0, entry_id: 1, at: 1_000 }).execute();
    expect(await versions.pruneChanges()).toEqual({ changes: 1 });
    expect((await logged()).length).toBe(recent);
  });
});
