import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CATEGORIES } from '@billfold/contract/categories';
import { PAYMENT_METHOD_CODES } from '@billfold/contract/payment-methods';
import { firstOccurrenceOnOrAfter } from '@billfold/contract/schedule-dates';
import { scheduleBody } from '@billfold/contract/schedules';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../packages/server/src/db/database.ts';
import type { BillRow, EntryRow, PaymentRow, ScheduleRow } from '../../packages/server/src/db/schema.ts';
import { verifyPassword } from '../../packages/server/src/lib/passwords.ts';
import { derivePayment } from '../../packages/server/src/modules/payment-totals/payment-totals.ts';
import { rollupDifferences } from '../../packages/server/src/modules/read-model/rollup-tables.ts';
import { ruleOf, toSchedule } from '../../packages/server/src/modules/schedules/schedule.mapper.ts';
import { ScheduleRunner } from '../../packages/server/src/modules/schedules/schedule-runner.ts';
import { SchedulesRepository } from '../../packages/server/src/modules/schedules/schedules.repository.ts';
import type { GenBill } from '../seed/generate.ts';
import { generateSchedules, RECURRING } from '../seed/schedules.ts';
import { DatabaseNotEmptyError, DEFAULT_PASSWORD, type SeedOptions, seedDatabase } from '../seed/seed.ts';

const NOW = Date.UTC(2026, 10, 22, 12);
const DAY = 86_400_000;
const INVOICES = 2_000;
const ENTITIES = 100;

const options: SeedOptions = {
  invoices: INVOICES,
  entities: ENTITIES,
  users: 1,
  seed: 7,
  username: 'demo',
  password: DEFAULT_PASSWORD,
  mode: 'empty',
  now: NOW,
};

