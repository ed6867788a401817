import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bill, BillList } from '@billfold/contract/bills';
import type { Entry } from '@billfold/contract/entries';
import { SORT_FIELDS, SORT_ORDERS } from '@billfold/contract/entries';
import type { Ledger } from '@billfold/contract/ledgers';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savedIndexFile } from '../src/modules/read-model/ledger-index-file.ts';
import { DEFAULT_LEDGER_INDEX_OPTIONS, type LedgerIndexOptions } from '../src/modules/read-model/ledger-indexes.ts';
import { createTestApp, dialects, secondProcess, type TestApp } from './helpers/app.ts';
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
} from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';
import { random } from './helpers/random.ts';

/**
 * The saved copy of a ledger's index (docs/decisions/0407-saved-ledger-index.md): written once the index has loaded
 * from the database and when the server stops, read back by the next process instead of the database and caught up
 * from the change log, with the same answers as SQL, by each process from its own folder; and never taken when it
 * cannot be proven to be the database's own copy of the data as it is (another token, a changed byte, a short file,
 * changes no longer logged, too many changes to catch up with).
 */

const SEED = Number(process.env.SAVED_INDEX_SEED ?? 20261201);
const SQL_ONLY = { ...DEFAULT_LEDGER_INDEX_OPTIONS, maxBytes: 0 };

