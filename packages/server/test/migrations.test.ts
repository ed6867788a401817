import { Migrator, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, type Db, migrateToLatest } from '../src/db/database.ts';
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

/** Runs the migrations up or down to the one named (that one included). */
function stepper(db: Db) {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  return async (name: string) => {
    const { error } = await migrator.migrateTo(name);
    if (error) throw error;
  };
}

describe.each(dialects)('migration 2026-12-02T00-00_ledger_data (%s)', (dialect) => {
  it('moves each user’s data into their personal ledger, untouched, and every trigger keeps working', async () => {
    const database = await createTestDatabase(dialect);
    const db = createDatabase(database.config);
    try {
      const step = stepper(db);
      await step('2026-11-30T01-00_bill_next_due');
      // Three accounts, the second deleted: user ids 1 and 3, so the personal ledgers are made as 1 and 2.
      const at = Date.UTC(2026, 0, 1);
      for (const name of ['ann', 'gone', 'bob']) {
        await sql`insert into users (username, username_key, email, email_key, password_hash, created_at, last_invoice_number)
          values (${name}, ${name}, ${`${name}@example.com`}, ${`${name}@example.com`}, 'x', ${at}, 0)`.execute(db);
      }
      await sql`delete from users where username = 'gone'`.execute(db);
      const ids = (await sql<{ id: number }>`select id from users order by id`.execute(db)).rows.map((r) =>
        Number(r.id),
      );
      expect(ids).toEqual([1, 3]);
      for (const [user, count] of [
        [1, 3],
        [3, 2],
      ] as const) {
        await sql`insert into categories (user_id, name, name_key, flow, created_at)
          values (${user}, ${`Own ${user}`}, ${`own ${user}`}, 'expense', ${at})`.execute(db);
        const bill = await sql<{
          id: number;
        }>`insert into bills (user_id, name, name_key, category, internal, status, created_at)
          values (${user}, ${`Power ${user}`}, ${`power ${user}`}, ${`Own ${user}`}, 0, 1, ${at}) returning id`.execute(
          db,
        );
        const billId = Number(bill.rows[0]?.id);
        for (let n = 1; n <= count; n++) {
          const entry = await sql<{ id: number }>`insert into entries (user_id, bill_id, invoice_number, date, flow,
              amount_cents, services, paid_cents, balance_cents, pay_state, payment_count, bill_name, bill_name_key,
              category, internal, archived, created_at, due_date)
            values (${user}, ${billId}, ${n}, ${`2026-0${n}-01`}, 'OUTGOING', ${1000 * n}, '', 500, ${1000 * n - 500}, 1, 1,
              ${`Power ${user}`}, ${`power ${user}`}, ${`Own ${user}`}, 0, 0, ${at}, ${`2026-0${n}-20`}) returning id`.execute(
            db,
          );
          await sql`insert into payments (user_id, entry_id, date, amount_cents, type, medium, notes, autopay, created_at)
            values (${user}, ${Number(entry.rows[0]?.id)}, ${`2026-0${n}-02`}, 500, 'cash', 'person', '', 0, ${at})`.execute(
            db,
          );
        }
        await sql`update users set last_invoice_number = ${count + 10} where id = ${user}`.execute(db);
        await sql`insert into imports (user_id, file_name, created_at, invoice_count, payment_count, entity_count, skipped_count)
          values (${user}, 'a.csv', ${at}, 0, 0, 0, 0)`.execute(db);
        await sql`insert into schedules (user_id, bill_id, cadence, interval, first_date, amount_cents, flow, template,
            due_days, next_date, created_at)
          values (${user}, ${billId}, 'monthly', 1, '2026-12-01', 100, 'OUTGOING', 'Rent', 0, '2026-12-01', ${at})`.execute(
          db,
        );
      }
      await step('2026-12-01T00-00_ledgers');
      // A shared ledger made before the move, with Ann as its owner: it moves above every user id.
      await sql`insert into ledgers (name, personal_user_id, created_at) values ('House', null, ${at})`.execute(db);
      await sql`insert into ledger_members (ledger_id, user_id, role, joined_at) values (3, 1, 'owner', ${at})`.execute(
        db,
      );
      const before = await sql<{ user_id: number; table: string; n: number }>`
        select user_id, 'entries' as "table", count(*) as n from entries group by user_id
        union all select user_id, 'payments', count(*) from payments group by user_id
        union all select user_id, 'bills', count(*) from bills group by user_id
        union all select user_id, 'categories', count(*) from categories group by user_id
        union all select user_id, 'imports', count(*) from imports group by user_id
        union all select user_id, 'schedules', count(*) from schedules group by user_id
        union all select user_id, 'entry_state_counts', sum(entry_count) from entry_state_counts group by user_id
        order by 2, 1`.execute(db);
      const entriesBefore = await sql`select * from entries order by id`.execute(db);

      await migrateToLatest(db);

      const ledgers = await db
        .selectFrom('ledgers')
        .select(['id', 'name', 'personal_user_id', 'last_invoice_number'])
        .orderBy('id')
        .execute();
      expect(
        ledgers.map((l) => ({ ...l, id: Number(l.id), last_invoice_number: Number(l.last_invoice_number) })),
      ).toEqual([
        { id: 1, name: 'Personal', personal_user_id: 1, last_invoice_number: 13 },
        { id: 3, name: 'Personal', personal_user_id: 3, last_invoice_number: 12 },
        { id: 4, name: 'House', personal_user_id: null, last_invoice_number: 0 },
      ]);
      const members = await db
        .selectFrom('ledger_members')
        .select(['ledger_id', 'user_id', 'role'])
        .orderBy('ledger_id')
        .execute();
      expect(members.map((m) => ({ ...m, ledger_id: Number(m.ledger_id), user_id: Number(m.user_id) }))).toEqual([
        { ledger_id: 1, user_id: 1, role: 'owner' },
        { ledger_id: 3, user_id: 3, role: 'owner' },
        { ledger_id: 4, user_id: 1, role: 'owner' },
      ]);
      // Every row is in its user's personal ledger, and otherwise as it was.
      const after = await sql<{ ledger_id: number; table: string; n: number }>`
        select ledger_id, 'entries' as "table", count(*) as n from entries group by ledger_id
        union all select ledger_id, 'payments', count(*) from payments group by ledger_id
        union all select ledger_id, 'bills', count(*) from bills group by ledger_id
        union all select ledger_id, 'categories', count(*) from categories group by ledger_id
        union all select ledger_id, 'imports', count(*) from imports group by ledger_id
        union all select ledger_id, 'schedules', count(*) from schedules group by ledger_id
        union all select ledger_id, 'entry_state_counts', sum(entry_count) from entry_state_counts group by ledger_id
        order by 2, 1`.execute(db);
      const personal = new Map(ledgers.map((l) => [Number(l.personal_user_id), Number(l.id)]));
      expect(after.rows.map((r) => ({ ...r, ledger_id: Number(r.ledger_id), n: Number(r.n) }))).toEqual(
        before.rows.map(({ user_id, ...r }) => ({ ledger_id: personal.get(Number(user_id)), ...r, n: Number(r.n) })),
      );
      // Compared on the columns the invoices had before: later migrations may add columns of their own.
      const columnsBefore = Object.keys(entriesBefore.rows[0] ?? {}).filter((column) => column !== 'user_id');
      const entriesAfter = await sql`select * from entries order by id`.execute(db);
      expect(
        (entriesAfter.rows as Record<string, unknown>[]).map((row) =>
          Object.fromEntries(['ledger_id', ...columnsBefore].map((column) => [column, row[column]])),
        ),
      ).toEqual(
        (entriesBefore.rows as Record<string, unknown>[]).map(({ user_id, ...row }) => ({
          ...row,
          ledger_id: personal.get(Number(user_id)),
        })),
      );
      const userColumns = (await db.introspection.getTables()).find((t) => t.name === 'users')?.columns ?? [];
      expect(userColumns.map((c) => c.name)).not.toContain('last_invoice_number');
      expect(await rollupDifferences(db)).toEqual([]);

      // The triggers now keep each ledger's rollups, data version and change log: a new invoice in Bob's ledger.
      const bobLedger = personal.get(3) as number;
      const billId = Number(
        (await db.selectFrom('bills').select('id').where('ledger_id', '=', bobLedger).executeTakeFirstOrThrow()).id,
      );
      const version = async () =>
        Number(
          (
            await db
              .selectFrom('ledger_data_versions')
              .select('version')
              .where('ledger_id', '=', bobLedger)
              .executeTakeFirst()
          )?.version ?? 0,
        );
      const v = await version();
      const [entry] = await seedEntries(db, 3, [
        {
          bill: { id: billId, name: 'Power 3', category: 'Own 3', internal: false, archived: false, recycledAt: null },
          amountCents: 700,
        },
      ]);
      expect(await version()).toBe(v + 1);
      const logged = await db
        .selectFrom('entry_changes')
        .select(['ledger_id', 'entry_id'])
        .where('entry_id', '=', entry?.id ?? 0)
        .execute();
      expect(logged.map((r) => ({ ledger_id: Number(r.ledger_id), entry_id: Number(r.entry_id) }))).toEqual([
        { ledger_id: bobLedger, entry_id: entry?.id },
      ]);
      expect(await rollupDifferences(db)).toEqual([]);
      // A ledger made now takes an id above every one there is.
      const made = await db
        .insertInto('ledgers')
        .values({ name: 'New', personal_user_id: null, created_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect(Number(made.id)).toBe(5);
      // A deleted ledger takes its data with it (the foreign keys point at ledgers now).
      await db.deleteFrom('ledgers').where('id', '=', bobLedger).execute();
      expect(await db.selectFrom('entries').select('id').where('ledger_id', '=', bobLedger).execute()).toEqual([]);
      expect(await rollupDifferences(db)).toEqual([]);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});

describe.each(dialects)('migration 2026-12-06T03-00_reminder_digest_channel (%s)', (dialect) => {
  it('turns each reminder choice into an email channel hearing the digest, and each day claimed into its message', async () => {
    const database = await createTestDatabase(dialect);
    const db = createDatabase(database.config);
    try {
      const step = stepper(db);
      await step('2026-12-05T02-00_money_over_time');
      const at = Date.UTC(2026, 10, 1);
      for (const name of ['ann', 'bob']) {
        await sql`insert into users (username, username_key, email, email_key, password_hash, created_at)
          values (${name}, ${name}, ${`${name}@example.com`}, ${`${name}@example.com`}, 'x', ${at})`.execute(db);
      }
      const [ann, bob] = (await sql<{ id: number }>`select id from users order by id`.execute(db)).rows.map((r) =>
        Number(r.id),
      );
      await sql`insert into reminder_settings (user_id, days_ahead, updated_at) values (${ann}, 5, ${at})`.execute(db);
      await sql`insert into reminder_sends (user_id, day, claimed_at, sent_at)
        values (${ann}, '2026-11-20', ${at}, ${at + 1}), (${ann}, '2026-11-21', ${at + 2}, null)`.execute(db);
      await step('2026-12-06T03-00_reminder_digest_channel');

      const channels = await sql<
        Record<string, unknown>
      >`select id, user_id, kind, name, url, secret, events, days_ahead,
        paused_at from notification_channels order by id`.execute(db);
      expect(channels.rows.map((c) => ({ ...c, id: Number(c.id), user_id: Number(c.user_id) }))).toEqual([
        {
          id: expect.any(Number),
          user_id: ann,
          kind: 'email',
          name: 'Daily digest',
          url: null,
          secret: null,
          events: ',digest,',
          days_ahead: 5,
          paused_at: null,
        },
      ]);
      const channelId = Number(channels.rows[0]?.id);
      const messages = await sql<Record<string, unknown>>`select channel_id, user_id, event_key, event, status,
        claim_token, next_attempt_at from notification_messages order by event_key`.execute(db);
      expect(
        messages.rows.map((m) => ({ ...m, channel_id: Number(m.channel_id), user_id: Number(m.user_id) })),
      ).toEqual([
        {
          channel_id: channelId,
          user_id: ann,
          event_key: 'digest:2026-11-20',
          event: 'digest',
          status: 'sent',
          claim_token: null,
          next_attempt_at: null,
        },
        {
          channel_id: channelId,
          user_id: ann,
          event_key: 'digest:2026-11-21',
          event: 'digest',
          status: 'gave_up',
          claim_token: null,
          next_attempt_at: null,
        },
      ]);
      expect(bob).toBeGreaterThan(0);
      const tables = (await db.introspection.getTables()).map((t) => t.name);
      expect(tables).not.toContain('reminder_settings');
      expect(tables).not.toContain('reminder_sends');

      // Down: the choice comes back, the channel goes.
      await step('2026-12-05T02-00_money_over_time');
      const back = await sql<{
        user_id: number;
        days_ahead: number;
      }>`select user_id, days_ahead from reminder_settings`.execute(db);
      expect(back.rows.map((r) => ({ user_id: Number(r.user_id), days_ahead: r.days_ahead }))).toEqual([
        { user_id: ann, days_ahead: 5 },
      ]);
      expect((await sql`select id from notification_channels`.execute(db)).rows).toEqual([]);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});
