import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Entry } from '@billfold/contract/entries';
import { LEDGER_HEADER } from '@billfold/contract/ledgers';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database.ts';
import { createDatabase } from '../src/db/database.ts';
import { rollupDifferences } from '../src/modules/read-model/rollup-tables.ts';
import { createTestApp, createTestDatabase, dialects, secondProcess, type TestApp } from './helpers/app.ts';
import { type Api, createBill, createEntry, editEntry } from './helpers/domain.ts';
import { type Session, STRONG_PASSWORD, signUp } from './helpers/factories.ts';
import { login, type ServerProcess, startServer } from './helpers/server-process.ts';
import { totalsMismatches } from './security/database-state.ts';

/**
 * Members of one ledger writing at once (issue 27, "Must hold"; docs/decisions/0107-ledgers.md, "Concurrent
 * writes"): two members editing the same invoice lose no update — each edit locks the invoice and compares with
 * what is stored under that lock, so the later write wins whole (never a mix of the two) — and every payment total
 * stays exact; twenty members paying shared invoices through two real server processes on PostgreSQL get no 5xx,
 * and each invoice's paid total is the sum of the payments the server accepted.
 */

const HEADER = LEDGER_HEADER.toLowerCase();

async function userIdOf(db: Db, username: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('username_key', '=', username.toLowerCase())
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A shared ledger, its first user the owner and the others editors (rows as the invitation routes write them). */
async function sharedLedger(db: Db, name: string, ownerId: number, editorIds: number[], at: number): Promise<number> {
  const row = await db
    .insertInto('ledgers')
    .values({ name, personal_user_id: null, created_at: at, last_invoice_number: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  await db
    .insertInto('ledger_members')
    .values([
      { ledger_id: id, user_id: ownerId, role: 'owner', joined_at: at },
      ...editorIds.map((user_id) => ({ ledger_id: id, user_id, role: 'editor', joined_at: at })),
    ])
    .execute();
  return id;
}

describe.each(dialects)('two members writing one invoice at once (%s)', (dialect) => {
  let t: TestApp;
  let other: FastifyInstance;
  let owner: Api;
  let editor: Api;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    // The editor's calls go to a second instance of the app on the same database, as a second server would.
    other = await secondProcess(t);
    const ownerSession = await signUp(t.app);
    const editorSession = await signUp(t.app);
    const ledger = await sharedLedger(
      t.app.db,
      'Household',
      await userIdOf(t.app.db, ownerSession.username),
      [await userIdOf(t.app.db, editorSession.username)],
      t.clock.now(),
    );
    const inLedger = (s: Session): Session => ({
      ...s,
      headers: { ...s.headers, [HEADER]: String(ledger) } as Session['headers'],
    });
    owner = { app: t.app, session: inLedger(ownerSession) };
    editor = { app: other, session: inLedger(editorSession) };
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  it('keeps the later edit whole (no mix of the two) and every total exact, over many rounds', async () => {
    const bill = await createBill(owner);
    const entry = await createEntry(owner, { billId: bill.id, amount: 100, services: 'Original', flow: 'expense' });
    const original = { amount: 100, services: 'Original', date: '2026-11-01' };
    const outcomes = { owner: 0, editor: 0, conflicts: 0 };
    for (let round = 0; round < 30; round++) {
      await editEntry(owner, { entryId: entry.entryId, ...original });
      // Each sends a whole invoice in which one field is as stored and another is new: an edit read before the other
      // committed would write only its new field, leaving a mix of the two.
      const byOwner = { amount: 200 + round, services: 'Original', date: '2026-11-01' };
      const byEditor = { amount: 100, services: `Editor ${round}`, date: '2026-11-02' };
      const send = (api: Api, body: object) =>
        api.app.inject({
          method: 'PUT',
          url: '/api/v1/entries/edit',
          headers: api.session.headers,
          payload: { entryId: entry.entryId, ...body },
        });
      const pay = (api: Api, amount: number) =>
        api.app.inject({
          method: 'POST',
          url: '/api/v1/payments',
          headers: api.session.headers,
          payload: { entryId: entry.entryId, date: '2026-11-05', amount, type: 'cash', medium: 'person' },
        });
      const [a, b, p, q] = await Promise.all([
        send(owner, byOwner),
        send(editor, byEditor),
        pay(owner, 1),
        pay(editor, 2),
      ]);
      for (const res of [a, b, p, q]) expect([200, 201, 409], res.body).toContain(res.statusCode);
      expect([p.statusCode, q.statusCode]).toEqual([201, 201]);
      const stored = (
        await t.app.inject({ method: 'GET', url: `/api/v1/entries/${entry.entryId}`, headers: owner.session.headers })
      ).json<Entry>();
      const now = { amount: stored.amount, services: stored.services, date: stored.date };
      if (a.statusCode === 409 || b.statusCode === 409) {
        outcomes.conflicts += 1;
        expect(a.statusCode === 409 && b.statusCode === 409, 'one of the two writes goes through').toBe(false);
        expect(now).toEqual(a.statusCode === 409 ? byEditor : byOwner);
      } else {
        expect([byOwner, byEditor]).toContainEqual(now);
        if (JSON.stringify(now) === JSON.stringify(byOwner)) outcomes.owner += 1;
        else outcomes.editor += 1;
      }
      expect(await totalsMismatches(t.app.db)).toEqual([]);
    }
    expect(outcomes.owner + outcomes.editor + outcomes.conflicts).toBe(30);
    expect(await rollupDifferences(t.app.db)).toEqual([]);
    // Sixty payments of 1 and 2: paid 90.00 in all.
    const payments = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/payments?entryId=${entry.entryId}`,
        headers: editor.session.headers,
      })
    ).json<{ paymentDTOList: { amount: number }[] }>().paymentDTOList;
    expect(payments.reduce((sum, p) => sum + Math.round(p.amount * 100), 0)).toBe(9_000);
  });
});

describe.skipIf(!dialects.includes('postgres'))('twenty members through two server processes (postgres)', () => {
  const MEMBERS = 20;
  const INVOICES = 4;
  const PAYMENTS_EACH = 12;
  const servers: ServerProcess[] = [];
  let dataDir = '';
  let drop: () => Promise<void> = async () => {};

  afterAll(async () => {
    for (const server of servers) await server.stop();
    await drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers no 5xx, and each invoice has paid exactly the sum of the payments accepted', async () => {
    const database = await createTestDatabase('postgres');
    drop = database.drop;
    if (database.config.dialect !== 'postgres') throw new Error('postgres expected');
    dataDir = mkdtempSync(join(tmpdir(), 'billfold-members-'));
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: database.config.url,
      JWT_SECRET: 'members-test-secret-members-test-secret-0123',
    };
    servers.push(await startServer(env));
    servers.push(await startServer(env));
    const [a, b] = servers as [ServerProcess, ServerProcess];

    const users = Array.from({ length: MEMBERS }, (_, i) => ({
      username: `member${i}_${process.pid}`,
      email: `member${i}_${process.pid}@example.com`,
      password: STRONG_PASSWORD,
    }));
    for (const user of users) {
      const res = await fetch(`${a.url}/api/v1/auth/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(user),
      });
      expect(res.status, await res.text()).toBe(201);
    }
    const db = createDatabase(database.config);
    try {
      const ids = [];
      for (const user of users) ids.push(await userIdOf(db, user.username));
      const [ownerId = 0, ...editorIds] = ids;
      const ledger = await sharedLedger(db, 'Shared house', ownerId, editorIds, Date.now());
      const tokens = await Promise.all(users.map((user, i) => login((i % 2 ? b : a).url, user)));

      const call = async (server: ServerProcess, token: string, method: string, path: string, body?: unknown) => {
        const res = await fetch(`${server.url}/api/v1${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            [HEADER]: String(ledger),
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: res.status, body: await res.text() };
      };
      const bill = await call(a, tokens[0] ?? '', 'POST', '/bills', { name: 'Shared rent', status: 1 });
      expect(bill.status, bill.body).toBe(201);
      const billId = (JSON.parse(bill.body) as { id: number }).id;
      const invoices: number[] = [];
      for (let i = 0; i < INVOICES; i++) {
        const made = await call(b, tokens[1] ?? '', 'POST', '/entries/new', {
          billId,
          date: '2026-11-01',
          flow: 'expense',
          amount: 500,
          services: `Month ${i}`,
        });
        expect(made.status, made.body).toBe(201);
        invoices.push((JSON.parse(made.body) as { entryId: number }).entryId);
      }

      // Every member pays every invoice a few times at once, half of them through each process.
      const accepted = new Map<number, number>(invoices.map((id) => [id, 0]));
      const statuses: number[] = [];
      await Promise.all(
        users.map(async (_, m) => {
          const server = m % 2 ? b : a;
          for (let k = 0; k < PAYMENTS_EACH; k++) {
            const entryId = invoices[(m + k) % INVOICES] ?? 0;
            const cents = 1 + ((m * 7 + k * 13) % 97);
            const res = await call(server, tokens[m] ?? '', 'POST', '/payments', {
              entryId,
              date: '2026-11-05',
              amount: cents / 100,
              type: 'cash',
              medium: 'person',
            });
            statuses.push(res.status);
            if (res.status === 201) accepted.set(entryId, (accepted.get(entryId) ?? 0) + cents);
          }
        }),
      );
      expect(statuses.filter((s) => s >= 500)).toEqual([]);
      expect(statuses.filter((s) => s === 201).length).toBeGreaterThan(MEMBERS * PAYMENTS_EACH * 0.9);

      for (const entryId of invoices) {
        for (const [server, token] of [
          [a, tokens[2]],
          [b, tokens[3]],
        ] as const) {
          const read = await call(server, token ?? '', 'GET', `/payments?entryId=${entryId}`);
          expect(read.status).toBe(200);
          const list = (JSON.parse(read.body) as { paymentDTOList: { amount: number }[] }).paymentDTOList;
          expect(list.reduce((sum, p) => sum + Math.round(p.amount * 100), 0)).toBe(accepted.get(entryId));
        }
        const row = await db
          .selectFrom('entries')
          .select(['paid_cents', 'payment_count'])
          .where('id', '=', entryId)
          .executeTakeFirstOrThrow();
        expect(Number(row.paid_cents)).toBe(accepted.get(entryId));
      }
      expect(await totalsMismatches(db)).toEqual([]);
      expect(await rollupDifferences(db)).toEqual([]);
    } finally {
      await db.destroy();
    }
  }, 240_000);
});
