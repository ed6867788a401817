import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresAdapter, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../src/config.ts';
import type { Db } from '../src/db/database.ts';
import { removeUnfinishedImports, unfinishedImports } from '../src/db/ledger-imports.ts';
import { purgeRecycleBin } from '../src/jobs/recycle-purge.ts';
import { DiskStore } from '../src/lib/file-store.ts';
import { AccountDataRepository, LEDGER_OWN_TABLES } from '../src/modules/account-data/account-data.repository.ts';
import { ACCOUNT_NOT_EMPTY, AccountDataService } from '../src/modules/account-data/account-data.service.ts';
import { type AccountFilePart, readAccountFile } from '../src/modules/account-data/account-file-parser.ts';
import { ROLLUP_TABLES } from '../src/modules/read-model/rollup-tables.ts';
import { richAccountFile } from './helpers/account-file.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { createBill, createEntry } from './helpers/domain.ts';
import { type Session, signUp } from './helpers/factories.ts';
import { API_PREFIX, apiRoutes } from './helpers/route-table.ts';
import { personalLedgerOf, userIdOf } from './helpers/seed.ts';
import { changedTables, describeChanges, snapshot, tableNames } from './security/database-state.ts';

/**
 * The account import in steps (docs/decisions/0707-account-import-in-steps.md): each part of the file is committed
 * on its own into a ledger nobody sees, and one short last transaction makes it the account's. Held between two
 * parts, the import has committed rows, yet no read of the account and no job that goes over every ledger sees or
 * touches them; at the end the account's ledger is the imported one, with what the empty ledger had of its own; a
 * failure, the client gone or the account no longer empty leaves every table as it was.
 */

const INVOICES = 4_500;
const TEXT = JSON.stringify(richAccountFile(INVOICES));
/** The file's bytes, new each time (the parser hands them to its worker thread). */
const file = () => Buffer.from(TEXT);

/**
 * `parts` handed on as the import asks for them; before the `at`-th part of kind `kind` is handed over (so every
 * part before it has been written and committed), `hold` runs to its end.
 */
async function* heldBefore(
  parts: AsyncIterable<AccountFilePart>,
  kind: string,
  at: number,
  hold: () => Promise<void>,
): AsyncGenerator<AccountFilePart> {
  let seen = 0;
  for await (const part of parts) {
    if (kind in part && ++seen === at) await hold();
    yield part;
  }
}

/** The ledgers an import is writing. */
const importing = async (db: Db) =>
  (await db.selectFrom('ledgers').select('id').where('importing_since', 'is not', null).execute()).map((r) =>
    Number(r.id),
  );

const count = async (db: Db, table: 'bills' | 'entries' | 'payments' | 'schedules', ledgerId: number) =>
  Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('ledger_id', '=', ledgerId)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Every GET of the API without a path parameter, as the user gets it: status and body. */
async function everyRead(t: TestApp, me: Session): Promise<Record<string, string>> {
  const answers: Record<string, string> = {};
  for (const route of apiRoutes(t.app)) {
    const [method, path] = route.split(' ') as [string, string];
    if (method !== 'GET' || path.includes(':') || path.includes('*')) continue;
    const res = await t.app.inject({ method: 'GET', url: path, headers: me.headers });
    answers[path] = `${res.statusCode} ${res.body}`;
  }
  return answers;
}

