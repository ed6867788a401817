import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { threadId } from 'node:worker_threads';
import type { AccountFile, AccountFilePayment } from '@billfold/contract/account-file';
import { CATEGORIES } from '@billfold/contract/categories';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../src/lib/http-error.ts';
import { IMPORT_PART_CHANNEL } from '../src/modules/account-data/account-data.service.ts';
import {
  type AccountFilePart,
  checkAccountFile,
  PART_ITEMS,
  partsOf,
  readAccountFile,
  WORKER_MIN_BYTES,
} from '../src/modules/account-data/account-file-parser.ts';
import { rollupDifferences } from '../src/modules/read-model/rollup-tables.ts';
import { holdsNul } from '../src/plugins/security.ts';
import { richAccountFile } from './helpers/account-file.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { signUp } from './helpers/factories.ts';
import { personalLedgerOf } from './helpers/seed.ts';
import { changedTables, describeChanges, snapshot, tableNames, totalsMismatches } from './security/database-state.ts';

/**
 * A large account file is parsed and checked off the event loop (docs/decisions/0706-limits-and-fairness.md): in
 * a worker thread, posted back in parts. Timings are the benchmark's (`npm run bench:stall`); these tests prove the
 * mechanism: this thread keeps turning while the worker parses, the result is exactly the file the schema makes
 * of it, a refusal keeps its status, code and words, and the import's writes let other requests through.
 */

/** A valid version-2 account file of `invoices` invoices, each paid, as JSON bytes. */
function accountFileBytes(invoices: number): Buffer {
  const at = '2026-01-01T00:00:00.000Z';
  const file = {
    format: 'billfold-account',
    version: 2,
    exportedAt: at,
    lastInvoiceNumber: invoices,
    entities: CATEGORIES.map((category, i) => ({
      ref: i + 1,
      name: `Entity ${i + 1}`,
      category,
      internal: false,
      archived: false,
      createdAt: at,
      deletedAt: null,
    })),
    invoices: Array.from({ length: invoices }, (_, i) => ({
      ref: i + 1,
      entity: (i % CATEGORIES.length) + 1,
      number: i + 1,
      date: `2025-${String((i % 12) + 1).padStart(2, '0')}-15`,
      flow: 'expense',
      amount: `${(i % 900) + 10}.25`,
      description: `Invoice ${i + 1} with a description long enough to weigh something`,
      createdAt: at,
      deletedAt: null,
      deletedWithEntity: false,
    })),
    payments: Array.from({ length: invoices }, (_, i) => ({
      ref: i + 1,
      invoice: i + 1,
      date: `2025-${String((i % 12) + 1).padStart(2, '0')}-20`,
      amount: `${(i % 900) + 10}.25`,
      method: 'bank|ach',
      notes: '',
      autopay: false,
      createdAt: at,
      deletedAt: null,
      deletedWithInvoice: false,
    })),
    schedules: [],
  };
  return Buffer.from(JSON.stringify(file));
}

/** Counts turns of this thread's event loop until `work` settles. */
async function turnsWhile<T>(work: Promise<T>): Promise<{ turns: number; result: PromiseSettledResult<T> }> {
  let turns = 0;
  let done = false;
  const spin = () => {
    if (done) return;
    turns += 1;
    setImmediate(spin);
  };
  setImmediate(spin);
  const [result] = await Promise.allSettled([work]);
  done = true;
  return { turns, result: result as PromiseSettledResult<T> };
}