describe('seeder (SQLite, 2,000 invoices)', () => {
  let dir: string;
  let file: string;
  let db: SQLite.Database;
  let entries: EntryRow[];
  let bills: Map<number, BillRow>;
  let payments: PaymentRow[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'billfold-seed-test-'));
    file = join(dir, 'seed.db');
    await seedDatabase({ dialect: 'sqlite', file }, options);
    db = new SQLite(file, { readonly: true });
    entries = db.prepare('SELECT * FROM entries ORDER BY invoice_number').all() as EntryRow[];
    bills = new Map((db.prepare('SELECT * FROM bills').all() as BillRow[]).map((b) => [b.id, b]));
    payments = db.prepare('SELECT * FROM payments').all() as PaymentRow[];
  });

  afterAll(() => {
    db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the requested volume: entities, invoices, about 1.5 payments per invoice', () => {
    expect(bills.size).toBe(ENTITIES);
    expect(entries).toHaveLength(INVOICES);
    expect(payments.length / INVOICES).toBeGreaterThan(1.3);
    expect(payments.length / INVOICES).toBeLessThan(1.7);
  });

  it('keeps every derived column equal to a recomputation from the live payments', () => {
    const live = new Map<number, { sum: number; count: number }>();
    for (const p of payments) {
      if (p.recycled_at !== null) continue;
      const t = live.get(p.entry_id) ?? { sum: 0, count: 0 };
      t.sum += p.amount_cents;
      t.count += 1;
      live.set(p.entry_id, t);
    }
    for (const e of entries) {
      const t = live.get(e.id) ?? { sum: 0, count: 0 };
      const expected = derivePayment(e.amount_cents, t.sum, t.count);
      expect({ id: e.id, ...pick(e, ['paid_cents', 'payment_count', 'balance_cents', 'pay_state']) }).toEqual({
        id: e.id,
        ...expected,
      });
    }
    // Every pay state occurs.
    expect(new Set(entries.map((e) => e.pay_state))).toEqual(new Set([0, 1, 2, 3]));
  });

  it("copies the entity's columns onto its invoices; internal invoices are expenses", () => {
    for (const e of entries) {
      const b = bills.get(e.bill_id);
      expect(b).toBeDefined();
      if (!b) continue;
      expect([e.bill_name, e.bill_name_key, e.category, e.internal, e.archived]).toEqual([
        b.name,
        b.name.toLowerCase(),
        b.category,
        b.internal,
        b.status === 1 ? 0 : 1,
      ]);
      if (e.internal === 1) expect(e.flow).toBe('OUTGOING');
      expect(['INCOMING', 'OUTGOING']).toContain(e.flow);
      expect(e.amount_cents).toBeGreaterThan(0);
    }
    expect(new Set(entries.map((e) => e.flow))).toEqual(new Set(['INCOMING', 'OUTGOING']));
  });

  it('spreads entities over every category, with internal, archived and recycled ones; names unique', () => {
    const all = [...bills.values()];
    expect(new Set(all.map((b) => b.category))).toEqual(new Set(CATEGORIES));
    expect(all.some((b) => b.internal === 1)).toBe(true);
    expect(all.some((b) => b.status === 0)).toBe(true);
    expect(all.some((b) => b.recycled_at !== null)).toBe(true);
    expect(new Set(all.map((b) => b.name_key)).size).toBe(all.length);
    for (const b of all) expect(b.name_key).toBe(b.name.toLowerCase());
  });

  it('gives most expenses a due date 10–30 days after their date, some income one, internal invoices none', () => {
    const days = (e: EntryRow) => (Date.parse(e.due_date as string) - Date.parse(e.date)) / DAY;
    const expenses = entries.filter((e) => e.flow === 'OUTGOING' && e.internal === 0);
    const dueExpenses = expenses.filter((e) => e.due_date !== null);
    expect(dueExpenses.length / expenses.length).toBeGreaterThan(0.75);
    expect(dueExpenses.length / expenses.length).toBeLessThan(0.95);
    for (const e of dueExpenses) expect(days(e)).toBeGreaterThanOrEqual(10);
    for (const e of dueExpenses) expect(days(e)).toBeLessThanOrEqual(30);
    const income = entries.filter((e) => e.flow === 'INCOMING');
    const dueIncome = income.filter((e) => e.due_date !== null);
    expect(dueIncome.length / income.length).toBeGreaterThan(0.3);
    expect(dueIncome.length / income.length).toBeLessThan(0.7);
    for (const e of dueIncome) expect([14, 30]).toContain(days(e));
    expect(entries.filter((e) => e.internal === 1 && e.due_date !== null)).toEqual([]);
    // Recent ones are often still open: some are overdue today, some due in the coming days.
    const today = new Date(NOW).toISOString().slice(0, 10);
    const open = entries.filter((e) => e.recycled_at === null && e.pay_state < 2 && e.due_date !== null);
    expect(open.some((e) => (e.due_date as string) < today)).toBe(true);
    expect(open.some((e) => (e.due_date as string) >= today)).toBe(true);
  });

  it('uses every payment method code, stored lower-case as type and medium', () => {
    const codes = new Set(payments.map((p) => `${p.type}|${p.medium}`));
    expect(codes).toEqual(new Set(PAYMENT_METHOD_CODES));
    for (const p of payments) expect(p.amount_cents).toBeGreaterThan(0);
  });

  it('numbers invoices 1..N in date order and records the last number on the personal ledger', () => {
    expect(entries.map((e) => e.invoice_number)).toEqual(Array.from({ length: INVOICES }, (_, i) => i + 1));
    for (let i = 1; i < entries.length; i++) {
      expect((entries[i] as EntryRow).date >= (entries[i - 1] as EntryRow).date).toBe(true);
    }
    const ledger = db
      .prepare(
        `SELECT l.id, l.last_invoice_number, m.role FROM ledgers l
          JOIN ledger_members m ON m.ledger_id = l.id AND m.user_id = l.personal_user_id`,
      )
      .get() as { id: number; last_invoice_number: number; role: string };
    expect(ledger.last_invoice_number).toBe(INVOICES);
    expect(ledger.role).toBe('owner');
    expect(new Set(entries.map((e) => e.ledger_id))).toEqual(new Set([ledger.id]));
  });

  it('dates span ten years up to today; payments fall on or after their invoice', () => {
    const today = new Date(NOW).toISOString().slice(0, 10);
    const first = entries[0]?.date ?? '';
    const last = entries[entries.length - 1]?.date ?? '';
    expect(last <= today).toBe(true);
    expect(Date.parse(last) - Date.parse(first)).toBeGreaterThan(9.5 * 365 * DAY);
    const byId = new Map(entries.map((e) => [e.id, e]));
    for (const p of payments) {
      const e = byId.get(p.entry_id);
      expect(e).toBeDefined();
      expect(p.ledger_id).toBe(e?.ledger_id);
      expect(p.date >= (e?.date ?? '') && p.date <= today).toBe(true);
    }
  });

  it('recycles a few rows within the last 14 days, cascades kept consistent', () => {
    const recycledEntries = entries.filter((e) => e.recycled_at !== null);
    const ownPayments = payments.filter((p) => p.recycled_at !== null && p.recycled_cascade === 0);
    expect(recycledEntries.length).toBeGreaterThan(0);
    for (const e of recycledEntries) {
      expect(e.recycled_at).toBeGreaterThan(NOW - 14 * DAY);
      expect(e.recycled_at).toBeLessThanOrEqual(NOW);
      const bill = bills.get(e.bill_id);
      // Deleted with its entity (cascade, same instant) or on its own.
      if (bill?.recycled_at != null) expect([e.recycled_at, e.recycled_cascade]).toEqual([bill.recycled_at, 1]);
      else expect(e.recycled_cascade).toBe(0);
    }
    // Every entry of a recycled entity is recycled.
    for (const e of entries) if (bills.get(e.bill_id)?.recycled_at != null) expect(e.recycled_at).not.toBeNull();
    // Payments of a recycled entry left with it, unless deleted on their own before.
    const byId = new Map(entries.map((e) => [e.id, e]));
    for (const p of payments) {
      const e = byId.get(p.entry_id);
      if (e?.recycled_at != null && p.recycled_cascade === 1) expect(p.recycled_at).toBe(e.recycled_at);
      if (e?.recycled_at != null) expect(p.recycled_at).not.toBeNull();
    }
    for (const p of ownPayments) expect(p.recycled_at).toBeGreaterThan(NOW - 14 * DAY);
  });

  it('leaves the rollup tables equal to a recomputation, with the triggers back in place', async () => {
    const kysely = createDatabase({ dialect: 'sqlite', file });
    try {
      expect(await rollupDifferences(kysely)).toEqual([]);
    } finally {
      await kysely.destroy();
    }
    const triggers = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'trigger'").get() as {
      n: number;
    };
    expect(triggers.n).toBeGreaterThan(0);
  });

  it('tops the schedules up to at least the number asked, on entities of recurring categories only', () => {
    const entities = [...bills.values()].map((b) => ({
      id: b.id,
      name: b.name,
      nameKey: b.name_key,
      category: b.category as GenBill['category'],
      internal: b.internal === 1,
      archived: b.status === 0,
      recycledAt: b.recycled_at,
      createdAt: b.created_at,
    }));
    const share = generateSchedules(1, entities, 7, NOW);
    const many = generateSchedules(1, entities, 7, NOW, share.length + 500);
    expect(many).toHaveLength(share.length + 500);
    // The share comes first, drawn as without a floor; the rest are of recurring, non-internal entities.
    expect(many.slice(0, share.length)).toEqual(share);
    const recurring = new Set(entities.filter((b) => b.category in RECURRING && !b.internal).map((b) => b.id));
    for (const s of many) expect(recurring.has(s.bill_id as number)).toBe(true);
    expect(generateSchedules(1, entities, 7, NOW, 1)).toEqual(share);
  });

  it('gives a share of the recurring entities (rent, utilities, subscriptions…) schedules the server can run', async () => {
    const schedules = db.prepare('SELECT * FROM schedules').all() as ScheduleRow[];
    const recurring = [...bills.values()].filter((b) => b.category in RECURRING && b.internal === 0);
    expect(schedules.length).toBeGreaterThan(recurring.length * 0.3);
    expect(schedules.length).toBeLessThan(recurring.length * 0.9);
    expect(new Set(schedules.map((s) => s.cadence))).toEqual(new Set(['weekly', 'monthly', 'quarterly', 'yearly']));
    const byCategory = new Set(schedules.map((s) => bills.get(s.bill_id)?.category));
    for (const category of ['Mortgage / Rent', 'Utilities', 'Subscriptions']) expect(byCategory).toContain(category);
    expect(schedules.some((s) => s.paused === 1)).toBe(true);
    expect(schedules.some((s) => s.autopay_method !== null)).toBe(true);
    expect(schedules.some((s) => s.max_count !== null)).toBe(true);
    // Utilities and cleaning vary: estimated, half "same as last", half "average of the last 3".
    expect(new Set(schedules.map((s) => `${s.amount_mode} ${s.amount_of}`))).toEqual(
      new Set(['fixed null', 'last null', 'average 3']),
    );
    for (const s of schedules)
      expect(s.amount_mode !== 'fixed').toBe(
        ['Utilities', 'Home Services'].includes(bills.get(s.bill_id)?.category ?? ''),
      );
    const today = new Date(NOW).toISOString().slice(0, 10);
    for (const s of schedules) {
      const bill = bills.get(s.bill_id);
      expect(bill?.ledger_id).toBe(s.ledger_id);
      expect(s.next_date).toBe(s.first_date);
      // Its next date is an occurrence of its own rule, after today: nothing to back-fill at start-up.
      expect(firstOccurrenceOnOrAfter(ruleOf(s), s.first_date)).toBe(s.next_date);
      expect((s.next_date ?? '') > today).toBe(true);
      expect(
        scheduleBody.safeParse({ ...toSchedule(s, s.amount_cents), amount: s.amount_cents / 100, flow: 'expense' })
          .success,
      ).toBe(true);
    }
    // The server's job, run on seeding day, has nothing to do.
    const kysely = createDatabase({ dialect: 'sqlite', file: join(dir, 'seed.db') });
    expect(await new ScheduleRunner(new SchedulesRepository(kysely)).run(NOW)).toEqual({
      created: 0,
      skipped: 0,
      autopaid: 0,
      adopted: 0,
    });
    await kysely.destroy();
  });

  it("stores the user's password with the server's hashing", async () => {
    const user = db.prepare('SELECT username, password_hash FROM users').get() as {
      username: string;
      password_hash: string;
    };
    expect(user.username).toBe('demo');
    expect(await verifyPassword(user.password_hash, DEFAULT_PASSWORD)).toBe(true);
  });

  it('is deterministic: the same seed gives the same data', async () => {
    const other = join(dir, 'again.db');
    await seedDatabase({ dialect: 'sqlite', file: other }, options);
    const again = new SQLite(other, { readonly: true });
    try {
      const digest = (d: SQLite.Database) =>
        d
          .prepare(
            "SELECT count(*) AS n, sum(amount_cents) AS a, sum(paid_cents) AS p, group_concat(bill_name, ',') AS names FROM entries",
          )
          .get();
      expect(digest(again)).toEqual(digest(db));
    } finally {
      again.close();
    }
  });

  it('refuses a database that holds data unless told to append or wipe', async () => {
    const guarded = join(dir, 'guarded.db');
    const small = { ...options, invoices: 50, entities: 25 };
    await seedDatabase({ dialect: 'sqlite', file: guarded }, small);
    await expect(seedDatabase({ dialect: 'sqlite', file: guarded }, small)).rejects.toBeInstanceOf(
      DatabaseNotEmptyError,
    );
    const appended = await seedDatabase({ dialect: 'sqlite', file: guarded }, { ...small, mode: 'append' });
    expect(appended.users.map((u) => u.username)).toEqual(['demo2']);
    expect(appended.counts).toMatchObject({ users: 2, bills: 50, entries: 100 });
    const check = new SQLite(guarded, { readonly: true });
    try {
      const numbers = check
        .prepare(
          `SELECT l.personal_user_id AS user_id, min(e.invoice_number) AS lo, max(e.invoice_number) AS hi
            FROM entries e JOIN ledgers l ON l.id = e.ledger_id GROUP BY l.personal_user_id ORDER BY 1`,
        )
        .all();
      expect(numbers).toEqual([
        { user_id: 1, lo: 1, hi: 50 },
        { user_id: 2, lo: 1, hi: 50 },
      ]);
      const foreign = check
        .prepare(
          'SELECT count(*) AS n FROM payments p JOIN entries e ON e.id = p.entry_id WHERE e.ledger_id <> p.ledger_id',
        )
        .get() as { n: number };
      expect(foreign.n).toBe(0);
    } finally {
      check.close();
    }
    const forced = await seedDatabase({ dialect: 'sqlite', file: guarded }, { ...small, mode: 'force' });
    expect(forced.counts).toMatchObject({ users: 1, bills: 25, entries: 50 });
  });
});

function pick<T extends object, K extends keyof T>(row: T, keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, row[k]])) as Pick<T, K>;
}
