import { utcDate } from '@billfold/contract/dates';
import type { EntryList } from '@billfold/contract/entries';
import type { Stats } from '@billfold/contract/stats';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createDatabase, migrateToLatest } from '../src/db/database.ts';
import { hashPassword } from '../src/lib/passwords.ts';
import { createTestDatabase, dialects, type TestDatabase, testClock, testConfig } from './helpers/app.ts';
import { createEntry } from './helpers/domain.ts';
import { STRONG_PASSWORD, signIn } from './helpers/factories.ts';
import {
  answerDifferences,
  BEFORE_LEDGER_DATA,
  insertOldUser,
  insertRows,
  LEDGER_DATA,
  migrateTo,
  OLD_COLUMNS,
  ownerAnswers,
  syncSequences,
} from './helpers/old-shape.ts';
import { random } from './helpers/random.ts';
import { referenceStats } from './helpers/reference-stats.ts';

/**
 * Migration `2026-12-02T00-00_ledger_data` on a database of the release before it (issue 27, "Migration"): a few
 * thousand invoices of three users written in the old shape (every row owned by `user_id`, the invoice counter on the
 * user), every answer SQL gives per user read before the move and again after it (identical, under each user's
 * personal ledger), and the app's own answers after it — invoice list totals under each filter, the first page in
 * invoice order, the income and expense statistics, the next invoice number — equal to what the old rows say.
 * bench/ledger-migration.ts does the same at 1,000,000 invoices and times it.
 */

const SEED = Number(process.env.LEDGER_MIGRATION_SEED ?? 20261202);
const USERS = 3;
const INVOICES_PER_USER = 1_200;
const clock = testClock();
const TODAY = utcDate(clock.now());
const CATEGORIES = ['Utilities', 'Groceries', 'Mortgage / Rent', 'Uncategorized', 'Insurance'];
const METHODS: [string, string][] = [
  ['cash', 'person'],
  ['bank', 'ach'],
  ['check', 'mail'],
  ['card', 'online'],
];

interface OldEntry {
  invoiceNumber: number;
  flow: string;
  amount: number;
  paid: number;
  balance: number;
  internal: boolean;
  archived: boolean;
  billName: string;
  category: string;
  payments: { amount: number; method: string }[];
}

/** Writes one user's entities, invoices and payments in the old shape; `next` hands out the ids. */
async function writeOldData(
  db: ReturnType<typeof createDatabase>,
  userId: number,
  rnd: ReturnType<typeof random>,
  next: { bill: number; entry: number; payment: number },
): Promise<void> {
  const at = clock.now() - 30 * 86_400_000;
  const bills = Array.from({ length: 12 }, (_, i) => ({
    id: next.bill++,
    name: `Entity ${userId}-${i}`,
    category: rnd.pick(CATEGORIES),
    internal: i === 0,
    archived: i === 1 || i === 2,
    recycled: i === 11,
  }));
  await insertRows(
    db,
    'bills',
    OLD_COLUMNS.bills,
    bills.map((b) => [
      b.id,
      userId,
      b.name,
      b.name.toLowerCase(),
      b.category,
      b.internal ? 1 : 0,
      b.archived ? 0 : 1,
      b.recycled ? at : null,
      at,
    ]),
  );
  const entries: (string | number | null)[][] = [];
  const payments: (string | number | null)[][] = [];
  const live = bills.filter((b) => !b.recycled);
  for (let n = 1; n <= INVOICES_PER_USER; n++) {
    const bill = rnd.pick(live);
    const id = next.entry++;
    const amount = 100 + rnd.int(500_000);
    const recycled = rnd.chance(0.04);
    const flow = bill.internal || rnd.chance(0.6) ? 'OUTGOING' : 'INCOMING';
    const date = `202${3 + rnd.int(4)}-${String(1 + rnd.int(12)).padStart(2, '0')}-${String(1 + rnd.int(28)).padStart(2, '0')}`;
    const due = rnd.chance(0.5) ? `${date.slice(0, 8)}28` : null;
    let paid = 0;
    let count = 0;
    const kinds = rnd.int(4);
    for (let p = 0; p < kinds; p++) {
      const cents = p === 0 && rnd.chance(0.3) ? amount : 1 + rnd.int(amount);
      const gone = rnd.chance(0.1);
      const [type, medium] = rnd.pick(METHODS);
      payments.push([
        next.payment++,
        userId,
        id,
        date,
        cents,
        type,
        medium,
        `note ${p}`,
        p % 2,
        gone || recycled ? at : null,
        recycled && !gone ? 1 : 0,
        at,
      ]);
      if (!gone) {
        paid += cents;
        count += 1;
      }
    }
    const payState = paid > amount ? 3 : paid >= amount ? 2 : paid > 0 ? 1 : 0;
    entries.push([
      id,
      userId,
      bill.id,
      n,
      date,
      flow,
      amount,
      `Services ${n}`,
      due,
      paid,
      Math.max(amount - paid, 0),
      payState,
      count,
      bill.name,
      bill.name.toLowerCase(),
      bill.category,
      bill.internal ? 1 : 0,
      bill.archived ? 1 : 0,
      recycled ? at : null,
      0,
      at,
    ]);
  }
  await insertRows(db, 'entries', OLD_COLUMNS.entries, entries);
  await insertRows(db, 'payments', OLD_COLUMNS.payments, payments);
}

