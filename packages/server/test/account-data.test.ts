import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { type ClientRequest, get } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type AccountFile, accountFileV6 } from '@billfold/contract/account-file';
import type { RecycleList } from '@billfold/contract/recycle';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../src/config.ts';
import { DiskStore } from '../src/lib/file-store.ts';
import {
  AccountDataRepository,
  EXPORT_READ_MS,
  nextExportWindow,
} from '../src/modules/account-data/account-data.repository.ts';
import {
  ACCOUNT_NOT_EMPTY,
  AccountDataService,
  EXPORT_PAGE_CHANNEL,
} from '../src/modules/account-data/account-data.service.ts';
import { rollupDifferences } from '../src/modules/read-model/rollup-tables.ts';
import { createTestApp, type Dialect, dialects, type TestApp } from './helpers/app.ts';
import {
  type Api,
  createBill,
  createEntry,
  createPayment,
  editEntry,
  request,
  updateBill,
  updatePayment,
} from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';
import { createSchedule } from './helpers/schedules.ts';
import { totalsMismatches } from './security/database-state.ts';

/**
 * The whole-account file: export → import into an empty account on a server of the other database → export gives
 * the same file but for its export time; what the user sees there (list, stats, recycle bin) is the same; a
 * rejected import writes nothing; a version-1 file written earlier keeps importing.
 */

/** The other database when both run, so the file crosses from SQLite to PostgreSQL and back. */
const other = (dialect: Dialect): Dialect => dialects.find((d) => d !== dialect) ?? dialect;
const V1_FIXTURE = resolve(import.meta.dirname, 'fixtures/account-file-v1.json');

const exportFile = async (api: Api) => {
  const res = await request(api, 'GET', '/account/export');
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-disposition']).toMatch(
    /^attachment; filename="billfold-account-\d{4}-\d{2}-\d{2}\.json"$/,
  );
  return accountFileV6.parse(res.json());
};
const withoutTime = (file: AccountFile) => ({ ...file, exportedAt: null });

/** What a user sees of the data: the list, the stats and the recycle bin, without database ids. */
async function visible(api: Api) {
  const list = (await request(api, 'GET', '/entries?pageSize=100&sort=invoiceId&order=asc')).json<{
    entries: Record<string, unknown>[];
    total: number;
  }>();
  const stats = (await request(api, 'GET', '/entries/stats')).json<unknown>();
  const bin = (await request(api, 'GET', '/recycle')).json<RecycleList>();
  const strip = (row: Record<string, unknown>) => {
    const { entryId: _e, billId: _b, id: _i, entityId: _x, ...rest } = row;
    return rest;
  };
  return { total: list.total, entries: list.entries.map(strip), stats, bin: bin.recycleItems.map(strip) };
}

