import {
  BILL_SORT_FIELDS,
  type BillList,
  type BillOverview,
  type BillOverviewList,
  type BillSortField,
} from '@billfold/contract/bills';
import type { Entry, EntryList } from '@billfold/contract/entries';
import { toCents } from '@billfold/contract/money';

/** Cents of an amount the server sent (always a valid one). */
const cents = (amount: number) => toCents(amount) ?? Number.NaN;

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BillsRepository } from '../src/modules/bills/bills.repository.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
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
import { random } from './helpers/random.ts';
import { createSchedule } from './helpers/schedules.ts';

/**
 * `GET /bills/overview`, the Entities page's read (docs/api/README.md, Entities (/bills);
 * docs/decisions/0406-entity-overview.md): every figure is checked against the invoices themselves, read through
 * `GET /entries`, and every order and page against a model sorted here.
 */
/** Seeds the filter combinations drawn over the random ledger; a failure names its seed and draw. */
const SEED = Number(process.env.BILLS_OVERVIEW_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** Combinations drawn over the random ledger. */
const DRAWS = 40;

describe.each(dialects)('the entity overview (/bills/overview) on %s', (dialect) => {
  let t: TestApp;
  const newUser = async (): Promise<Api> => ({ app: t.app, session: await signUp(t.app) });

  const overview = async (api: Api, query = '') => {
    const res = await request(api, 'GET', `/bills/overview${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<BillOverviewList>();
  };

  /** Every live invoice of the user, both active and archived entities, through the list route. */
  const allEntries = async (api: Api): Promise<Entry[]> => {
    const out: Entry[] = [];
    for (let page = 0; ; page++) {
      const res = await request(api, 'GET', `/entries?pageSize=100&pageNum=${page}`);
      const list = res.json<EntryList>();
      out.push(...list.entries);
      if (out.length >= list.total || list.entries.length === 0) return out;
    }
  };

  /** What the overview must say of each entity, computed from its invoices. */
  const expectedFigures = (entries: Entry[], bill: { id: number; status: number }, today: string) => {
    const own = entries.filter((e) => e.billId === bill.id);
    const toPay = own.filter((e) => e.flow === 'OUTGOING').reduce((n, e) => n + cents(e.balance.totalBalance), 0);
    const toCollect = own.filter((e) => e.flow === 'INCOMING').reduce((n, e) => n + cents(e.balance.totalBalance), 0);
    const dues = own.filter((e) => !e.status && e.dueDate).map((e) => e.dueDate as string);
    const nextDueDate = bill.status === 1 && dues.length > 0 ? dues.sort()[0] : null;
    return {
      invoiceCount: own.length,
      balance: { toPay: toPay / 100, toCollect: toCollect / 100 },
      nextDueDate: nextDueDate ?? null,
      overdue: nextDueDate != null && nextDueDate < today,
    };
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  describe('a random ledger', () => {
    let api: Api;
    const today = '2026-11-22';

    beforeAll(async () => {
      api = await newUser();
      const r = random(20261125);
      const categories = ['Utilities', 'Groceries', 'Mortgage / Rent', 'Uncategorized'];
      for (let i = 0; i < 14; i++) {
        const bill = await createBill(api, {
          name: `${r.pick(['Acme', 'Oak', 'Zeta', 'acme'])} ${String.fromCharCode(65 + r.int(26))}${i}`,
          category: r.pick(categories),
          internal: r.chance(0.15),
        });
        for (let k = r.int(5); k > 0; k--) {
          const day = 1 + r.int(28);
          const dueDate = r.chance(0.6) ? `2026-${r.pick(['10', '11', '12'])}-${String(day).padStart(2, '0')}` : null;
          const entry = await createEntry(api, {
            billId: bill.id,
            date: '2026-10-01',
            ...(dueDate ? { dueDate } : {}),
            flow: r.pick(['income', 'expense']),
            amount: (100 + r.int(100_000)) / 100,
          });
          for (let p = r.int(3); p > 0; p--) {
            const payment = await createPayment(api, { entryId: entry.entryId, amount: (1 + r.int(60_000)) / 100 });
            if (r.chance(0.2)) await updatePayment(api, { paymentId: payment.paymentId, recycle: true });
          }
          if (r.chance(0.15)) await editEntry(api, { entryId: entry.entryId, recycle: true });
        }
        if (r.chance(0.2)) await updateBill(api, { id: bill.id, status: 0 });
        if (r.chance(0.1)) await updateBill(api, { id: bill.id, recycle: true });
      }
    });

    it('states each entity’s invoices, open balances and next due date as its invoices sum to', async () => {
      const entries = await allEntries(api);
      const { bills, total } = await overview(api, `?status=all&pageSize=100&today=${today}`);
      const live = (await request(api, 'GET', '/bills?status=all')).json<BillList>().billDTOList;
      expect(total).toBe(live.length);
      expect(bills.map((b) => b.id).sort()).toEqual(live.map((b) => b.id).sort());
      expect(bills.some((b) => b.invoiceCount > 0 && b.balance.toPay + b.balance.toCollect > 0)).toBe(true);
      expect(bills.some((b) => b.nextDueDate !== null)).toBe(true);
      for (const bill of bills) {
        const { schedules: _, ...rest } = bill;
        expect(rest, bill.name).toMatchObject({
          ...live.find((b) => b.id === bill.id),
          ...expectedFigures(entries, bill, today),
        });
      }
    });

    it('tells overdue by each request’s today, with no write between them (one snapshot of the ledger)', async () => {
      const dues = (await overview(api, '?status=all&pageSize=100')).bills
        .map((b) => b.nextDueDate)
        .filter((d): d is string => d !== null)
        .sort();
      expect(dues.length).toBeGreaterThan(1);
      for (const day of ['2020-01-01', dues[0], dues[dues.length - 1], '2030-01-01', dues[0]] as string[]) {
        const { bills } = await overview(api, `?status=all&pageSize=100&today=${day}`);
        for (const b of bills)
          expect(b.overdue, `${b.name} on ${day}`).toBe(b.nextDueDate !== null && b.nextDueDate < day);
        const overdue = bills.filter((b) => b.overdue).length;
        if (day === '2030-01-01') expect(overdue).toBe(dues.length);
        if (day === '2020-01-01' || day === dues[0]) expect(overdue).toBe(0);
      }
    });

    it('pages through every order, both ways, exactly as the model sorts them', async () => {
      const all = (await overview(api, '?status=all&pageSize=100')).bills;
      for (const field of BILL_SORT_FIELDS) {
        for (const order of ['asc', 'desc'] as const) {
          const model = modelOrder(all, field, order);
          const paged: number[] = [];
          for (let page = 0; page * 4 < all.length; page++) {
            const res = await overview(
              api,
              `?status=all&sortField=${field}&sortOrder=${order}&pageSize=4&pageNum=${page}`,
            );
            expect(res.total).toBe(all.length);
            paged.push(...res.bills.map((b) => b.id));
          }
          expect(paged, `${field} ${order}`).toEqual(model.map((b) => b.id));
        }
      }
    });

    it('searches by part of the name in any case, by category and by archived state', async () => {
      const all = (await overview(api, '?status=all&pageSize=100')).bills;
      const ids = (list: BillOverview[]) => list.map((b) => b.id).sort();
      expect(ids((await overview(api, '?status=all&name=ACME&pageSize=100')).bills)).toEqual(
        ids(all.filter((b) => b.name.toLowerCase().includes('acme'))),
      );
      expect(
        ids((await overview(api, '?status=all&category=utilities&category=Groceries&pageSize=100')).bills),
      ).toEqual(ids(all.filter((b) => b.category === 'Utilities' || b.category === 'Groceries')));
      // No status: active entities only, as Home without the Archives filter.
      expect(ids((await overview(api, '?pageSize=100')).bills)).toEqual(ids(all.filter((b) => b.status === 1)));
      expect(ids((await overview(api, '?status=inactive&pageSize=100')).bills)).toEqual(
        ids(all.filter((b) => b.status === 0)),
      );
      expect((await overview(api, '?status=all&name=%25_!')).total).toBe(0);
    });

    it('answers drawn combinations of name, categories, archived state, order and page exactly as the model does', async () => {
      const all = (await overview(api, '?status=all&pageSize=100')).bills;
      const categories = [...new Set(all.map((b) => b.category))];
      const r = random(SEED);
      /** The text in another case, letter by letter. */
      const recase = (text: string) =>
        [...text].map((c) => (r.chance(0.5) ? c.toUpperCase() : c.toLowerCase())).join('');
      for (let draw = 0; draw < DRAWS; draw++) {
        const named = r.pick(all).name;
        const from = r.int(named.length);
        const name = r.chance(0.3) ? null : recase(named.slice(from, from + 1 + r.int(4)));
        const chosen = categories.filter(() => r.chance(0.3)).map((c) => (r.chance(0.5) ? recase(c) : c));
        const status = r.pick([null, 'active', 'inactive', 'all'] as const);
        const field = r.pick(BILL_SORT_FIELDS);
        const order = r.pick(['asc', 'desc'] as const);
        const pageSize = r.pick([1, 3, 10, 25, 100]);
        const matching = all.filter(
          (b) =>
            // The search is trimmed, as every text the API reads.
            (name === null || b.name.toLowerCase().includes(name.trim().toLowerCase())) &&
            (chosen.length === 0 || chosen.some((c) => c.toLowerCase() === b.category.toLowerCase())) &&
            (status === 'all' || b.status === (status === 'inactive' ? 0 : 1)),
        );
        const pageNum = r.int(Math.ceil(matching.length / pageSize) + 1);
        const query = new URLSearchParams([
          ...(name === null ? [] : [['name', name]]),
          ...chosen.map((c) => ['category', c]),
          ...(status === null ? [] : [['status', status]]),
          ['sortField', field],
          ['sortOrder', order],
          ['pageSize', String(pageSize)],
          ['pageNum', String(pageNum)],
        ]);
        const label = `seed ${SEED}, draw ${draw}: ?${query}`;
        const res = await overview(api, `?${query}`);
        expect(res.total, label).toBe(matching.length);
        expect(
          res.bills.map((b) => b.id),
          label,
        ).toEqual(
          modelOrder(matching, field, order)
            .slice(pageNum * pageSize, (pageNum + 1) * pageSize)
            .map((b) => b.id),
        );
      }
    });
  });

  it('follows payments, deletions, restores and archiving; an archived entity has no next due date', async () => {
    const api = await newUser();
    const bill = await createBill(api, { name: 'Oakwood Properties' });
    const a = await createEntry(api, { billId: bill.id, flow: 'expense', amount: 100, dueDate: '2026-11-10' });
    const b = await createEntry(api, { billId: bill.id, flow: 'expense', amount: 40, dueDate: '2026-12-01' });
    await createEntry(api, { billId: bill.id, flow: 'income', amount: 25.5 });
    const one = async () => (await overview(api, '?today=2026-11-22')).bills[0] as BillOverview;

    expect(await one()).toMatchObject({
      invoiceCount: 3,
      balance: { toPay: 140, toCollect: 25.5 },
      nextDueDate: '2026-11-10',
      overdue: true,
    });
    await createPayment(api, { entryId: a.entryId, amount: 100 });
    expect(await one()).toMatchObject({ balance: { toPay: 40, toCollect: 25.5 }, nextDueDate: '2026-12-01' });
    expect((await one()).overdue).toBe(false);
    await editEntry(api, { entryId: b.entryId, recycle: true });
    expect(await one()).toMatchObject({ invoiceCount: 2, balance: { toPay: 0, toCollect: 25.5 }, nextDueDate: null });
    await editEntry(api, { entryId: b.entryId, recycle: false });
    expect(await one()).toMatchObject({ invoiceCount: 3, nextDueDate: '2026-12-01' });

    await updateBill(api, { id: bill.id, status: 0 });
    expect((await overview(api)).total).toBe(0);
    expect((await overview(api, '?status=inactive')).bills[0]).toMatchObject({
      status: 0,
      invoiceCount: 3,
      balance: { toPay: 40, toCollect: 25.5 },
      nextDueDate: null,
      overdue: false,
    });
    await updateBill(api, { id: bill.id, status: 1 });
    await updateBill(api, { id: bill.id, recycle: true });
    expect((await overview(api, '?status=all')).total).toBe(0);
    await updateBill(api, { id: bill.id, recycle: false });
    expect(await one()).toMatchObject({ invoiceCount: 3, balance: { toPay: 40, toCollect: 25.5 } });
  });

  it('lists each entity’s schedules in short, with their next date, paused or ended', async () => {
    const api = await newUser();
    const bill = await createBill(api, { name: 'Landlord' });
    const monthly = await createSchedule(api, bill.id, { firstDate: '2026-12-01', dayOfMonth: 1 });
    const paused = await createSchedule(api, bill.id, { cadence: 'weekly', interval: 2, firstDate: '2026-12-03' });
    await request(api, 'POST', `/schedules/${paused.id}/pause`);
    const ended = await createSchedule(api, bill.id, { firstDate: '2026-11-01', count: 1, flow: 'income' });
    await createBill(api, { name: 'No schedules' });
    const { bills } = await overview(api);
    expect(bills.map((b) => [b.name, b.schedules.length])).toEqual([
      ['Landlord', 3],
      ['No schedules', 0],
    ]);
    expect(bills[0]?.schedules).toEqual([
      {
        id: monthly.id,
        cadence: 'monthly',
        interval: 1,
        dayOfMonth: 1,
        amount: 1250,
        amountMode: 'fixed',
        averageOf: null,
        estimate: 1250,
        flow: 'OUTGOING',
        paused: false,
        nextDate: '2026-12-01',
        ended: false,
      },
      {
        id: paused.id,
        cadence: 'weekly',
        interval: 2,
        dayOfMonth: null,
        amount: 1250,
        amountMode: 'fixed',
        averageOf: null,
        estimate: 1250,
        flow: 'OUTGOING',
        paused: true,
        nextDate: null,
        ended: false,
      },
      {
        id: ended.id,
        cadence: 'monthly',
        interval: 1,
        dayOfMonth: 1,
        amount: 1250,
        amountMode: 'fixed',
        averageOf: null,
        estimate: 1250,
        flow: 'INCOMING',
        paused: false,
        nextDate: null,
        ended: true,
      },
    ]);
  });

  it('shows only the caller’s entities; another user’s cannot be archived, restored or deleted (404)', async () => {
    const owner = await newUser();
    const other = await newUser();
    const bill = await createBill(owner, { name: 'Mine' });
    await createEntry(owner, { billId: bill.id, amount: 10 });
    expect((await overview(other, '?status=all')).total).toBe(0);
    for (const body of [{ status: 0 }, { status: 1 }, { recycle: true }, { recycle: false }]) {
      const res = await request(other, 'PUT', '/bills', { id: bill.id, ...body });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Entity not found.');
    }
    expect((await overview(owner)).bills.map((b) => [b.name, b.status, b.invoiceCount])).toEqual([['Mine', 1, 1]]);
  });

  it('refuses what it cannot read (400), and keeps GET /bills as the original client reads it', async () => {
    const api = await newUser();
    await createBill(api, { name: 'Acme' });
    for (const query of [
      'sortField=amount',
      'sortOrder=up',
      'pageSize=101',
      'pageSize=0',
      'pageNum=-1',
      'status=gone',
      'today=2026-13-01',
      `name=${'x'.repeat(101)}`,
      `category=${'x'.repeat(101)}`,
    ]) {
      const res = await request(api, 'GET', `/bills/overview?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code, query).toBe('VALIDATION_FAILED');
    }
    expect((await request(api, 'GET', '/bills/overview')).statusCode).toBe(200);
    expect(
      (
        await request(
          { app: t.app, session: { ...api.session, headers: { authorization: '' } } },
          'GET',
          '/bills/overview',
        )
      ).statusCode,
    ).toBe(401);
    const res = await request(api, 'GET', '/bills');
    expect(Object.keys(res.json())).toEqual(['billDTOList']);
    expect(Object.keys(res.json<BillList>().billDTOList[0] ?? {}).sort()).toEqual(
      ['category', 'id', 'internal', 'name', 'recycle', 'status'].sort(),
    );
  });
});

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The overview's order as the model has it: by the field (an entity without a next due date last either way), then
 * by name in any case, then by id.
 */