/** One user's live invoices with their live payments, read from the old rows. */
async function oldInvoices(db: ReturnType<typeof createDatabase>, userId: number): Promise<OldEntry[]> {
  const rows = (
    await sql<Record<string, string | number>>`select id, invoice_number, flow, amount_cents, paid_cents,
      balance_cents, internal, archived, bill_name, category from entries
      where user_id = ${userId} and recycled_at is null order by invoice_number`.execute(db)
  ).rows;
  const pays = (
    await sql<Record<string, string | number>>`select entry_id, amount_cents, type, medium from payments
      where user_id = ${userId} and recycled_at is null`.execute(db)
  ).rows;
  const byEntry = new Map<number, OldEntry['payments']>();
  for (const p of pays) {
    const list = byEntry.get(Number(p.entry_id)) ?? [];
    list.push({ amount: Number(p.amount_cents), method: `${p.type}|${p.medium}` });
    byEntry.set(Number(p.entry_id), list);
  }
  return rows.map((r) => ({
    invoiceNumber: Number(r.invoice_number),
    flow: String(r.flow),
    amount: Number(r.amount_cents),
    paid: Number(r.paid_cents),
    balance: Number(r.balance_cents),
    internal: Number(r.internal) === 1,
    archived: Number(r.archived) === 1,
    billName: String(r.bill_name),
    category: String(r.category),
    payments: byEntry.get(Number(r.id)) ?? [],
  }));
}

/** The list filters whose totals are compared, and which old invoices each one keeps. */
const FILTERS: [string, (e: OldEntry) => boolean][] = [
  ['', () => true],
  ['flow=income', (e) => e.flow === 'INCOMING' && !e.internal],
  ['flow=expense', (e) => e.flow === 'OUTGOING' && !e.internal],
  ['flow=internal', (e) => e.internal],
  ['paid=true', (e) => e.paid >= e.amount],
  ['paid=false', (e) => e.paid < e.amount],
  ['paid=overpaid', (e) => e.paid > e.amount],
  ['paid=partial', (e) => e.paid > 0 && e.paid < e.amount],
  ['archives=true', (e) => e.archived],
  ['archives=false', (e) => !e.archived],
];

/** The statistics the old rows give (no filter: internal entities left out; income is money in from others). */
function oldStats(entries: OldEntry[]): Stats {
  return referenceStats(
    entries
      .filter((e) => !e.internal)
      .map((e) => ({
        income: e.flow === 'INCOMING',
        amountCents: e.amount,
        paidCents: e.paid,
        balanceCents: e.balance,
        entity: e.billName,
        category: e.category,
        payments: e.payments.map((p) => ({ amountCents: p.amount, method: p.method })),
      })),
  );
}

describe.each(dialects)(`migration ${LEDGER_DATA} (%s)`, (dialect) => {
  const made: TestDatabase[] = [];
  afterAll(async () => {
    for (const d of made) await d.drop();
  });

  it('moves each user’s data into their personal ledger with every answer unchanged', async () => {
    const database = await createTestDatabase(dialect);
    made.push(database);
    const db = createDatabase(database.config);
    const rnd = random(SEED + (dialect === 'sqlite' ? 0 : 1));
    const users: { id: number; username: string }[] = [];
    const invoices = new Map<number, OldEntry[]>();
    try {
      await migrateTo(db, BEFORE_LEDGER_DATA);
      const passwordHash = await hashPassword(STRONG_PASSWORD);
      const next = { bill: 1, entry: 1, payment: 1 };
      for (let u = 0; u < USERS; u++) {
        const username = `old${u}_${dialect}`;
        const id = await insertOldUser(db, {
          username,
          passwordHash,
          createdAt: clock.now() - 400 * 86_400_000,
          lastInvoiceNumber: INVOICES_PER_USER + u,
        });
        users.push({ id, username });
        await writeOldData(db, id, rnd, next);
      }
      await syncSequences(db);
      const before = await ownerAnswers(db, 'user_id', TODAY);
      for (const user of users) invoices.set(user.id, await oldInvoices(db, user.id));
      expect(before.invoices?.length).toBeGreaterThan(100);

      await migrateTo(db, LEDGER_DATA);
      await migrateToLatest(db);
      const after = await ownerAnswers(db, 'ledger_id', TODAY);
      expect(answerDifferences(before, after)).toEqual([]);
    } finally {
      await db.destroy();
    }

    const app = await buildApp(testConfig(database.config, { now: clock.now }));
    await app.ready();
    try {
      for (const [u, user] of users.entries()) {
        const session = await signIn(app, { ...user, email: '', password: STRONG_PASSWORD });
        const get = async <T>(url: string) => {
          const res = await app.inject({ method: 'GET', url: `/api/v1${url}`, headers: session.headers });
          expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
          return res.json<T>();
        };
        const old = invoices.get(user.id) ?? [];
        for (const [query, keep] of FILTERS) {
          const list = await get<EntryList>(`/entries?pageSize=100&${query}`);
          expect({ query, total: list.total }).toEqual({ query, total: old.filter(keep).length });
        }
        for (const order of ['asc', 'desc'] as const) {
          const page = await get<EntryList>(`/entries?sortField=invoiceId&sortOrder=${order}&pageSize=100`);
          const numbers = old.map((e) => e.invoiceNumber);
          if (order === 'desc') numbers.reverse();
          expect(page.entries.map((e) => e.invoiceId)).toEqual(numbers.slice(0, 100));
        }
        expect(await get<Stats>('/entries/stats')).toEqual(oldStats(old));
        // The invoice counter moved with the data: the next number follows the user's last one.
        const made = await createEntry({ app, session }, { amount: 1 });
        expect(made.invoiceId).toBe(INVOICES_PER_USER + u + 1);
      }
    } finally {
      await app.close();
    }
  }, 120_000);
});
