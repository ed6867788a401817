import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../src/db/database.ts';
import { purgeAccounts } from '../src/jobs/purge.ts';
import { DEACTIVATED_ACCOUNT_RETENTION } from '../src/lib/retention.ts';
import { DAY } from '../src/lib/time.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { type Session, signUp } from './helpers/factories.ts';
import { ledgerOf } from './helpers/seed.ts';

describe.each(dialects)('purge of deactivated accounts (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const userId = async (s: Session) =>
    (
      await t.app.db
        .selectFrom('users')
        .select('id')
        .where('username_key', '=', s.username.toLowerCase())
        .executeTakeFirstOrThrow()
    ).id;

  /** Gives the user an entity, an invoice and a payment, written straight to the tables. */
  async function giveData(id: number) {
    const now = t.clock.now();
    const ledgerId = await ledgerOf(t.app.db, id);
    ledgers.set(id, ledgerId);
    const bill = await t.app.db
      .insertInto('bills')
      .values({
        ledger_id: ledgerId,
        name: 'Power Co',
        name_key: 'power co',
        category: 'Utilities',
        internal: 0,
        status: 1,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const entry = await t.app.db
      .insertInto('entries')
      .values({
        ledger_id: ledgerId,
        bill_id: bill.id,
        invoice_number: 1,
        date: '2026-01-01',
        flow: 'OUTGOING',
        amount_cents: 1000,
        services: '',
        paid_cents: 1000,
        balance_cents: 0,
        pay_state: 2,
        payment_count: 1,
        bill_name: 'Power Co',
        bill_name_key: 'power co',
        category: 'Utilities',
        internal: 0,
        archived: 0,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.app.db
      .insertInto('payments')
      .values({
        ledger_id: ledgerId,
        entry_id: entry.id,
        date: '2026-01-02',
        amount_cents: 1000,
        type: 'cash',
        medium: 'person',
        notes: '',
        autopay: 0,
        created_at: now,
      })
      .execute();
  }

  /** Each user's personal ledger, read before the purge deletes it. */
  const ledgers = new Map<number, number>();
  const countFor = async (table: 'bills' | 'entries' | 'payments' | 'refresh_tokens', id: number) =>
    table === 'refresh_tokens'
      ? (await t.app.db.selectFrom(table).select('user_id').where('user_id', '=', id).execute()).length
      : (
          await t.app.db
            .selectFrom(table)
            .select('ledger_id')
            .where('ledger_id', '=', ledgers.get(id) ?? 0)
            .execute()
        ).length;

  it('deletes accounts deactivated over 30 days ago with all their data, keeps the rest', async () => {
    const old = await signUp(t.app);
    const recent = await signUp(t.app);
    const active = await signUp(t.app);
    const [oldId, recentId, activeId] = [await userId(old), await userId(recent), await userId(active)];
    for (const id of [oldId, recentId, activeId]) await giveData(id);
    const now = t.clock.now();
    await t.app.db
      .updateTable('users')
      .set({ deactivated_at: now - DEACTIVATED_ACCOUNT_RETENTION - 1000 })
      .where('id', '=', oldId)
      .execute();
    await t.app.db
      .updateTable('users')
      .set({ deactivated_at: now - 29 * DAY })
      .where('id', '=', recentId)
      .execute();

    const result = await purgeAccounts(t.app.db, now);
    expect(result.users).toBe(1);
    expect(await t.app.db.selectFrom('users').select('id').where('id', '=', oldId).executeTakeFirst()).toBeUndefined();
    for (const table of ['bills', 'entries', 'payments', 'refresh_tokens'] as const) {
      expect(await countFor(table, oldId)).toBe(0);
      expect(await countFor(table, recentId)).toBeGreaterThan(0);
      expect(await countFor(table, activeId)).toBeGreaterThan(0);
    }
  });

  it('is safe when two processes run it at the same moment', async () => {
    const victims = await Promise.all([signUp(t.app), signUp(t.app), signUp(t.app)]);
    const ids = await Promise.all(victims.map(userId));
    for (const id of ids) await giveData(id);
    const now = t.clock.now();
    await t.app.db
      .updateTable('users')
      .set({ deactivated_at: now - 31 * DAY })
      .where('id', 'in', ids)
      .execute();
    // A second, independent connection plays the other process.
    const other = createDatabase(t.database.config);
    try {
      const results = await Promise.all([purgeAccounts(t.app.db, now), purgeAccounts(other, now)]);
      expect(results[0].users + results[1].users).toBe(3);
    } finally {
      await other.destroy();
    }
    const left = await t.app.db.selectFrom('users').select('id').where('id', 'in', ids).execute();
    expect(left).toEqual([]);
  });

  it('passes a shared ledger its deactivated account owned alone to the longest-standing member, and deletes one nobody is left in', async () => {
    const leaving = await signUp(t.app);
    const [elder, younger, alone] = [await signUp(t.app), await signUp(t.app), await signUp(t.app)];
    const leavingId = await userId(leaving);
    const elderId = await userId(elder);
    const youngerId = await userId(younger);
    const aloneId = await userId(alone);
    const db = t.app.db;
    const ledger = async (name: string) =>
      Number(
        (
          await db
            .insertInto('ledgers')
            .values({ name, personal_user_id: null, created_at: 1 })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    const [house, solo, coOwned] = [await ledger('House'), await ledger('Solo'), await ledger('Co-owned')];
    const members: [number, number, string, number][] = [
      [house, leavingId, 'owner', 1],
      [house, youngerId, 'viewer', 30],
      [house, elderId, 'editor', 20],
      [solo, leavingId, 'owner', 1],
      [coOwned, leavingId, 'owner', 1],
      [coOwned, aloneId, 'owner', 5],
      [coOwned, youngerId, 'editor', 2],
    ];
    for (const [ledger_id, user_id, role, joined_at] of members)
      await db.insertInto('ledger_members').values({ ledger_id, user_id, role, joined_at }).execute();
    await giveData(leavingId);
    // Deactivation (the account's own PUT) hands House over at once; Solo has nobody to take it yet.
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/user',
      headers: leaving.headers,
      payload: { password: leaving.password, recycle: true },
    });
    expect(res.statusCode).toBe(200);
    const roles = async () =>
      (
        await db
          .selectFrom('ledger_members')
          .select(['ledger_id', 'user_id', 'role'])
          .where('ledger_id', 'in', [house, solo, coOwned])
          .orderBy('ledger_id')
          .orderBy('user_id')
          .execute()
      ).map((m) => `${Number(m.ledger_id)}:${Number(m.user_id)}:${m.role}`);
    expect(await roles()).toEqual(
      [
        `${house}:${leavingId}:owner`,
        `${house}:${elderId}:owner`,
        `${house}:${youngerId}:viewer`,
        `${solo}:${leavingId}:owner`,
        `${coOwned}:${leavingId}:owner`,
        `${coOwned}:${youngerId}:editor`,
        `${coOwned}:${aloneId}:owner`,
      ].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })),
    );
    // The purge: the account, its personal ledger and Solo go; House and Co-owned stay with their other owners.
    const personal = ledgers.get(leavingId) as number;
    const now = t.clock.now() + DEACTIVATED_ACCOUNT_RETENTION + DAY;
    expect((await purgeAccounts(db, now)).users).toBeGreaterThanOrEqual(1);
    const left = (
      await db
        .selectFrom('ledgers')
        .select('id')
        .where('id', 'in', [house, solo, coOwned, personal])
        .orderBy('id')
        .execute()
    ).map((l) => Number(l.id));
    expect(left).toEqual([house, coOwned]);
    expect(await countFor('entries', leavingId)).toBe(0);
    expect(await roles()).toEqual(
      [
        `${house}:${elderId}:owner`,
        `${house}:${youngerId}:viewer`,
        `${coOwned}:${youngerId}:editor`,
        `${coOwned}:${aloneId}:owner`,
      ].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })),
    );
  });
});