function modelOrder(bills: BillOverview[], field: BillSortField, order: 'asc' | 'desc'): BillOverview[] {
  const open = (b: BillOverview) => cents(b.balance.toPay) + cents(b.balance.toCollect);
  const key: Record<BillSortField, (a: BillOverview, b: BillOverview) => number> = {
    name: (a, b) => cmp(a.name.toLowerCase(), b.name.toLowerCase()),
    category: (a, b) => cmp(a.category, b.category),
    balance: (a, b) => open(a) - open(b),
    nextDue: (a, b) => cmp(a.nextDueDate ?? '', b.nextDueDate ?? ''),
    invoices: (a, b) => a.invoiceCount - b.invoiceCount,
  };
  const sign = order === 'asc' ? 1 : -1;
  return [...bills].sort((a, b) => {
    if (field === 'nextDue' && (a.nextDueDate === null) !== (b.nextDueDate === null))
      return a.nextDueDate === null ? 1 : -1;
    const byKey = sign * key[field](a, b);
    if (byKey !== 0) return byKey;
    if (field !== 'name') {
      const byName = cmp(a.name.toLowerCase(), b.name.toLowerCase());
      if (byName !== 0) return byName;
    }
    return a.id - b.id;
  });
}

/** SQLite's plan: the next due date is a seek per entity in its partial index, never a walk of the invoices. */
describe('SQLite query plan of the entity overview', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('reads the next due date from entries_live_unpaid_bill_due and the balances from entry_bill_totals', async () => {
    const compiled = new BillsRepository(t.app.db).overviewRowsQuery(1).compile(t.app.db);
    const { rows } = await t.app.db.executeQuery<{ detail: string }>({
      ...compiled,
      sql: `EXPLAIN QUERY PLAN ${compiled.sql}`,
    });
    const plan = rows.map((row) => row.detail).join(' | ');
    expect(plan).toMatch(/SEARCH e USING (COVERING )?INDEX entries_live_unpaid_bill_due/);
    expect(plan).toMatch(/entry_bill_totals/);
    expect(plan).not.toMatch(/SCAN e\b/);
  });
});