describe.each(dialects)('the saved ledger index on %s', (dialect) => {
  let t: TestApp;
  let dir: string;
  let sqlApp: FastifyInstance;
  let api: Api;
  let ledgerId: number;
  const entries: Entry[] = [];
  const r = random(SEED);
  // Every ledger of 10 invoices or more counts as large: loaded in the background (a smaller one during its request).
  const options = (over: Partial<LedgerIndexOptions> = {}) => ({
    readModel: { ledgerIndex: { ...DEFAULT_LEDGER_INDEX_OPTIONS, loadInlineBelow: 10, savedDir: dir, ...over } },
  });
  const opened: FastifyInstance[] = [];
  /** A new server process on the database with the saved folder, its preload run (as `main.ts` runs it). */
  const start = async (over: Partial<LedgerIndexOptions> = {}) => {
    const app = await secondProcess(t, {}, options(over));
    opened.push(app);
    await app.ledgerIndexes.preload();
    return app;
  };
  const file = () => savedIndexFile(dir, ledgerId);
  /** The row of the ledger's copy in `folder` (its `holder` file names it). */
  const savedRow = (folder = dir) =>
    t.app.db
      .selectFrom('ledger_index_files')
      .selectAll()
      .where('ledger_id', '=', ledgerId)
      .where('holder', '=', readFileSync(join(folder, 'holder'), 'utf8'))
      .executeTakeFirst();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'billfold-saved-index-'));
    t = await createTestApp(dialect, {}, options());
    sqlApp = await secondProcess(t, {}, { readModel: { ledgerIndex: SQL_ONLY } });
    api = { app: t.app, session: await signUp(t.app) };
    const { ledgers } = (await request(api, 'GET', '/ledgers')).json<{ ledgers: Ledger[] }>();
    ledgerId = (ledgers.find((l) => l.personal) as Ledger).id;
    const bills = [
      await createBill(api, { name: 'Acme Power', category: 'Utilities' }),
      await createBill(api, { name: 'Bistro', category: 'Dining' }),
      await createBill(api, { name: 'Employer', category: 'Financial' }),
    ];
    for (let i = 0; i < 24; i++) {
      const entry = await createEntry(api, {
        billId: (bills[i % 3] as { id: number }).id,
        date: `2026-${String(1 + (i % 10)).padStart(2, '0')}-${String(1 + ((i * 7) % 27)).padStart(2, '0')}`,
        flow: i % 3 === 2 ? 'income' : 'expense',
        amount: Math.round(1000 + i * 1337) / 100,
        services: `item ${i % 5}`,
      });
      entries.push(i % 2 === 0 ? await editEntry(api, { ...entry, dueDate: '2026-11-30' }) : entry);
    }
    const [e0, e1] = entries as [Entry, Entry];
    await createPayment(api, { entryId: e0.entryId, amount: 5 });
    await createPayment(api, { entryId: e0.entryId, amount: 2.5, type: 'credit', medium: 'web' }); // mixed methods
    await createPayment(api, { entryId: e1.entryId, amount: 1000 }); // overpaid
  });
  afterAll(async () => {
    for (const app of opened) await app.close();
    await sqlApp.close();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (app: FastifyInstance, path: string) => uncachedGet(app, api, path);

  /** Random combinations of the whole filter panel, in every sort, with stats, export and due summary: equal to SQL. */
  async function expectSameAnswers(app: FastifyInstance, step: string, draws = 4) {
    const from = await drawSourceOf((path) => get(sqlApp, path), { firstDay: '2026-01-01', days: 330 });
    for (let draw = 0; draw < draws; draw++) {
      const c = drawCombination(r, from);
      const query = filterQuery(c);
      const label = `${step}, seed ${SEED}: ?${query}`;
      const stats = await get(app, `/entries/stats?${query}`);
      expect(stats.timing, label).toBe('ledger;desc=index');
      expect(JSON.parse(stats.body), label).toEqual(JSON.parse((await get(sqlApp, `/entries/stats?${query}`)).body));
      for (const sortField of SORT_FIELDS) {
        for (const sortOrder of SORT_ORDERS) {
          const path = `/entries?${query}&sortField=${sortField}&sortOrder=${sortOrder}&pageSize=4&pageNum=${r.int(3)}`;
          expect(JSON.parse((await get(app, path)).body), `${label}: ${path}`).toEqual(
            JSON.parse((await get(sqlApp, path)).body),
          );
        }
      }
      const csv = `/entries/export?${query}&sortField=${c.sortField}&sortOrder=${c.sortOrder}`;
      expect((await get(app, csv)).body, `${label}: ${csv}`).toBe((await get(sqlApp, csv)).body);
      const due = `/entries/due-summary?today=${c.today ?? from.firstDay}`;
      expect(JSON.parse((await get(app, due)).body), `${label}: ${due}`).toEqual(
        JSON.parse((await get(sqlApp, due)).body),
      );
    }
  }

  it('is written once the index has loaded from the database, with its token in the database', async () => {
    await expect.poll(async () => (await get(t.app, '/entries/stats')).timing).toBe('ledger;desc=index');
    expect(t.app.ledgerIndexes.source(ledgerId)).toBe('database');
    expect(statSync(file()).size).toBeGreaterThan(24 * 68);
    expect(readFileSync(file()).subarray(0, 8).toString('latin1')).toBe('BFLIDX01');
    const row = await savedRow();
    expect(row?.token).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(row?.version)).toBeGreaterThan(0);
  });

  it('is read back by the next process and caught up with the writes made meanwhile, answering as SQL does', async () => {
    // Writes after the copy was saved, from another process: a new invoice, a payment, an edit, a recycled one.
    const other: Api = { app: sqlApp, session: api.session };
    const [, , e2, e3] = entries as [Entry, Entry, Entry, Entry];
    const bill = await createBill(other, { name: 'Corner Shop', category: 'Groceries' });
    await createEntry(other, { billId: bill.id, amount: 42.42, date: '2026-05-05' });
    await createPayment(other, { entryId: e2.entryId, amount: 3.21, type: 'cash', medium: 'person' });
    await editEntry(other, { ...e3, amount: 777.77, services: 'edited' });
    await editEntry(other, { ...(entries[5] as Entry), recycle: true });
    const acme = (JSON.parse((await get(sqlApp, '/bills?status=all')).body) as BillList).billDTOList.find(
      (b) => b.name === 'Acme Power',
    );
    await updateBill(other, { ...(acme as Bill), name: 'Zenith Power', category: 'Insurance' });

    const next = await start();
    expect(next.ledgerIndexes.source(ledgerId)).toBe('saved');
    await expectSameAnswers(next, 'read back');
    // It keeps catching up as the original does.
    await createEntry(other, { billId: bill.id, amount: 1.01, date: '2026-06-06' });
    await expectSameAnswers(next, 'read back, then one more invoice', 2);
  });

  it('is saved again when the server stops with the index moved past its copy, and the next one reads that', async () => {
    const running = await start();
    expect(running.ledgerIndexes.source(ledgerId)).toBe('saved');
    const before = await savedRow();
    await createEntry({ app: sqlApp, session: api.session }, { billId: (entries[0] as Entry).billId, amount: 9.99 });
    await get(running, '/entries/stats'); // catches up
    await running.ledgerIndexes.saveAll();
    const after = await savedRow();
    expect(after?.token).not.toBe(before?.token);
    expect(Number(after?.version)).toBeGreaterThan(Number(before?.version));
    // Nothing moved since: the next stop writes nothing.
    await running.ledgerIndexes.saveAll();
    expect((await savedRow())?.token).toBe(after?.token);
    const next = await start();
    expect(next.ledgerIndexes.source(ledgerId)).toBe('saved');
    await expectSameAnswers(next, 'saved at stop', 2);
  });

  it('is read before the server answers, so the first request is answered from memory', async () => {
    const app = await secondProcess(t, {}, options());
    opened.push(app);
    expect(await app.ledgerIndexes.readSavedBeforeListening(10_000)).toBe(1);
    expect(app.ledgerIndexes.source(ledgerId)).toBe('saved');
    expect((await get(app, '/entries/stats')).timing).toBe('ledger;desc=index');
    // No time left: nothing is read, and the ledger loads in the background as before.
    const late = await secondProcess(t, {}, options());
    opened.push(late);
    expect(await late.ledgerIndexes.readSavedBeforeListening(0)).toBe(0);
    expect((await get(late, '/entries/stats')).timing).toBe('ledger;desc=sql');
  });

  /** A fresh, valid copy (as a stop writes it), so each refusal below starts from one that would be taken. */
  async function freshCopy(): Promise<void> {
    const app = await start();
    expect(app.ledgerIndexes.source(ledgerId)).not.toBeNull();
    await createEntry({ app: sqlApp, session: api.session }, { billId: (entries[1] as Entry).billId, amount: 2.22 });
    await get(app, '/entries/stats');
    await app.ledgerIndexes.saveAll();
    expect((await start()).ledgerIndexes.source(ledgerId)).toBe('saved');
  }

  it.each([
    {
      why: 'the database holds another token (a restored backup, another database under the same folder)',
      spoil: async () => {
        await t.app.db
          .updateTable('ledger_index_files')
          .set({ token: 'another' })
          .where('ledger_id', '=', ledgerId)
          .execute();
      },
    },
    {
      why: 'a byte of its data changed on disk',
      spoil: async () => {
        const bytes = readFileSync(file());
        const at = bytes.length - 3;
        bytes[at] = (bytes[at] as number) ^ 0xff;
        writeFileSync(file(), bytes);
      },
    },
    {
      why: 'the file ends early',
      spoil: async () => writeFileSync(file(), readFileSync(file()).subarray(0, statSync(file()).size - 100)),
    },
    {
      why: 'it is not a saved index at all',
      spoil: async () => writeFileSync(file(), 'hello'),
    },
    {
      why: 'the change log no longer holds the writes since it was saved',
      spoil: async () => {
        await createEntry({ app: sqlApp, session: api.session }, { billId: (entries[2] as Entry).billId, amount: 4 });
        await t.app.db.deleteFrom('entry_changes').where('ledger_id', '=', ledgerId).execute();
      },
    },
  ])('is not taken when $why: the index loads from the database and answers as SQL does', async ({ spoil }) => {
    await freshCopy();
    await spoil();
    const next = await start();
    expect(next.ledgerIndexes.source(ledgerId)).toBe('database');
    await expectSameAnswers(next, 'loaded from the database instead', 1);
    // The load from the database wrote a good copy again.
    expect((await start()).ledgerIndexes.source(ledgerId)).toBe('saved');
  });

  it('is not taken when more invoices changed since than the index catches up with', async () => {
    await freshCopy();
    const other: Api = { app: sqlApp, session: api.session };
    for (const e of entries.slice(6, 9)) await editEntry(other, { ...e, services: `${e.services} again` });
    const next = await start({ catchUpUpTo: 2 });
    expect(next.ledgerIndexes.source(ledgerId)).toBe('database');
    await expectSameAnswers(next, 'too many changes', 1);
  });

  it('is saved for a small ledger too, loaded during its first request, and read back by the next process', async () => {
    rmSync(file());
    await t.app.db.deleteFrom('ledger_index_files').where('ledger_id', '=', ledgerId).execute();
    const small = { loadInlineBelow: DEFAULT_LEDGER_INDEX_OPTIONS.loadInlineBelow };
    const app = await secondProcess(t, {}, options(small));
    opened.push(app);
    expect((await get(app, '/entries/stats')).timing).toBe('ledger;desc=index');
    expect(app.ledgerIndexes.source(ledgerId)).toBe('database');
    expect(Number((await savedRow())?.version)).toBeGreaterThan(0);
    const next = await start(small);
    expect(next.ledgerIndexes.source(ledgerId)).toBe('saved');
    await expectSameAnswers(next, 'a small ledger read back', 1);
  });

  it('is kept by each process in its own folder: both read their own copy back', async () => {
    const second = mkdtempSync(join(tmpdir(), 'billfold-saved-index-'));
    try {
      await freshCopy();
      // A process with a folder of its own loads from the database and saves there, beside the first folder's copy.
      expect((await start({ savedDir: second })).ledgerIndexes.source(ledgerId)).toBe('database');
      expect((await savedRow(second))?.token).not.toBe((await savedRow())?.token);
      expect((await start()).ledgerIndexes.source(ledgerId)).toBe('saved');
      const next = await start({ savedDir: second });
      expect(next.ledgerIndexes.source(ledgerId)).toBe('saved');
      await expectSameAnswers(next, 'read back from a second folder', 1);
    } finally {
      rmSync(second, { recursive: true, force: true });
    }
  });

  it('is not taken, nor kept, once its ledger is gone', async () => {
    await freshCopy();
    await t.app.db.deleteFrom('ledger_index_files').where('ledger_id', '=', ledgerId).execute();
    const next = await start();
    expect(next.ledgerIndexes.source(ledgerId)).toBe('database');
    // The database load saved it again; a copy the database does not name is removed at the next start.
    await t.app.db.deleteFrom('ledger_index_files').where('ledger_id', '=', ledgerId).execute();
    // A stopped save's temporary file: kept while it may still be written, removed once it is over an hour old.
    const fresh = join(dir, `${ledgerId}.index.fresh.tmp`);
    const stale = join(dir, `${ledgerId}.index.stale.tmp`);
    writeFileSync(fresh, 'partial');
    writeFileSync(stale, 'partial');
    const hoursAgo = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(stale, hoursAgo, hoursAgo);
    await start({ maxBytes: 1 }); // too little memory to load anything: the preload only tidies the folder
    expect(() => statSync(file())).toThrow();
    expect(() => statSync(stale)).toThrow();
    expect(statSync(fresh).size).toBe(7);
  });
});
