import type { Entry, EntryList } from '@billfold/contract/entries';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAY_STATE } from '../src/modules/payment-totals/payment-totals.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import {
  type Api,
  createBill,
  createEntry,
  createPayment,
  editEntry,
  getEntry,
  request,
  updateBill,
  updatePayment,
} from './helpers/domain.ts';
import { SORT_KEY, sortedNumbers } from './helpers/entry-order.ts';
import { type Session, signUp } from './helpers/factories.ts';
import { type SeededBill, type SeededEntry, seedBills, seedEntries, userIdOf } from './helpers/seed.ts';

const DATES = ['2026-01-05', '2026-02-10', '2026-01-05', '2025-12-31', '2026-03-15', '2026-02-10'];
const AMOUNTS = [1000, 2500, 2500, 99_999, 0, 2500, 1000];
const SERVICES = ['rent', 'alpha', 'zeta fee', '', 'rent', 'mid 2'];
const LIVE_COUNT = 120;

const ALIASES: Record<string, string> = { paid: 'status', entryId: 'invoiceId', description: 'services' };

describe.each(dialects)('GET /api/v1/entries on %s', (dialect) => {
  let t: TestApp;
  let alice: Session;
  let bills: Record<'acme' | 'bistro' | 'savings' | 'gone' | 'zed' | 'client', SeededBill>;
  let live: SeededEntry[];
  let recycledEntry: SeededEntry;
  let goneEntries: SeededEntry[];
  let otherUsers: SeededEntry[];

  const get = (url: string, session: Session | null = alice) =>
    t.app.inject({ method: 'GET', url, headers: session ? session.headers : {} });
  const list = async (query: string, session: Session = alice): Promise<EntryList> => {
    const res = await get(`/api/v1/entries${query ? `?${query}` : ''}`, session);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<EntryList>();
  };
  const numbers = (body: EntryList) => body.entries.map((e) => e.invoiceId);
  /** Every page of a query, walked with a small page size. */
  const walk = async (query: string, pageSize = 13) => {
    const all: Entry[] = [];
    for (let page = 0; page < 100; page += 1) {
      const body = await list(`${query}&pageSize=${pageSize}&pageNum=${page}`);
      if (body.entries.length === 0) return all;
      expect(body.entries.length).toBeLessThanOrEqual(pageSize);
      all.push(...body.entries);
    }
    throw new Error('too many pages');
  };
  const expectMatch = async (query: string, predicate: (e: SeededEntry) => boolean) => {
    const expected = sortedNumbers(live.filter(predicate), 'date', 'desc');
    const body = await list(query);
    expect(body.total).toBe(expected.length);
    expect(numbers(body)).toEqual(expected.slice(0, 100));
    return expected;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const aliceId = await userIdOf(t.app.db, alice.username);
    const bobId = await userIdOf(t.app.db, bob.username);
    const [acme, bistro, savings, gone, zed, client] = await seedBills(t.app.db, aliceId, [
      { name: 'Acme Power', category: 'Utilities' },
      { name: 'bistro Nine', category: 'Dining', archived: true },
      { name: 'Savings Transfer', category: 'Financial', internal: true },
      { name: 'Gone Corp', category: 'Utilities', recycledAt: Date.UTC(2026, 10, 20) },
      { name: 'Zed Loans', category: 'Auto Loan' },
      { name: 'Client Co', category: 'Uncategorized' },
    ]);
    if (!acme || !bistro || !savings || !gone || !zed || !client) throw new Error('bills not seeded');
    bills = { acme, bistro, savings, gone, zed, client };
    const rotation = [acme, bistro, savings, zed, client, acme, zed];
    const specs = Array.from({ length: LIVE_COUNT }, (_, i) => {
      const amountCents = AMOUNTS[i % AMOUNTS.length] ?? 0;
      const payments = [
        [],
        [{ amountCents: Math.floor(amountCents / 2) }],
        [{ amountCents }],
        [{ amountCents }, { amountCents: 500 }],
        [{ amountCents: 0 }],
        [{ amountCents, recycledAt: Date.UTC(2026, 10, 1) }, { amountCents: 1 }],
      ][i % 6];
      return {
        bill: rotation[i % rotation.length] ?? acme,
        date: DATES[i % DATES.length],
        flow: i % 3 === 0 ? ('INCOMING' as const) : ('OUTGOING' as const),
        amountCents,
        services: SERVICES[i % SERVICES.length],
        payments,
      };
    });
    live = await seedEntries(t.app.db, aliceId, specs);
    [recycledEntry] = (await seedEntries(t.app.db, aliceId, [
      { bill: acme, date: '2026-01-05', amountCents: 2500, recycledAt: Date.UTC(2026, 10, 21) },
    ])) as [SeededEntry];
    goneEntries = await seedEntries(t.app.db, aliceId, [
      { bill: gone, date: '2026-01-05', amountCents: 2500 },
      { bill: gone, date: '2026-02-10', amountCents: 1000, flow: 'INCOMING' },
    ]);
    const [bobAcme] = await seedBills(t.app.db, bobId, [{ name: 'Acme Power', category: 'Utilities' }]);
    if (!bobAcme) throw new Error('bill not seeded');
    otherUsers = await seedEntries(t.app.db, bobId, [
      { bill: bobAcme, date: '2026-01-05', amountCents: 2500 },
      { bill: bobAcme, date: '2026-02-10', amountCents: 2500, flow: 'INCOMING' },
    ]);
  });
  afterAll(() => t.close());

  describe('response and scope', () => {
    it('returns {entries, total}: the first 100 in the default order (date desc, then invoiceId desc)', async () => {
      const body = await list('');
      expect(body.total).toBe(LIVE_COUNT);
      expect(body.entries).toHaveLength(100);
      expect(numbers(body)).toEqual(sortedNumbers(live, 'date', 'desc').slice(0, 100));
    });

    it('maps each row to the Entry JSON of docs/api/README.md, Invoices (/entries)', async () => {
      const overpaid = live.find((e) => e.payState === PAY_STATE.overpaid && e.bill === bills.bistro);
      if (!overpaid) throw new Error('fixture has no overpaid bistro entry');
      const body = await list(`invoiceNum=${overpaid.invoiceNumber}`);
      expect(body).toEqual({
        total: 1,
        entries: [
          {
            entryId: overpaid.id,
            invoiceId: overpaid.invoiceNumber,
            billId: bills.bistro.id,
            name: 'bistro Nine',
            category: 'Dining',
            date: overpaid.date,
            flow: overpaid.flow,
            amount: overpaid.amountCents / 100,
            services: overpaid.services,
            dueDate: overpaid.dueDate,
            status: true,
            overpaid: true,
            balance: { totalBalance: 0, totalOverpaid: 5 },
            internal: false,
            archived: true,
            recycle: false,
            estimate: null,
            estimated: false,
            attachmentCount: 0,
          },
        ],
      });
    });

    it('never shows recycled entries, entries of recycled entities, or another user’s entries', async () => {
      const all = await walk('sortField=invoiceId&sortOrder=asc', 50);
      expect(all.map((e) => e.invoiceId)).toEqual(live.map((e) => e.invoiceNumber));
      const hidden = [recycledEntry, ...goneEntries].map((e) => e.id);
      expect(all.some((e) => hidden.includes(e.entryId))).toBe(false);
      expect(all.some((e) => otherUsers.some((o) => o.id === e.entryId))).toBe(false);
      expect((await list(`invoiceNum=${recycledEntry.invoiceNumber}`)).total).toBe(0);
      expect((await list('partyList=Gone%20Corp')).total).toBe(0);
    });

    it('needs a valid access token', async () => {
      const res = await get('/api/v1/entries', null);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    });
  });

  describe('filters', () => {
    it('startDate and endDate are inclusive, alone and together', async () => {
      await expectMatch('startDate=2026-02-10', (e) => e.date >= '2026-02-10');
      await expectMatch('endDate=2026-01-05', (e) => e.date <= '2026-01-05');
      const day = await expectMatch('startDate=2026-01-05&endDate=2026-01-05', (e) => e.date === '2026-01-05');
      expect(day.length).toBeGreaterThan(0);
      await expectMatch('startDate=2026-01-06&endDate=2026-02-09', () => false);
    });

    it('invoiceNum matches exactly one display number', async () => {
      const target = live[41] as SeededEntry;
      const body = await list(`invoiceNum=${target.invoiceNumber}`);
      expect(numbers(body)).toEqual([target.invoiceNumber]);
      expect((await list(`invoiceNum=${otherUsers[0]?.invoiceNumber}`)).entries.map((e) => e.entryId)).not.toContain(
        otherUsers[0]?.id,
      );
      expect((await list('invoiceNum=999999')).total).toBe(0);
    });

    it('partyList matches whole entity names (repeated key = any of them), case-insensitively', async () => {
      await expectMatch('partyList=Acme%20Power', (e) => e.bill === bills.acme);
      await expectMatch('partyList=ACME%20POWER', (e) => e.bill === bills.acme);
      await expectMatch('partyList=Acme', () => false);
      await expectMatch(
        'partyList=Acme%20Power&partyList=Zed%20Loans',
        (e) => e.bill === bills.acme || e.bill === bills.zed,
      );
    });

    it('categoryList matches entity categories; spellings like AUTO_LOAN name the same category', async () => {
      const utilities = await expectMatch('categoryList=Utilities', (e) => e.bill.category === 'Utilities');
      expect(utilities.length).toBeGreaterThan(0);
      await expectMatch('categoryList=Dining&categoryList=Auto%20Loan', (e) =>
        ['Dining', 'Auto Loan'].includes(e.bill.category),
      );
      await expectMatch('categoryList=AUTO_LOAN', (e) => e.bill.category === 'Auto Loan');
      await expectMatch('categoryList=Pets', () => false);
    });

    it('min and max bound the amount inclusively', async () => {
      await expectMatch('min=25', (e) => e.amountCents >= 2500);
      await expectMatch('max=25', (e) => e.amountCents <= 2500);
      await expectMatch('min=25&max=25.00', (e) => e.amountCents === 2500);
      await expectMatch('min=0&max=0', (e) => e.amountCents === 0);
      await expectMatch('min=999.99', (e) => e.amountCents >= 99_999);
    });

    it('flow: income and expense are of non-internal entities; internal is every entry of internal entities', async () => {
      const isInternal = (e: SeededEntry) => e.bill.internal;
      const income = await expectMatch('flow=income', (e) => e.flow === 'INCOMING' && !isInternal(e));
      const expense = await expectMatch('flow=expense', (e) => e.flow === 'OUTGOING' && !isInternal(e));
      const internal = await expectMatch('flow=internal', isInternal);
      expect(income.length + expense.length + internal.length).toBe(LIVE_COUNT);
      expect(internal.length).toBe(live.filter((e) => e.bill === bills.savings).length);
      await expectMatch('flow=INCOMING', (e) => e.flow === 'INCOMING' && !isInternal(e));
      await expectMatch('flow=Outgoing', (e) => e.flow === 'OUTGOING' && !isInternal(e));
    });

    it('paid: true includes overpaid, false includes partial, overpaid, partial = balance strictly between 0 and the amount', async () => {
      const paid = await expectMatch('paid=true', (e) => e.paidCents >= e.amountCents);
      const unpaid = await expectMatch('paid=false', (e) => e.paidCents < e.amountCents);
      expect(paid.length + unpaid.length).toBe(LIVE_COUNT);
      await expectMatch('paid=overpaid', (e) => e.paidCents > e.amountCents);
      const partial = await expectMatch('paid=partial', (e) => e.paidCents > 0 && e.paidCents < e.amountCents);
      // An invoice whose only payment is 0.00 is unpaid (its icon says so), not partial; a recycled payment does not count.
      const zeroPaid = live.find((e) => e.paidCents === 0 && e.paymentCount === 1 && e.amountCents > 0);
      expect(zeroPaid).toBeDefined();
      expect(partial).not.toContain(zeroPaid?.invoiceNumber);
      expect(unpaid).toContain(zeroPaid?.invoiceNumber);
      expect(live.some((e) => e.payments.some((p) => p.recycledAt !== null))).toBe(true);
    });

    it('archives: false = active entities only, true = archived only, absent = both', async () => {
      const active = await expectMatch('archives=false', (e) => !e.bill.archived);
      const archived = await expectMatch('archives=true', (e) => e.bill.archived);
      expect(archived.length).toBeGreaterThan(0);
      expect(active.length + archived.length).toBe(LIVE_COUNT);
    });

    it('combines every filter with AND', async () => {
      await expectMatch(
        'flow=expense&paid=false&categoryList=Utilities&categoryList=Auto%20Loan&startDate=2026-01-01&min=10&archives=false',
        (e) =>
          e.flow === 'OUTGOING' &&
          !e.bill.internal &&
          e.paidCents < e.amountCents &&
          ['Utilities', 'Auto Loan'].includes(e.bill.category) &&
          e.date >= '2026-01-01' &&
          e.amountCents >= 1000 &&
          !e.bill.archived,
      );
      await expectMatch(
        'partyList=Zed%20Loans&paid=true&endDate=2026-02-10&max=25',
        (e) => e.bill === bills.zed && e.paidCents >= e.amountCents && e.date <= '2026-02-10' && e.amountCents <= 2500,
      );
    });

    it('treats empty values as not given', async () => {
      expect((await list('startDate=&min=&flow=&paid=&sortField=')).total).toBe(LIVE_COUNT);
    });
  });

  describe('paging', () => {
    it('is 0-based; the last page is short; a page beyond the last is empty with the right total', async () => {
      const expected = sortedNumbers(live, 'date', 'desc');
      const first = await list('pageSize=50&pageNum=0');
      expect(numbers(first)).toEqual(expected.slice(0, 50));
      const last = await list('pageSize=50&pageNum=2');
      expect(numbers(last)).toEqual(expected.slice(100));
      expect(last.entries).toHaveLength(LIVE_COUNT - 100);
      const beyond = await list('pageSize=50&pageNum=3');
      expect(beyond).toEqual({ entries: [], total: LIVE_COUNT });
      expect(await list('pageSize=50&pageNum=9999')).toEqual({ entries: [], total: LIVE_COUNT });
    });

    it('accepts page sizes 1 to 100, default 100', async () => {
      expect((await list('pageSize=1')).entries).toHaveLength(1);
      expect((await list('pageSize=100')).entries).toHaveLength(100);
      expect((await list('')).entries).toHaveLength(100);
      const second = await list('pageSize=1&pageNum=1');
      expect(numbers(second)).toEqual([sortedNumbers(live, 'date', 'desc')[1]]);
    });
  });

  describe('sorting', () => {
    const fields = Object.keys(SORT_KEY);
    const cases = [...fields, ...Object.keys(ALIASES)].flatMap((field) =>
      (['asc', 'desc'] as const).map((order) => [field, order] as const),
    );

    it.each(cases)(
      'sortField=%s&sortOrder=%s: pages never overlap or skip and follow the order',
      async (field, order) => {
        const all = await walk(`sortField=${field}&sortOrder=${order}`);
        expect(all.map((e) => e.invoiceId)).toEqual(sortedNumbers(live, ALIASES[field] ?? field, order));
      },
    );

    it('every sort field has ties in the fixture, so the tie-breaker is exercised', () => {
      for (const [field, key] of Object.entries(SORT_KEY)) {
        if (field === 'invoiceId') continue;
        expect(new Set(live.map(key)).size, field).toBeLessThan(live.length);
      }
    });

    // Balance sorts state the paid filter on the balance, and on SQLite a wide category range walks the
    // category's sort index (ADR 0402): the plan changes, the rows must not.
    const PAID: Record<string, (e: SeededEntry) => boolean> = {
      true: (e) => e.paidCents >= e.amountCents,
      false: (e) => e.paidCents < e.amountCents,
      overpaid: (e) => e.paidCents > e.amountCents,
      partial: (e) => e.paidCents > 0 && e.paidCents < e.amountCents,
    };
    const planned = [
      ...Object.keys(PAID).flatMap((paid) =>
        (['asc', 'desc'] as const).map((order) => [`paid=${paid}`, 'balance', order, PAID[paid]] as const),
      ),
      ...(['amount', 'balance'] as const).flatMap((field) =>
        (['asc', 'desc'] as const).map(
          (order) =>
            [
              'categoryList=Utilities&categoryList=Auto%20Loan&startDate=2025-01-01',
              field,
              order,
              (e: SeededEntry) => ['Utilities', 'Auto Loan'].includes(e.bill.category),
            ] as const,
        ),
      ),
      [
        'categoryList=Utilities&startDate=2025-06-01&endDate=2026-12-31&paid=false',
        'balance',
        'desc',
        (e: SeededEntry) => e.bill.category === 'Utilities' && e.date >= '2025-06-01' && PAID.false?.(e) === true,
      ] as const,
      [
        'categoryList=Utilities&startDate=2026-02-10&endDate=2026-02-10',
        'amount',
        'asc',
        (e: SeededEntry) => e.bill.category === 'Utilities' && e.date === '2026-02-10',
      ] as const,
    ];
    it.each(planned)('%s sorted by %s %s: every page matches the model', async (filters, field, order, predicate) => {
      const expected = sortedNumbers(
        live.filter((e) => predicate?.(e) === true),
        field,
        order,
      );
      expect(expected.length).toBeGreaterThan(0);
      for (const pageSize of [13, 100]) {
        const all = await walk(`${filters}&sortField=${field}&sortOrder=${order}`, pageSize);
        expect(all.map((e) => e.invoiceId)).toEqual(expected);
      }
    });

    it('a field without an order sorts ascending; an order without a field sorts by date', async () => {
      expect(numbers(await list('sortField=amount'))).toEqual(sortedNumbers(live, 'amount', 'asc').slice(0, 100));
      expect(numbers(await list('sortOrder=asc'))).toEqual(sortedNumbers(live, 'date', 'asc').slice(0, 100));
      expect(numbers(await list('sortField=balance&sortOrder=DESC'))).toEqual(
        sortedNumbers(live, 'balance', 'desc').slice(0, 100),
      );
    });
  });

  describe('invalid values', () => {
    it.each([
      'pageSize=0',
      'pageSize=101',
      'pageSize=ten',
      'pageSize=1.5',
      'pageNum=-1',
      'pageNum=1.5',
      'pageNum=first',
      'sortField=password',
      'sortField=recycled_at',
      'sortOrder=up',
      'paid=maybe',
      'paid=yes',
      'archives=only',
      'archives=maybe',
      'flow=sideways',
      'startDate=2026-13-01',
      'startDate=2026-02-30',
      'startDate=1899-12-31',
      'endDate=2100-01-01',
      'endDate=yesterday',
      'invoiceNum=0',
      'invoiceNum=-3',
      'invoiceNum=abc',
      'invoiceNum=1&invoiceNum=2',
      'min=ten',
      'min=-1',
      'min=1.234',
      'max=1000000000',
      'startDate=2026-02-01&endDate=2026-01-01',
      'min=10&max=5',
    ])('%s → 400 JSON', async (query) => {
      const res = await get(`/api/v1/entries?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const body = res.json<{ statusCode: number; error: string; message: string }>();
      expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(body.message.length).toBeGreaterThan(0);
      expect(body.message).not.toMatch(/select|from "entries"|\/src\//i);
    });
  });
});

/**
 * The read side over rows written by the real write API: the seed factory above must produce the same
 * stored columns, and entity changes must show in the list through the denormalised columns.
 */
describe.each(dialects)('GET /api/v1/entries over the write API on %s', (dialect) => {
  let t: TestApp;
  let api: Api;

  const stored = (id: number) =>
    t.app.db
      .selectFrom('entries')
      .select([
        'flow',
        'amount_cents',
        'paid_cents',
        'balance_cents',
        'pay_state',
        'payment_count',
        'bill_name',
        'bill_name_key',
        'category',
        'internal',
        'archived',
        'recycled_at',
      ])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const list = async (query: string) => {
    const res = await request(api, 'GET', `/entries?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<EntryList>();
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    api = { app: t.app, session: await signUp(t.app) };
  });
  afterAll(() => t.close());

  it('the seed factory stores exactly what the write API stores', async () => {
    const bill = await createBill(api, { name: 'Write Path Co', category: 'home services', internal: false });
    const overpaid = await createEntry(api, { billId: bill.id, flow: 'income', amount: 100 });
    await createPayment(api, { entryId: overpaid.entryId, amount: 30 });
    await createPayment(api, { entryId: overpaid.entryId, amount: 80.5 });
    const partial = await createEntry(api, { billId: bill.id, flow: 'expense', amount: 50 });
    const gone = await createPayment(api, { entryId: partial.entryId, amount: 50 });
    await createPayment(api, { entryId: partial.entryId, amount: 0 });
    await updatePayment(api, { paymentId: gone.paymentId, recycle: true });

    const userId = await userIdOf(t.app.db, api.session.username);
    const [seededBill] = await seedBills(t.app.db, userId, [{ name: 'Seeded Co', category: 'Home Services' }]);
    if (!seededBill) throw new Error('no bill');
    const [seededOverpaid, seededPartial] = await seedEntries(t.app.db, userId, [
      {
        bill: seededBill,
        flow: 'INCOMING',
        amountCents: 10_000,
        payments: [{ amountCents: 3_000 }, { amountCents: 8_050 }],
      },
      {
        bill: seededBill,
        flow: 'OUTGOING',
        amountCents: 5_000,
        payments: [{ amountCents: 5_000, recycledAt: t.clock.now() }, { amountCents: 0 }],
      },
    ]);
    if (!seededOverpaid || !seededPartial) throw new Error('no entries');
    const names = { bill_name: 'Seeded Co', bill_name_key: 'seeded co' };
    expect(await stored(seededOverpaid.id)).toEqual({ ...(await stored(overpaid.entryId)), ...names });
    expect(await stored(seededPartial.id)).toEqual({ ...(await stored(partial.entryId)), ...names });

    // Deleted with its payment: both recycled together, nothing paid while in the bin.
    const deleted = await createEntry(api, { billId: bill.id, flow: 'expense', amount: 40 });
    const deletedPayment = await createPayment(api, { entryId: deleted.entryId, amount: 30 });
    await editEntry(api, { entryId: deleted.entryId, recycle: true });
    const [seededDeleted] = await seedEntries(t.app.db, userId, [
      { bill: seededBill, amountCents: 4_000, recycledAt: t.clock.now(), payments: [{ amountCents: 3_000 }] },
    ]);
    if (!seededDeleted) throw new Error('no entry');
    expect(await stored(seededDeleted.id)).toEqual({ ...(await stored(deleted.entryId)), ...names });
    const paymentRow = (entryId: number) =>
      t.app.db
        .selectFrom('payments')
        .select(['amount_cents', 'recycled_at', 'recycled_cascade'])
        .where('entry_id', '=', entryId)
        .executeTakeFirstOrThrow();
    expect(await paymentRow(seededDeleted.id)).toEqual(await paymentRow(deletedPayment.entryId));

    const body = await list(`partyList=Write%20Path%20Co&sortField=invoiceId&sortOrder=asc`);
    // The list's entries are the invoices' own answers, with the count of their files (docs/api/README.md).
    expect(body.entries).toEqual([
      { ...(await getEntry(api, overpaid.entryId)), attachmentCount: 0 },
      { ...(await getEntry(api, partial.entryId)), attachmentCount: 0 },
    ]);
  });

  it('paid=partial means a paid total above zero: a 0.00 payment leaves an invoice unpaid in the list, the stats and its view', async () => {
    const bill = await createBill(api, { name: 'Zero Paid Co', category: 'Dining' });
    const entry = await createEntry(api, { billId: bill.id, flow: 'expense', amount: 50 });
    await createPayment(api, { entryId: entry.entryId, amount: 0 });
    const party = 'partyList=Zero%20Paid%20Co';
    const stats = async (query: string) => {
      const res = await request(api, 'GET', `/entries/stats?${party}&${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ totalExpenseAmount: number; totalExpenseUnpaid: number }>();
    };
    // The view the web's paid icon reads: not paid, the whole amount still owed (its "Unpaid" icon).
    expect(await getEntry(api, entry.entryId)).toMatchObject({ status: false, balance: { totalBalance: 50 } });
    expect((await list(`${party}&paid=partial`)).total).toBe(0);
    expect((await list(`${party}&paid=partial&sortField=balance`)).entries).toEqual([]);
    expect((await list(`${party}&paid=false`)).total).toBe(1);
    expect((await list(`${party}&sortField=status&sortOrder=asc`)).entries.map((e) => e.entryId)).toEqual([
      entry.entryId,
    ]);
    expect(await stats('paid=partial')).toMatchObject({ totalExpenseAmount: 0, totalExpenseUnpaid: 0 });
    expect(await stats('paid=false')).toMatchObject({ totalExpenseAmount: 50, totalExpenseUnpaid: 50 });
    expect(await stored(entry.entryId)).toMatchObject({ pay_state: PAY_STATE.unpaid, payment_count: 1 });

    // One cent paid makes it partial everywhere.
    await createPayment(api, { entryId: entry.entryId, amount: 0.01 });
    expect((await list(`${party}&paid=partial`)).entries.map((e) => e.entryId)).toEqual([entry.entryId]);
    expect(await stats('paid=partial')).toMatchObject({ totalExpenseAmount: 50, totalExpenseUnpaid: 49.99 });
  });

  it('follows entity renames, archiving, deletion and restore', async () => {
    const bill = await createBill(api, { name: 'Before Rename', category: 'Dining' });
    const entry = await createEntry(api, { billId: bill.id, amount: 12 });
    await updateBill(api, { id: bill.id, name: 'After Rename', category: 'Groceries' });
    expect((await list('partyList=After%20Rename')).entries.map((e) => [e.entryId, e.name, e.category])).toEqual([
      [entry.entryId, 'After Rename', 'Groceries'],
    ]);
    expect((await list('partyList=Before%20Rename')).total).toBe(0);

    await updateBill(api, { id: bill.id, status: 0 });
    expect((await list('archives=true&partyList=After%20Rename')).total).toBe(1);
    expect((await list('archives=false&partyList=After%20Rename')).total).toBe(0);

    await updateBill(api, { id: bill.id, recycle: true });
    expect((await list(`invoiceNum=${entry.invoiceId}`)).total).toBe(0);
    await updateBill(api, { id: bill.id, recycle: false });
    expect((await list(`invoiceNum=${entry.invoiceId}`)).entries.map((e) => e.entryId)).toEqual([entry.entryId]);
  });
});