/** Entities (live, archived, internal, deleted with their invoices, one sharing a live one's name), invoices, payments. */
async function richAccount(api: Api) {
  const power = await createBill(api, { name: 'Power Co', category: 'Utilities' });
  const transfer = await createBill(api, { name: 'Savings', category: 'Financial', internal: true });
  const old = await createBill(api, { name: 'Old Landlord', category: 'Mortgage / Rent' });
  const gone = await createBill(api, { name: 'Gym', category: 'Personal Care / Fitness' });
  const e1 = await createEntry(api, { billId: power.id, amount: 120.5, flow: 'expense', services: 'October, "final"' });
  const e2 = await createEntry(api, {
    billId: power.id,
    amount: 80,
    flow: 'income',
    date: '2025-02-28',
    dueDate: '2025-03-14',
  });
  const e3 = await createEntry(api, { billId: transfer.id, amount: 1000, services: 'to savings' });
  const e4 = await createEntry(api, { billId: old.id, amount: 1500 });
  const e5 = await createEntry(api, { billId: gone.id, amount: 45 });
  const e6 = await createEntry(api, { billId: power.id, amount: 10 });
  await createPayment(api, { entryId: e1.entryId, amount: 100, notes: 'first', autopay: true });
  const p2 = await createPayment(api, { entryId: e1.entryId, amount: 20.5, type: 'check', medium: 'mail' });
  await createPayment(api, { entryId: e3.entryId, amount: 1200, type: 'cash', medium: 'person' });
  await createPayment(api, { entryId: e4.entryId, amount: 1500 });
  await createPayment(api, { entryId: e5.entryId, amount: 5 });
  await createPayment(api, { entryId: e6.entryId, amount: 3 });
  // Schedules: one that created invoices and automatic payments (one still pending), a paused one, and one of an
  // entity in the recycle bin.
  // Rent is estimated at the last confirmed expense of its entity: none (its 1500.00 is an income), so its amount
  // stands in; the first of its invoices is confirmed since.
  const rent = await createSchedule(api, old.id, {
    firstDate: '2026-09-15',
    dueDays: 10,
    autopay: 'bank|ach',
    description: 'Rent {month} {year}',
    amountMode: 'last',
  });
  const rentInvoices = (
    await request(api, 'GET', '/entries?partyList=Old%20Landlord&sortField=date&sortOrder=asc')
  ).json<{ entries: { entryId: number; date: string }[] }>().entries;
  const september = rentInvoices.find((e) => e.date === '2026-09-15');
  if (!september) throw new Error('no September rent');
  await editEntry(api, { entryId: september.entryId, confirm: true });
  const weekly = await createSchedule(api, power.id, {
    amountMode: 'average',
    averageOf: 4,
    cadence: 'weekly',
    interval: 2,
    firstDate: '2027-01-04',
    count: 4,
  });
  await request(api, 'POST', `/schedules/${weekly.id}/pause`);
  await createSchedule(api, gone.id, {
    cadence: 'yearly',
    firstDate: '2027-02-28',
    dayOfMonth: 29,
    endDate: '2031-12-31',
  });
  void rent;
  await updatePayment(api, { paymentId: p2.paymentId, recycle: true });
  await editEntry(api, { entryId: e6.entryId, recycle: true });
  await updateBill(api, { id: old.id, status: 0 });
  await updateBill(api, { id: gone.id, recycle: true });
  await createBill(api, { name: 'gym', category: 'Personal Care / Fitness' });
  void e2;
}

/** A file of `count` invoices, a payment each (several pages of reads, 1,000 rows a page), built from `api`'s export. */
async function fileOfInvoices(api: Api, count: number): Promise<AccountFile> {
  const bill = await createBill(api, { name: 'Power Co' });
  const first = await createEntry(api, { billId: bill.id, amount: 12 });
  await createPayment(api, { entryId: first.entryId, amount: 5 });
  const small = await exportFile(api);
  const [invoice] = small.invoices;
  const [payment] = small.payments;
  if (!invoice || !payment) throw new Error('no invoice or payment');
  const refs = Array.from({ length: count }, (_, i) => i + 1);
  return {
    ...small,
    lastInvoiceNumber: count,
    invoices: refs.map((ref) => ({ ...invoice, ref, number: ref, description: `Invoice ${ref}` })),
    payments: refs.map((ref) => ({ ...payment, ref, invoice: ref, notes: `Payment ${ref}` })),
  };
}