/** Every part `readAccountFile` hands over, read to the end. */
async function allParts(parts: AsyncIterable<AccountFilePart>): Promise<AccountFilePart[]> {
  const out: AccountFilePart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

const kindOf = (part: AccountFilePart) => Object.keys(part)[0] as string;

describe('the account file parser', () => {
  it('parses a large file in a worker thread while this thread keeps turning, into bounded parts of exactly the checked file', async () => {
    const bytes = accountFileBytes(3_000);
    expect(bytes.length).toBeGreaterThan(WORKER_MIN_BYTES);
    const expected = [...partsOf(checkAccountFile(bytes))];
    const { turns, result } = await turnsWhile(allParts(readAccountFile(Buffer.from(bytes))));
    expect(result.status).toBe('fulfilled');
    const parts = (result as PromiseFulfilledResult<AccountFilePart[]>).value;
    expect(parts).toEqual(expected);
    // The head, then 2,000 + 1,000 invoices and payments, each a part of its own.
    expect(parts.map(kindOf)).toEqual(['head', 'entities', 'invoices', 'invoices', 'payments', 'payments']);
    for (const part of parts.slice(1)) expect(Object.values(part)[0].length).toBeLessThanOrEqual(PART_ITEMS);
    // Parsed here, the whole parse would be one turn; the worker's start-up and parse leave many.
    expect(turns).toBeGreaterThan(20);
    expect(threadId).toBe(0);
  }, 60_000);

  it('points items at each other by position and carries each invoice its live payments, as the file says', () => {
    const file = checkAccountFile(accountFileBytes(5));
    file.payments[1] = { ...(file.payments[1] as AccountFilePayment), invoice: 1 };
    file.payments[2] = {
      ...(file.payments[2] as AccountFilePayment),
      invoice: 1,
      deletedAt: '2026-02-01T00:00:00.000Z',
    };
    const parts = [...partsOf(file)];
    const invoices = parts.flatMap((p) => ('invoices' in p ? p.invoices : []));
    const payments = parts.flatMap((p) => ('payments' in p ? p.payments : []));
    expect(invoices.map((inv) => [inv.entity, inv.paidCents, inv.paidCount])).toEqual([
      [0, 1025 + 1125, 2],
      [1, 0, 0],
      [2, 0, 0],
      [3, 1325, 1],
      [4, 1425, 1],
    ]);
    expect(payments.map((p) => p.invoice)).toEqual([0, 0, 0, 3, 4]);
  });

  it("leaves a raw body's bytes to the route's parser: the NUL check walks values, never bytes", () => {
    // Walked entry by entry, a 128 MiB file's bytes were an array of a pair per byte: gigabytes, minutes.
    expect(holdsNul({ name: ['ok', 'a\u0000b'] })).toBe(true);
    expect(holdsNul(Object.assign(Buffer.from('{"name":"x"}'), { extra: 'a\u0000b' }))).toBe(false);
    expect(holdsNul({ body: new Uint8Array([0, 0, 0]) })).toBe(false);
  });

  it("keeps a refusal's status, code and words from the worker, before any part", async () => {
    const bytes = accountFileBytes(3_000);
    const broken = Buffer.concat([bytes.subarray(0, bytes.length - 10), Buffer.from('"oops')]);
    const { result } = await turnsWhile(allParts(readAccountFile(broken)));
    expect(result.status).toBe('rejected');
    const err = (result as PromiseRejectedResult).reason as HttpError;
    expect(err).toBeInstanceOf(HttpError);
    expect([err.statusCode, err.code]).toEqual([400, 'MALFORMED_JSON']);
    expect(err.message).toMatch(/^The request body is not valid JSON/);

    const text = bytes.toString().replace('"ref":1,"invoice":1,', '"ref":1,"invoice":999999,');
    const dangling = await readAccountFile(Buffer.from(text))
      .next()
      .catch((e: HttpError) => e);
    expect(dangling).toBeInstanceOf(HttpError);
    expect([(dangling as HttpError).statusCode, (dangling as HttpError).code]).toEqual([400, 'VALIDATION_FAILED']);
    expect((dangling as HttpError).message).toMatch(/payments\.0/i);

    const proto = Buffer.from(bytes.toString().replace('"schedules":[]', '"schedules":[],"__proto__":{}'));
    const forbidden = await readAccountFile(proto)
      .next()
      .catch((e: HttpError) => e);
    expect((forbidden as HttpError).code).toBe('FORBIDDEN_KEY');
  }, 60_000);
});

describe.each(dialects)('a large account import on %s', (dialect) => {
  it('answers health requests while the file is parsed and written, and stores the whole file', async () => {
    const t = await createTestApp(dialect);
    try {
      const me = await signUp(t.app);
      const bytes = accountFileBytes(3_000);
      let finished = false;
      const importing = t.app
        .inject({
          method: 'POST',
          url: '/api/v1/account/import',
          headers: { ...me.headers, 'content-type': 'application/json' },
          payload: bytes,
        })
        .finally(() => {
          finished = true;
        });
      let answeredDuring = 0;
      while (!finished) {
        const health = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
        expect(health.statusCode).toBe(200);
        if (!finished) answeredDuring += 1;
        // Another client's next request arrives from the network: a turn of the event loop later.
        await new Promise((resolve) => setImmediate(resolve));
      }
      const res = await importing;
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        entities: CATEGORIES.length,
        invoices: 3_000,
        payments: 3_000,
        schedules: 0,
        categories: 0,
        attachments: 0,
      });
      expect(answeredDuring).toBeGreaterThan(5);
    } finally {
      await t.close();
    }
  }, 120_000);
});