describe.each(dialects)('an account import in steps on %s', (dialect) => {
  let t: TestApp;
  let service: AccountDataService;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const store = new DiskStore(join(tmpdir(), 'billfold-no-files'));
    service = new AccountDataService(new AccountDataRepository(t.app.db), t.clock.now, store, DEFAULT_LIMITS);
  });
  afterAll(async () => {
    await t.close();
  });

  const actorOf = async (me: Session) => ({
    ledgerId: await personalLedgerOf(t.app.db, me.username),
    userId: await userIdOf(t.app.db, me.username),
  });

  it('commits part by part into a ledger no read and no job sees, then swaps it in for the empty ledger at once', async () => {
    const me = await signUp(t.app);
    const actor = await actorOf(me);
    // What the empty ledger has of its own: a category and a token that works in it alone.
    const category = await t.app.inject({
      method: 'POST',
      url: `${API_PREFIX}/categories`,
      headers: me.headers,
      payload: { name: 'Garden', flow: 'expense' },
    });
    expect(category.statusCode, category.body).toBe(201);
    const token = await t.app.inject({
      method: 'POST',
      url: `${API_PREFIX}/tokens`,
      headers: me.headers,
      payload: { name: 'script', scope: 'read', ledgerId: actor.ledgerId },
    });
    expect(token.statusCode, token.body).toBe(201);
    const reads = await everyRead(t, me);

    let held = false;
    const hold = async () => {
      held = true;
      const [staging] = await importing(t.app.db);
      if (staging === undefined) throw new Error('no ledger is being imported');
      expect(staging).not.toBe(actor.ledgerId);
      // Entities, invoices, payments, schedules and a part of occurrences are committed (another connection of the
      // pool sees them on PostgreSQL)…
      expect(await count(t.app.db, 'entries', staging)).toBe(INVOICES);
      expect(await count(t.app.db, 'schedules', staging)).toBe(2);
      const members = await t.app.db
        .selectFrom('ledger_members')
        .select('user_id')
        .where('ledger_id', '=', staging)
        .execute();
      expect(members).toEqual([]);
      // …yet every read of the account answers as before the import, and the ledger cannot be named.
      expect(await everyRead(t, me)).toEqual(reads);
      const named = await t.app.inject({
        method: 'GET',
        url: `${API_PREFIX}/entries`,
        headers: { ...me.headers, 'billfold-ledger': String(staging) },
      });
      expect(named.statusCode).toBe(404);
      // Work over every ledger passes it over: its recycled rows stay, its schedule makes no invoice, its pending
      // automatic payments are not recorded, even years later.
      const rows = async () => ({
        counts: await Promise.all(
          (['bills', 'entries', 'payments'] as const).map((table) => count(t.app.db, table, staging)),
        ),
        occurrences: await t.app.db
          .selectFrom('schedule_occurrences as o')
          .innerJoin('schedules as s', 's.id', 'o.schedule_id')
          .selectAll('o')
          .where('s.ledger_id', '=', staging)
          .orderBy('o.id')
          .execute(),
      });
      const before = await rows();
      expect(await purgeRecycleBin(t.app.db, Date.UTC(2060, 0, 1))).toEqual({ payments: 0, entries: 0, bills: 0 });
      expect(await t.app.schedules.run(Date.UTC(2060, 0, 1))).toEqual({
        created: 0,
        skipped: 0,
        autopaid: 0,
        adopted: 0,
      });
      expect(await rows()).toEqual(before);
    };

    const summary = await service.import(actor, heldBefore(readAccountFile(file()), 'occurrences', 2, hold));
    expect(held).toBe(true);
    expect(summary).toMatchObject({ invoices: INVOICES, schedules: 2, categories: 2 });

    // The imported ledger is the account's now; the empty one is gone, what it had of its own went along.
    expect(await importing(t.app.db)).toEqual([]);
    const ledgerId = await personalLedgerOf(t.app.db, me.username);
    expect(ledgerId).not.toBe(actor.ledgerId);
    expect(await t.app.db.selectFrom('ledgers').select('id').where('id', '=', actor.ledgerId).execute()).toEqual([]);
    expect(await count(t.app.db, 'entries', ledgerId)).toBe(INVOICES);
    const ledgers = (await t.app.inject({ method: 'GET', url: `${API_PREFIX}/ledgers`, headers: me.headers })).json<{
      ledgers: { id: number; name: string; role: string }[];
    }>();
    expect(ledgers.ledgers.map((l) => [l.id, l.name, l.role])).toEqual([[ledgerId, 'Personal', 'owner']]);
    const categories = await t.app.db
      .selectFrom('categories')
      .select('name')
      .where('ledger_id', '=', ledgerId)
      .orderBy('name')
      .execute();
    expect(categories.map((c) => c.name)).toEqual(['Allotment', 'Garden', 'Old club']);
    const tokens = await t.app.db
      .selectFrom('api_tokens')
      .select('ledger_id')
      .where('user_id', '=', actor.userId)
      .execute();
    expect(tokens.map((row) => Number(row.ledger_id))).toEqual([ledgerId]);
    // The same reads see it now (so the held ones above could have).
    const readsAfter = await everyRead(t, me);
    const changed = Object.keys(reads).filter((path) => readsAfter[path] !== reads[path]);
    expect(changed).toEqual(
      expect.arrayContaining(
        ['/account/export', '/bills', '/entries', '/entries/stats', '/entries/due-summary', '/forecast'].map(
          (path) => `${API_PREFIX}${path}`,
        ),
      ),
    );
    const list = await t.app.inject({ method: 'GET', url: `${API_PREFIX}/entries`, headers: me.headers });
    expect(list.json<{ total: number }>().total).toBeGreaterThan(0);
    // The next invoice takes the number after the file's last.
    const api = { app: t.app, session: me };
    const next = await createEntry(api, { billId: (await createBill(api, { name: 'After the import' })).id });
    expect(next.invoiceId).toBe(INVOICES + 6);
  }, 120_000);

  it('leaves every table as it was when the file breaks off, the client goes, another start removes it, or the account is no longer empty', async () => {
    const tables = await tableNames(t.app.db);

    // The file breaks off after its invoices were committed (the worker died).
    const first = await signUp(t.app);
    const before = await snapshot(t.app.db, tables);
    async function* brokenOff(): AsyncGenerator<AccountFilePart> {
      for await (const part of readAccountFile(file())) {
        if ('payments' in part) throw new Error('the worker stopped');
        yield part;
      }
    }
    await expect(service.import(await actorOf(first), brokenOff())).rejects.toThrow('the worker stopped');
    let after = await snapshot(t.app.db, tables);
    expect(changedTables(before, after), describeChanges(before, after)).toEqual([]);

    // The client goes while payments are written.
    const gone = new AbortController();
    const second = await signUp(t.app);
    const beforeGone = await snapshot(t.app.db, tables);
    const aborted = service.import(
      await actorOf(second),
      heldBefore(readAccountFile(file()), 'payments', 2, async () => gone.abort()),
      gone.signal,
    );
    await expect(aborted).rejects.toMatchObject({ statusCode: 400 });
    after = await snapshot(t.app.db, tables);
    expect(changedTables(beforeGone, after), describeChanges(beforeGone, after)).toEqual([]);

    // Another process starts while payments are written and removes the import's ledger: 503, to be sent again.
    const fourth = await signUp(t.app);
    const beforeStart = await snapshot(t.app.db, tables);
    const removed = service.import(
      await actorOf(fourth),
      heldBefore(readAccountFile(file()), 'payments', 2, async () => {
        expect(await removeUnfinishedImports(t.app.db, await unfinishedImports(t.app.db))).toEqual({ ledgers: 1 });
      }),
    );
    await expect(removed).rejects.toMatchObject({ statusCode: 503, code: 'SERVICE_UNAVAILABLE' });
    after = await snapshot(t.app.db, tables);
    expect(changedTables(beforeStart, after), describeChanges(beforeStart, after)).toEqual([]);

    // The account gets an entity of its own while the file is written: 409, and the account keeps just that.
    const third = await signUp(t.app);
    const actor = await actorOf(third);
    const beforeBusy = await snapshot(t.app.db, tables);
    let billId = 0;
    const busy = service.import(
      actor,
      heldBefore(readAccountFile(file()), 'payments', 1, async () => {
        billId = (await createBill({ app: t.app, session: third }, { name: 'Mine meanwhile' })).id;
      }),
    );
    await expect(busy).rejects.toMatchObject({ statusCode: 409, message: ACCOUNT_NOT_EMPTY });
    after = await snapshot(t.app.db, tables);
    // Only what the entity's own request wrote changed.
    expect(await importing(t.app.db)).toEqual([]);
    expect(await personalLedgerOf(t.app.db, third.username)).toBe(actor.ledgerId);
    const bills = await t.app.db.selectFrom('bills').select('id').where('ledger_id', '=', actor.ledgerId).execute();
    expect(bills.map((b) => b.id)).toEqual([billId]);
    expect(await count(t.app.db, 'entries', actor.ledgerId)).toBe(0);
    for (const table of [
      'entries',
      'payments',
      'schedules',
      'schedule_occurrences',
      'entry_history',
      'payment_history',
    ]) {
      expect(after[table], table).toEqual(beforeBusy[table]);
    }
    expect(after.ledgers).toEqual(beforeBusy.ledgers);
  }, 120_000);

  it('names every table with a ledger id as the ledger’s own (passed on) or the data an import writes', async () => {
    const written = [
      'bills',
      'entries',
      'payments',
      'schedules',
      'attachments',
      ...ROLLUP_TABLES,
      'entry_changes',
      'ledger_data_versions',
    ];
    const db = t.app.db;
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const withLedgerId = postgres
      ? (
          await sql<{ name: string }>`select table_name as name from information_schema.columns
            where table_schema = current_schema() and column_name = 'ledger_id'`.execute(db)
        ).rows.map((r) => r.name)
      : (
          await sql<{ name: string }>`select m.name from sqlite_master m, pragma_table_info(m.name) c
            where m.type = 'table' and c.name = 'ledger_id'`.execute(db)
        ).rows.map((r) => r.name);
    // Neither: the token of the ledger's saved index (docs/decisions/0407-saved-ledger-index.md), which names the
    // data of that ledger id only and goes with it.
    const derived = ['ledger_index_files'];
    expect(withLedgerId.sort()).toEqual([...LEDGER_OWN_TABLES, ...written, ...derived].sort());
  });
});
