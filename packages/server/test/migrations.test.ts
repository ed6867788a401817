import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, migrateToLatest } from '../src/db/database.ts';
import * as partialPayState from '../src/db/migrations/2026-11-27T04-04_partial_pay_state.ts';
import * as verifiedAddresses from '../src/db/migrations/2026-11-30T00-00_verified_addresses.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { PAY_STATE } from '../src/modules/payment-totals/payment-totals.ts';
import { rollupDifferences } from '../src/modules/read-model/rollup-tables.ts';
import { createTestApp, createTestDatabase, dialects, type TestDatabase } from './helpers/app.ts';
import { request } from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';
import { seedBill, seedEntries, userIdOf } from './helpers/seed.ts';

describe.each(dialects)('migrations (%s)', (dialect) => {
  const made: TestDatabase[] = [];
  afterAll(async () => {
    for (const d of made) await d.drop();
  });

  it('create every table, and running them again (a restart, or two processes at once) changes nothing', async () => {
    const database = await createTestDatabase(dialect);
    made.push(database);
    const a = createDatabase(database.config);
    const b = createDatabase(database.config);
    try {
      await Promise.all([migrateToLatest(a), migrateToLatest(b)]);
      await migrateToLatest(a);
      const tables = (await a.introspection.getTables()).map((t) => t.name).sort();
      expect(tables).toEqual(
        expect.arrayContaining(['bills', 'entries', 'login_failures', 'payments', 'refresh_tokens', 'users']),
      );
      const applied = await a
        .selectFrom('kysely_migration' as never)
        .select('name' as never)
        .execute();
      expect(applied).toHaveLength(Object.keys(migrations).length);
    } finally {
      await a.destroy();
      await b.destroy();
    }
  });
});

describe.each(dialects)('migration 2026-11-27T04-04_partial_pay_state (%s)', (dialect) => {
  it('turns invoices stored as partial with nothing paid (a 0.00 payment) into unpaid, rollups kept exact', async () => {
    const t = await createTestApp(dialect);
    try {
      const db = t.app.db;
      const session = await signUp(t.app);
      const userId = await userIdOf(db, session.username);
      const bill = await seedBill(db, userId, { name: 'Zero Co' });
      const [zero, part] = await seedEntries(db, userId, [
        { bill, amountCents: 5_000, payments: [{ amountCents: 0 }] },
        { bill, amountCents: 5_000, payments: [{ amountCents: 1 }] },
      ]);
      if (!zero || !part) throw new Error('no entries');
      // As the earlier rule stored it: any live payment made an unpaid invoice partial.
      await db.updateTable('entries').set({ pay_state: PAY_STATE.partial }).where('id', '=', zero.id).execute();
      await partialPayState.up(db);
      const states = await db
        .selectFrom('entries')
        .select(['id', 'pay_state'])
        .where('id', 'in', [zero.id, part.id])
        .orderBy('id')
        .execute();
      expect(states).toEqual([
        { id: zero.id, pay_state: PAY_STATE.unpaid },
        { id: part.id, pay_state: PAY_STATE.partial },
      ]);
      expect(await rollupDifferences(db)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe.each(dialects)('migration 2026-11-30T00-00_verified_addresses (%s)', (dialect) => {
  it('leaves every existing address unverified and every existing calendar feed working', async () => {
    const t = await createTestApp(dialect);
    try {
      const db = t.app.db;
      const api = { app: t.app, session: await signUp(t.app) };
      const userId = await userIdOf(db, api.session.username);
      const on = await request(api, 'PUT', '/account/calendar-feed', { enabled: true, password: api.session.password });
      const feedPath = new URL(on.json().url).pathname;
      // The database as it was before: no verification columns, and an account whose sessions were ended twice.
      await verifiedAddresses.down(db);
      await db.updateTable('users').set({ token_version: 2 }).where('id', '=', userId).execute();
      await verifiedAddresses.up(db);
      const user = await db.selectFrom('users').select('email_verified_at').where('id', '=', userId).executeTakeFirst();
      expect(user).toEqual({ email_verified_at: null });
      const feed = await db
        .selectFrom('calendar_feeds')
        .select('token_version')
        .where('user_id', '=', userId)
        .execute();
      expect(feed).toEqual([{ token_version: 2 }]);
      expect((await t.app.inject({ method: 'GET', url: feedPath })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