const ledgerIdOf = (t: TestApp, username: string) => personalLedgerOf(t.app.db, username);

/** The ledger's rows in every table an import writes. */
async function storedCounts(t: TestApp, ledgerId: number) {
  const db = t.app.db;
  const count = async (table: 'bills' | 'entries' | 'payments' | 'schedules' | 'categories') => {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ledger_id', '=', ledgerId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const occurrences = await db
    .selectFrom('schedule_occurrences')
    .innerJoin('schedules', 'schedules.id', 'schedule_occurrences.schedule_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('schedules.ledger_id', '=', ledgerId)
    .executeTakeFirstOrThrow();
  const user = await db
    .selectFrom('ledgers')
    .select('last_invoice_number')
    .where('id', '=', ledgerId)
    .executeTakeFirstOrThrow();
  return {
    entities: await count('bills'),
    invoices: await count('entries'),
    payments: await count('payments'),
    schedules: await count('schedules'),
    categories: await count('categories'),
    occurrences: Number(occurrences.n),
    lastInvoiceNumber: Number(user.last_invoice_number),
  };
}

const EMPTY = {
  entities: 0,
  invoices: 0,
  payments: 0,
  schedules: 0,
  categories: 0,
  occurrences: 0,
  lastInvoiceNumber: 0,
};

/** The parts the import writes while `work` runs, as `kind items` (the `billfold:account-import:part` channel). */
async function partsWrittenDuring<T>(work: () => Promise<T>): Promise<{ result: T; written: string[] }> {
  const written: string[] = [];
  const listen = (message: unknown) => {
    const { kind, items } = message as { kind: string; items: number };
    written.push(`${kind} ${items}`);
  };
  subscribe(IMPORT_PART_CHANNEL, listen);
  try {
    return { result: await work(), written };
  } finally {
    unsubscribe(IMPORT_PART_CHANNEL, listen);
  }
}

const importFile = (t: TestApp, headers: Record<string, string>, payload: Buffer | string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/account/import',
    headers: { ...headers, 'content-type': 'application/json' },
    payload,
  });

describe.each(dialects)('an account file written part by part on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t.close();
  });

  it('imports a file of several parts of each kind exactly: counts, totals and its own export', async () => {
    const me = await signUp(t.app);
    const file = richAccountFile(4_500);
    const bytes = Buffer.from(JSON.stringify(file));
    expect(bytes.length).toBeGreaterThan(WORKER_MIN_BYTES);
    const { result: res, written } = await partsWrittenDuring(() => importFile(t, me.headers, bytes));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      entities: file.entities.length,
      invoices: 4_500,
      payments: file.payments.length,
      schedules: 2,
      categories: 2,
      attachments: 0,
    });
    // Each part was written as it came, none larger than a part.
    expect(written).toEqual([
      `entities ${PART_ITEMS}`,
      'entities 100',
      `invoices ${PART_ITEMS}`,
      `invoices ${PART_ITEMS}`,
      'invoices 500',
      ...(Array.from(
        { length: Math.ceil(file.payments.length / PART_ITEMS) },
        (_, i) => `payments ${Math.min(PART_ITEMS, file.payments.length - i * PART_ITEMS)}`,
      ) as string[]),
      'schedules 2',
      `occurrences ${PART_ITEMS}`,
      'occurrences 50',
    ]);
    const ledgerId = await ledgerIdOf(t, me.username);
    expect(await storedCounts(t, ledgerId)).toEqual({
      entities: file.entities.length,
      invoices: 4_500,
      payments: file.payments.length,
      schedules: 2,
      categories: 2,
      occurrences: PART_ITEMS + 50,
      lastInvoiceNumber: 4_505,
    });
    // Sums to the cent: the file's live invoices and payments, and each invoice's totals from its live payments.
    const cents = (amount: string) => Math.round(Number(amount) * 100);
    const sums = await t.app.db
      .selectFrom('entries')
      .select((eb) => [eb.fn.sum<number>('amount_cents').as('amount'), eb.fn.sum<number>('paid_cents').as('paid')])
      .where('ledger_id', '=', ledgerId)
      .where('recycled_at', 'is', null)
      .executeTakeFirstOrThrow();
    const live = file.invoices.filter((inv) => inv.deletedAt === null);
    const liveRefs = new Set(live.map((inv) => inv.ref));
    expect(Number(sums.amount)).toBe(live.reduce((n, inv) => n + cents(inv.amount), 0));
    expect(Number(sums.paid)).toBe(
      file.payments
        .filter((p) => p.deletedAt === null && liveRefs.has(p.invoice))
        .reduce((n, p) => n + cents(p.amount), 0),
    );
    expect(await totalsMismatches(t.app.db)).toEqual([]);
    expect(await rollupDifferences(t.app.db)).toEqual([]);
    // Its export is the file itself, but for the time of export and the name of the ledger it went into.
    const exported = await t.app.inject({ method: 'GET', url: '/api/v1/account/export', headers: me.headers });
    expect(exported.statusCode).toBe(200);
    // A version-4 file comes back as version 6: fixed amounts, no estimates, no attachments.
    expect({ ...exported.json<AccountFile>(), exportedAt: null }).toEqual({
      ...file,
      version: 6,
      attachments: [],
      exportedAt: null,
      ledger: { name: 'Personal' },
      schedules: file.schedules.map((s) => ({ ...s, amountMode: 'fixed', averageOf: null })),
    });
  }, 180_000);

  it('stores nothing when the refused item comes last in the file', async () => {
    const me = await signUp(t.app);
    const file = richAccountFile(4_500);
    const last = file.payments.length - 1;
    file.payments[last] = { ...(file.payments[last] as AccountFilePayment), amount: '12.345' };
    const tables = await tableNames(t.app.db);
    const before = await snapshot(t.app.db, tables);
    const { result: res, written } = await partsWrittenDuring(() => importFile(t, me.headers, JSON.stringify(file)));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(res.json().message).toContain(`Payments.${last}.amount`);
    expect(written).toEqual([]);
    expect(await storedCounts(t, await ledgerIdOf(t, me.username))).toEqual(EMPTY);
    const after = await snapshot(t.app.db, tables);
    expect(changedTables(before, after), describeChanges(before, after)).toEqual([]);
  }, 180_000);

  it('rolls back every part written when the database refuses a row of a late part', async () => {
    const me = await signUp(t.app);
    const file = richAccountFile(4_500);
    const late = file.payments.length - 10;
    file.payments[late] = { ...(file.payments[late] as AccountFilePayment), notes: 'refused by the database' };
    // A real refusal by the database, in the last part of payments: a trigger for this test only.
    if (dialect === 'sqlite')
      await sql`create trigger refuse_note before insert on payments when new.notes = 'refused by the database'
        begin select raise(abort, 'refused'); end`.execute(t.app.db);
    else {
      await sql`create function refuse_note() returns trigger language plpgsql as $$
        begin if new.notes = 'refused by the database' then raise exception 'refused'; end if; return new; end $$`.execute(
        t.app.db,
      );
      await sql`create trigger refuse_note before insert on payments for each row execute function refuse_note()`.execute(
        t.app.db,
      );
    }
    try {
      const tables = await tableNames(t.app.db);
      const before = await snapshot(t.app.db, tables);
      const { result: res, written } = await partsWrittenDuring(() => importFile(t, me.headers, JSON.stringify(file)));
      expect(res.statusCode).toBe(500);
      // Entities, invoices and the earlier payments were written before the refusal…
      expect(written.slice(0, 5)).toEqual([
        `entities ${PART_ITEMS}`,
        'entities 100',
        `invoices ${PART_ITEMS}`,
        `invoices ${PART_ITEMS}`,
        'invoices 500',
      ]);
      expect(written.filter((w) => w.startsWith('payments')).length).toBe(
        Math.ceil(file.payments.length / PART_ITEMS) - 1,
      );
      // …and none of them is stored: every table as it was (each part was committed on its own, into a ledger of
      // the import's that is removed again).
      expect(await storedCounts(t, await ledgerIdOf(t, me.username))).toEqual(EMPTY);
      const after = await snapshot(t.app.db, tables);
      expect(changedTables(before, after), describeChanges(before, after)).toEqual([]);
      // The account takes the file once the database takes it.
      await sql`drop trigger refuse_note${sql.raw(dialect === 'sqlite' ? '' : ' on payments')}`.execute(t.app.db);
      const again = await importFile(t, me.headers, JSON.stringify(file));
      expect(again.statusCode, again.body).toBe(200);
      expect((await storedCounts(t, await ledgerIdOf(t, me.username))).payments).toBe(file.payments.length);
    } finally {
      await sql`drop trigger if exists refuse_note${sql.raw(dialect === 'sqlite' ? '' : ' on payments')}`.execute(
        t.app.db,
      );
      if (dialect === 'postgres') await sql`drop function if exists refuse_note()`.execute(t.app.db);
    }
  }, 180_000);
});