describe.each(dialects)('account file from %s', (dialect) => {
  let source: TestApp;
  let target: TestApp;
  const userOf = async (t: TestApp): Promise<Api> => ({ app: t.app, session: await signUp(t.app) });

  beforeAll(async () => {
    source = await createTestApp(dialect);
    target = await createTestApp(other(dialect));
  });
  afterAll(async () => {
    await source.close();
    await target.close();
  });

  it(`round-trips into an empty account on ${other(dialect)}: same file, same list, stats and bin`, async () => {
    const from = await userOf(source);
    await richAccount(from);
    const first = await exportFile(from);
    expect(first.entities).toHaveLength(5);
    expect(first.invoices).toHaveLength(9);
    expect(first.payments).toHaveLength(8);
    expect(first.schedules.map((s) => [s.cadence, s.paused, s.nextDate, s.occurrences.length])).toEqual([
      ['monthly', false, '2026-12-15', 3],
      ['weekly', true, '2027-01-04', 0],
      ['yearly', false, '2027-02-28', 0],
    ]);
    expect(first.schedules[0]?.occurrences.map((o) => [o.date, o.autopayDate, o.payment !== null])).toEqual([
      ['2026-09-15', null, true],
      ['2026-10-15', null, true],
      ['2026-11-15', '2026-11-25', false],
    ]);
    // Version 5: the schedules' amount modes, the invoices' estimates and marks.
    expect(first.schedules.map((s) => [s.amountMode, s.averageOf])).toEqual([
      ['last', null],
      ['average', 4],
      ['fixed', null],
    ]);
    expect(
      first.invoices.filter((i) => i.estimate !== undefined).map((i) => [i.amount, i.estimate, i.estimated]),
    ).toEqual([
      ['1250.00', '1250.00', undefined],
      ['1250.00', '1250.00', true],
      ['1250.00', '1250.00', true],
    ]);
    expect(first.invoices.filter((i) => i.deletedWithEntity)).toHaveLength(1);
    expect(first.payments.filter((p) => p.deletedWithInvoice)).toHaveLength(2);
    expect(first.invoices.filter((i) => i.dueDate !== undefined).map((i) => i.dueDate)).toEqual([
      '2025-03-14',
      '2026-09-25',
      '2026-10-25',
      '2026-11-25',
    ]);

    const to = await userOf(target);
    const imported = await request(to, 'POST', '/account/import', first);
    expect(imported.json()).toEqual({
      entities: 5,
      invoices: 9,
      payments: 8,
      schedules: 3,
      categories: 0,
      attachments: 0,
    });
    expect(imported.statusCode).toBe(200);

    const second = await exportFile(to);
    expect(withoutTime(second)).toEqual(withoutTime(first));
    expect(await visible(to)).toEqual(await visible(from));
    expect(await totalsMismatches(target.app.db)).toEqual([]);
    expect(await rollupDifferences(target.app.db)).toEqual([]);

    // Invoice numbers continue after the imported ones; restoring the deleted invoice brings its payment back.
    const next = await createEntry(to, { amount: 1 });
    expect(next.invoiceId).toBe(first.lastInvoiceNumber + 1);
    const bin = (await request(to, 'GET', '/recycle')).json<{
      recycleItems: { entityType: string; entityId: number }[];
    }>();
    const invoice = bin.recycleItems.find((i) => i.entityType === 'Invoice');
    const restored = await request(to, 'POST', '/recycle/restore', {
      entityType: 'Invoice',
      entityId: invoice?.entityId,
    });
    expect(restored.statusCode).toBe(200);
    const after = await exportFile(to);
    expect(after.invoices.filter((i) => i.deletedAt === null)).toHaveLength(9);
    expect(after.payments.filter((p) => p.deletedAt === null)).toHaveLength(6);
    expect(after.schedules).toEqual(first.schedules);
  });

  it('refuses an account that already has data, and a broken file, writing nothing', async () => {
    const from = await userOf(source);
    await richAccount(from);
    const file = await exportFile(from);

    const busy = await userOf(target);
    const bill = await createBill(busy, { name: 'Already here' });
    await updateBill(busy, { id: bill.id, recycle: true });
    const before = await exportFile(busy);
    const refused = await request(busy, 'POST', '/account/import', file);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(ACCOUNT_NOT_EMPTY);
    expect(withoutTime(await exportFile(busy))).toEqual(withoutTime(before));

    const empty = await userOf(target);
    const broken = { ...file, payments: [...file.payments, { ...file.payments[0], ref: 99, invoice: 42 }] };
    const bad = await request(empty, 'POST', '/account/import', broken);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/payments\.8\.invoice:? no invoice has ref 42/i);
    const [rent] = file.schedules;
    if (!rent) throw new Error('no schedule');
    const badSchedule = {
      ...file,
      schedules: [{ ...rent, occurrences: [...rent.occurrences, { ...rent.occurrences[0], payment: 77 }] }],
    };
    expect((await request(empty, 'POST', '/account/import', badSchedule)).json().message).toMatch(
      /schedules\.0\.occurrences\.3\.date:? occurrence 2026-09-15 appears twice.*no payment has ref 77/i,
    );
    const wrongAmount = { ...file, invoices: file.invoices.map((i, n) => (n === 0 ? { ...i, amount: '12.5' } : i)) };
    expect((await request(empty, 'POST', '/account/import', wrongAmount)).json().message).toMatch(
      /invoices\.0\.amount:? must be an amount like "1234\.50"/i,
    );
    const dueEarly = {
      ...file,
      invoices: file.invoices.map((i, n) => (n === 0 ? { ...i, dueDate: '1999-01-01' } : i)),
    };
    expect((await request(empty, 'POST', '/account/import', dueEarly)).json().message).toMatch(
      /invoices\.0\.dueDate:? must not be before the invoice date/i,
    );
    const future = await request(empty, 'POST', '/account/import', { ...file, version: 7 });
    expect(future.statusCode).toBe(400);
    expect(future.json().message).toContain('version must be 1, 2, 3, 4, 5 or 6');
    const notOurs = await request(empty, 'POST', '/account/import', { hello: 'world' });
    expect(notOurs.json().message).toContain('is not a Billfold account file');
    expect((await exportFile(empty)).entities).toEqual([]);
  });

  it('exports every invoice and payment of an account of several pages of reads (1,000 rows a page)', async () => {
    const from = await userOf(source);
    const bill = await createBill(from, { name: 'Power Co' });
    await createPayment(from, {
      entryId: (await createEntry(from, { billId: bill.id, amount: 12 })).entryId,
      amount: 5,
    });
    const small = await exportFile(from);
    const [invoice] = small.invoices;
    const [payment] = small.payments;
    if (!invoice || !payment) throw new Error('no invoice or payment');
    const count = 5_001;
    const refs = Array.from({ length: count }, (_, i) => i + 1);
    const file = {
      ...small,
      lastInvoiceNumber: count,
      invoices: refs.map((ref) => ({ ...invoice, ref, number: ref, description: `Invoice ${ref}` })),
      payments: refs.map((ref) => ({ ...payment, ref, invoice: ref, notes: `Payment ${ref}` })),
    };
    const to = await userOf(target);
    const imported = await request(to, 'POST', '/account/import', file);
    expect(imported.statusCode).toBe(200);
    expect(withoutTime(await exportFile(to))).toEqual(withoutTime(file));
  });

  it('streams the export from a snapshot: written as it is read, another client writes meanwhile without waiting, the file is the moment it began and re-imports', async () => {
    const file = await fileOfInvoices(await userOf(source), 2_100);
    const writer = await userOf(source);
    expect((await request(writer, 'POST', '/account/import', file)).statusCode).toBe(200);
    const before = withoutTime(await exportFile(writer));
    const [ledger] = (await request(writer, 'GET', '/ledgers')).json<{ ledgers: { id: number }[] }>().ledgers;
    if (!ledger) throw new Error('no ledger');

    // The export of the route, taken a piece at a time, with its reads counted as they happen.
    // The ledger has no attachments: its export is JSON and never touches the store.
    const store = new DiskStore(join(tmpdir(), 'billfold-no-files'));
    const service = new AccountDataService(
      new AccountDataRepository(source.app.db),
      source.clock.now,
      store,
      DEFAULT_LIMITS,
    );
    const pages: string[] = [];
    const onPage = (message: unknown) => pages.push((message as { table: string }).table);
    subscribe(EXPORT_PAGE_CHANNEL, onPage);
    let text = '';
    try {
      const exported = await service.openExport(ledger.id);
      const chunks = exported.chunks[Symbol.asyncIterator]();
      while (!text.includes('"invoices":[{')) {
        const next = await chunks.next();
        if (next.done) throw new Error('the export ended before its invoices');
        text += next.value;
      }
      // Written as read: the first invoices are out before most of the ledger is read.
      expect(pages.filter((table) => table === 'entries').length).toBe(1);
      expect(pages).not.toContain('payments');

      // Meanwhile the owner writes: each call answers at once (the export holds nothing they need) and none of it
      // shows in the file, though the export has not read those rows yet.
      const db = source.app.db;
      const rows = db.selectFrom('entries').where('ledger_id', '=', ledger.id);
      const { last, billId } = await rows
        .select((eb) => [eb.fn.max('id').as('last'), eb.fn.min('bill_id').as('billId')])
        .executeTakeFirstOrThrow();
      const added = await createEntry(writer, { billId, amount: 99, services: 'written during the export' });
      await createPayment(writer, { entryId: added.entryId, amount: 1, notes: 'paid during the export' });
      await createPayment(writer, { entryId: last, amount: 2, notes: 'also during the export' });
      await editEntry(writer, { entryId: last, recycle: true });

      for (let next = await chunks.next(); !next.done; next = await chunks.next()) text += next.value;
    } finally {
      unsubscribe(EXPORT_PAGE_CHANNEL, onPage);
    }
    expect(pages.filter((table) => table === 'entries').length).toBeGreaterThanOrEqual(3);
    const streamed = accountFileV6.parse(JSON.parse(text));
    expect(withoutTime(streamed)).toEqual(before);
    expect((await exportFile(writer)).invoices).toHaveLength(file.invoices.length + 1);

    const to = await userOf(target);
    expect((await request(to, 'POST', '/account/import', streamed)).statusCode).toBe(200);
    expect(withoutTime(await exportFile(to))).toEqual(before);
  });

  it('a download broken off ends its snapshot at once', async () => {
    const owner = await userOf(source);
    expect(
      (await request(owner, 'POST', '/account/import', await fileOfInvoices(await userOf(source), 2_100))).statusCode,
    ).toBe(200);
    // An open snapshot shows: on SQLite a checkpoint cannot copy what is written after it (here, by a connection of
    // the test's own); on PostgreSQL a connection other than the test's is in a transaction.
    const other = dialect === 'sqlite' ? new SQLite((source.database.config as { file: string }).file) : null;
    other?.exec('create table if not exists export_probe (id integer primary key)');
    const held = async (): Promise<boolean> => {
      if (other) {
        other.exec('insert into export_probe default values');
        const [result] = other.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
        return result !== undefined && result.checkpointed < result.log;
      }
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null`.execute(
        source.app.db,
      );
      return (rows[0]?.n ?? 0) > 0;
    };
    const url = await source.app.listen({ host: '127.0.0.1', port: 0 });
    try {
      // The client reads nothing, so the export waits for it once the socket's buffers are full (the file is far
      // larger). Once the export has read its first page of invoices the snapshot is looked at, and only then does
      // the client go: the look cannot race the export's end.
      let heldWhileReading: Promise<boolean> = Promise.resolve(false);
      let req: ClientRequest | null = null;
      let looked = false;
      const onPage = (message: unknown) => {
        if ((message as { table: string }).table !== 'entries' || !req || looked) return;
        looked = true;
        const going = req;
        heldWhileReading = held().finally(() => going.destroy());
      };
      subscribe(EXPORT_PAGE_CHANNEL, onPage);
      try {
        await new Promise<void>((resolve) => {
          req = get(`${url}/api/v1/account/export`, { headers: owner.session.headers });
          req.on('close', () => resolve());
          req.on('error', () => {});
        });
      } finally {
        unsubscribe(EXPORT_PAGE_CHANNEL, onPage);
      }
      expect(await heldWhileReading).toBe(true);
      let tries = 0;
      while ((await held()) && tries < 50) {
        tries += 1;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await held()).toBe(false);
    } finally {
      other?.close();
    }
  });

  it('keeps importing a version-1 file written by an earlier release', async () => {
    const fixture = JSON.parse(readFileSync(V1_FIXTURE, 'utf8')) as AccountFile;
    const to = await userOf(target);
    const res = await request(to, 'POST', '/account/import', fixture);
    expect(res.statusCode).toBe(200);
    // It comes back as the current version, which adds schedules, own categories and attachments (it had none) and
    // names the ledger it was exported from (the personal one).
    expect(withoutTime(await exportFile(to))).toEqual({
      ...withoutTime(fixture),
      version: 6,
      schedules: [],
      attachments: [],
      categories: [],
      ledger: { name: 'Personal' },
    });
    expect(await totalsMismatches(target.app.db)).toEqual([]);
  });
});

describe('the window of ids an export read walks', () => {
  it('narrows toward the target time while reads are slow, widens at most twice a read, within its bounds', () => {
    // A read of 20,000 ids that took 400 ms (a WAL grown large): the next walks 1,000, which should take 20 ms.
    expect(nextExportWindow(20_000, 20 * EXPORT_READ_MS)).toBe(1_000);
    expect(nextExportWindow(1_000, 10 * EXPORT_READ_MS)).toBe(200);
    // However slow, a read still walks 200 ids; once fast again the window doubles back, to at most 20,000.
    expect(nextExportWindow(200, 1_000 * EXPORT_READ_MS)).toBe(200);
    expect(nextExportWindow(200, 1)).toBe(400);
    expect(nextExportWindow(16_000, 0)).toBe(20_000);
    expect(nextExportWindow(20_000, EXPORT_READ_MS)).toBe(20_000);
  });
});
