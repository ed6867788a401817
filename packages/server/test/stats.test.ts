import type { Stats } from '@billfold/contract/stats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { type Session, signUp } from './helpers/factories.ts';
import { seedBills, seedEntries, userIdOf } from './helpers/seed.ts';

const RECYCLED_AT = Date.UTC(2026, 10, 20);

const EMPTY: Stats = {
  totalIncomeAmount: 0,
  totalReceivedPaymentAmount: 0,
  totalIncomeOverpaid: 0,
  totalIncomeOutstanding: 0,
  avgReceivedPaymentAmount: 0,
  maxReceivedPaymentAmount: 0,
  totalExpenseAmount: 0,
  totalSentPaymentAmount: 0,
  totalExpenseOverpaid: 0,
  totalExpenseUnpaid: 0,
  avgSentPaymentAmount: 0,
  maxSentPaymentAmount: 0,
  topIncomeSources: {},
  topIncomeTypes: {},
  top5IncomeCategories: {},
  topExpenseRecipients: {},
  topExpenseTypes: {},
  top5ExpenseCategories: {},
};

/**
 * The ledger below is small enough to compute by hand; every expected figure is worked out in the
 * comments next to the data, in cents where it matters.
 */
describe.each(dialects)('GET /api/v1/entries/stats on %s', (dialect) => {
  let t: TestApp;
  let alice: Session;
  let carol: Session;

  const stats = async (query = '', session: Session = alice): Promise<Stats> => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/entries/stats${query ? `?${query}` : ''}`,
      headers: session.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Stats>();
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    alice = await signUp(t.app);
    carol = await signUp(t.app);
    const bob = await signUp(t.app);
    const db = t.app.db;
    const aliceId = await userIdOf(db, alice.username);

    const [clientA, clientB, landlord, grocer, savings, oldCo, gone] = await seedBills(db, aliceId, [
      { name: 'Client A', category: 'Financial' },
      { name: 'Client B', category: 'Shopping' },
      { name: 'Landlord', category: 'Mortgage / Rent' },
      { name: 'Grocer', category: 'Groceries' },
      { name: 'My Savings', category: 'Financial', internal: true },
      { name: 'Old Co', category: 'Utilities', archived: true },
      { name: 'Gone Inc', category: 'Shopping', recycledAt: RECYCLED_AT },
    ]);
    if (!clientA || !clientB || !landlord || !grocer || !savings || !oldCo || !gone) throw new Error('no bills');
    await seedEntries(db, aliceId, [
      // ---- income ----
      // I1: 100.00, paid 60.00 + 50.00 = 110.00 → received 100.00, overpaid 10.00, outstanding 0
      {
        bill: clientA,
        date: '2026-01-10',
        flow: 'INCOMING',
        amountCents: 10_000,
        payments: [
          { amountCents: 6_000, type: 'bank', medium: 'ach' },
          { amountCents: 5_000, type: 'credit', medium: 'web' },
        ],
      },
      // I2: 200.00, paid 50.01 (a recycled 100.00 does not count) → received 50.01, outstanding 149.99
      {
        bill: clientA,
        date: '2026-02-10',
        flow: 'INCOMING',
        amountCents: 20_000,
        payments: [
          { amountCents: 5_001, type: 'bank', medium: 'ach' },
          { amountCents: 10_000, type: 'cash', medium: 'person', recycledAt: RECYCLED_AT },
        ],
      },
      // I3: 80.00, nothing paid → outstanding 80.00
      { bill: clientB, date: '2026-01-20', flow: 'INCOMING', amountCents: 8_000 },
      // I4: 30.00 paid in three 10.00 payments → received 30.00
      {
        bill: clientB,
        date: '2026-03-01',
        flow: 'INCOMING',
        amountCents: 3_000,
        payments: [
          { amountCents: 1_000, type: 'credit', medium: 'web' },
          { amountCents: 1_000, type: 'credit', medium: 'web' },
          { amountCents: 1_000, type: 'check', medium: 'mail' },
        ],
      },
      // A recycled invoice and its payment count for nothing.
      {
        bill: clientA,
        date: '2026-01-11',
        flow: 'INCOMING',
        amountCents: 100_000,
        recycledAt: RECYCLED_AT,
        payments: [{ amountCents: 100_000, type: 'cash', medium: 'person' }],
      },
      // ---- expense ----
      // E1: 1000.00 paid in full
      {
        bill: landlord,
        date: '2026-01-01',
        amountCents: 100_000,
        payments: [{ amountCents: 100_000, type: 'bank', medium: 'ach' }],
      },
      // E2: 1000.00, paid 500.00 → unpaid 500.00
      {
        bill: landlord,
        date: '2026-02-01',
        amountCents: 100_000,
        payments: [{ amountCents: 50_000, type: 'bank', medium: 'ach' }],
      },
      // E3: 45.50, paid 45.51 → sent 45.50, overpaid 0.01
      {
        bill: grocer,
        date: '2026-01-15',
        amountCents: 4_550,
        payments: [{ amountCents: 4_551, type: 'debit', medium: 'person' }],
      },
      // E4 (archived entity): 20.00, paid 19.95 → unpaid 0.05
      {
        bill: oldCo,
        date: '2026-01-20',
        amountCents: 2_000,
        payments: [{ amountCents: 1_995, type: 'other', medium: 'other' }],
      },
      // ---- internal: left out unless flow=internal ----
      {
        bill: savings,
        date: '2026-01-05',
        amountCents: 30_000,
        payments: [{ amountCents: 30_000, type: 'bank', medium: 'ach' }],
      },
      { bill: savings, date: '2026-02-05', amountCents: 5_000 },
    ]);
    // Entries of a recycled entity are recycled with it.
    await seedEntries(db, aliceId, [
      {
        bill: gone,
        date: '2026-01-10',
        flow: 'INCOMING',
        amountCents: 500_000,
        payments: [{ amountCents: 500_000, type: 'bank', medium: 'ach' }],
      },
    ]);

    // Carol: seven expense entities for the top-5 cut and its tie-break by name.
    const carolId = await userIdOf(db, carol.username);
    const names = ['Fig', 'Cherry', 'Apple', 'Banana', 'Elder', 'Date', 'Grape'];
    const paid = [5_000, 3_000, 3_000, 3_000, 1_000, 1_000, 0];
    const carolBills = await seedBills(
      db,
      carolId,
      names.map((name) => ({ name, category: 'Dining' })),
    );
    await seedEntries(
      db,
      carolId,
      carolBills.map((bill, i) => ({
        bill,
        amountCents: 5_000,
        payments: paid[i] ? [{ amountCents: paid[i] ?? 0 }] : [],
      })),
    );

    // Bob's data must never leak into Alice's figures.
    const bobId = await userIdOf(db, bob.username);
    const [bobBill] = await seedBills(db, bobId, [{ name: 'Client A', category: 'Financial' }]);
    if (!bobBill) throw new Error('no bill');
    await seedEntries(db, bobId, [
      {
        bill: bobBill,
        flow: 'INCOMING',
        amountCents: 777_700,
        payments: [{ amountCents: 777_700, type: 'cash', medium: 'person' }],
      },
    ]);
  });
  afterAll(() => t.close());

  it('computes every figure of docs/api/README.md, Stats over live entries and live payments, internal left out', async () => {
    expect(await stats()).toEqual({
      totalIncomeAmount: 410,
      totalReceivedPaymentAmount: 180.01,
      totalIncomeOverpaid: 10,
      totalIncomeOutstanding: 229.99,
      // payments 60.00, 50.00, 50.01, 10.00, 10.00, 10.00: 190.01 / 6 = 31.668… → 31.67
      avgReceivedPaymentAmount: 31.67,
      maxReceivedPaymentAmount: 60,
      totalExpenseAmount: 2065.5,
      totalSentPaymentAmount: 1565.45,
      totalExpenseOverpaid: 0.01,
      totalExpenseUnpaid: 500.05,
      // payments 1000.00, 500.00, 45.51, 19.95: 156546 cents / 4 = 39136.5 → half-up 391.37 (banker's would give 391.36)
      avgSentPaymentAmount: 391.37,
      maxSentPaymentAmount: 1000,
      topIncomeSources: { 'Client A': 160.01, 'Client B': 30 },
      topIncomeTypes: { 'bank|ach': 110.01, 'credit|web': 70, 'check|mail': 10 },
      top5IncomeCategories: { Financial: 160.01, Shopping: 30 },
      topExpenseRecipients: { Landlord: 1500, Grocer: 45.51, 'Old Co': 19.95 },
      topExpenseTypes: { 'bank|ach': 1500, 'debit|person': 45.51, 'other|other': 19.95 },
      top5ExpenseCategories: { 'Mortgage / Rent': 1500, Groceries: 45.51, Utilities: 19.95 },
    });
  });

  it('orders each top map largest first', async () => {
    const body = await stats();
    expect(Object.keys(body.topExpenseRecipients)).toEqual(['Landlord', 'Grocer', 'Old Co']);
    expect(Object.keys(body.topIncomeTypes)).toEqual(['bank|ach', 'credit|web', 'check|mail']);
  });

  it('flow=internal: only internal entries, counted as expenses', async () => {
    expect(await stats('flow=internal')).toEqual({
      ...EMPTY,
      totalExpenseAmount: 350,
      totalSentPaymentAmount: 300,
      totalExpenseUnpaid: 50,
      avgSentPaymentAmount: 300,
      maxSentPaymentAmount: 300,
      topExpenseRecipients: { 'My Savings': 300 },
      topExpenseTypes: { 'bank|ach': 300 },
      top5ExpenseCategories: { Financial: 300 },
    });
  });

  it('flow=income and flow=expense each fill one side only', async () => {
    const all = await stats();
    const income = await stats('flow=income');
    const expense = await stats('flow=expense');
    expect(income.totalIncomeAmount).toBe(all.totalIncomeAmount);
    expect(income.avgReceivedPaymentAmount).toBe(all.avgReceivedPaymentAmount);
    expect(income.totalExpenseAmount).toBe(0);
    expect(income.topExpenseTypes).toEqual({});
    expect(expense.totalExpenseUnpaid).toBe(all.totalExpenseUnpaid);
    expect(expense.topExpenseRecipients).toEqual(all.topExpenseRecipients);
    expect(expense.totalIncomeAmount).toBe(0);
  });

  it('applies the list filters', async () => {
    // From February: I2, I4 (income) and E2 (expense); the internal 2026-02-05 entry stays out.
    expect(await stats('startDate=2026-02-01')).toEqual({
      ...EMPTY,
      totalIncomeAmount: 230,
      totalReceivedPaymentAmount: 80.01,
      totalIncomeOutstanding: 149.99,
      // 50.01, 10.00, 10.00, 10.00: 8001 / 4 = 2000.25 → 20.00
      avgReceivedPaymentAmount: 20,
      maxReceivedPaymentAmount: 50.01,
      totalExpenseAmount: 1000,
      totalSentPaymentAmount: 500,
      totalExpenseUnpaid: 500,
      avgSentPaymentAmount: 500,
      maxSentPaymentAmount: 500,
      topIncomeSources: { 'Client A': 50.01, 'Client B': 30 },
      topIncomeTypes: { 'bank|ach': 50.01, 'credit|web': 20, 'check|mail': 10 },
      top5IncomeCategories: { Financial: 50.01, Shopping: 30 },
      topExpenseRecipients: { Landlord: 500 },
      topExpenseTypes: { 'bank|ach': 500 },
      top5ExpenseCategories: { 'Mortgage / Rent': 500 },
    });
    const archived = await stats('archives=true');
    expect(archived).toMatchObject({ totalExpenseAmount: 20, totalExpenseUnpaid: 0.05, totalIncomeAmount: 0 });
    const grocer = await stats('partyList=Grocer&paid=overpaid');
    expect(grocer).toMatchObject({ totalExpenseAmount: 45.5, totalExpenseOverpaid: 0.01, maxSentPaymentAmount: 45.51 });
    const partial = await stats('paid=partial');
    expect(partial).toMatchObject({
      totalIncomeAmount: 200,
      totalExpenseAmount: 1020,
      topExpenseRecipients: { Landlord: 500, 'Old Co': 19.95 },
    });
    expect(await stats('min=1000.01')).toEqual(EMPTY);
  });

  it('top maps keep 5 names, largest first, equal sums by name; entities with nothing paid are not listed', async () => {
    const body = await stats('', carol);
    expect(body.topExpenseRecipients).toEqual({ Fig: 50, Apple: 30, Banana: 30, Cherry: 30, Date: 10 });
    expect(Object.keys(body.topExpenseRecipients)).toEqual(['Fig', 'Apple', 'Banana', 'Cherry', 'Date']);
    expect(body.top5ExpenseCategories).toEqual({ Dining: 160 });
    expect(body.topExpenseTypes).toEqual({ 'bank|ach': 160 });
  });

  it('is all zeros and empty maps for a user with no invoices', async () => {
    const dave = await signUp(t.app);
    expect(await stats('', dave)).toEqual(EMPTY);
  });

  it('rejects invalid filters with 400 JSON and needs a token', async () => {
    for (const query of ['flow=sideways', 'paid=maybe', 'min=-1', 'startDate=2026-02-01&endDate=2026-01-01']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/entries/stats?${query}`, headers: alice.headers });
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/entries/stats' });
    expect(res.statusCode).toBe(401);
  });

  it('is served by the stats route, not taken for GET /entries/{id}', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/entries/stats', headers: alice.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveProperty('totalIncomeAmount');
    expect(res.json()).not.toHaveProperty('entryId');
  });
});
