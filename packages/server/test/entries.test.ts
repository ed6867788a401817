import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import {
  type Api,
  createBill,
  createEntry,
  createPayment,
  editEntry,
  getEntry,
  listPayments,
  request,
  updateBill,
} from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';

describe.each(dialects)('invoices (/entries) on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  const newUser = async (): Promise<Api> => ({ app: t.app, session: await signUp(t.app) });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    api = await newUser();
  });
  afterAll(() => t.close());

  describe('POST /entries/new', () => {
    it('creates an invoice: 201 with every field, entity columns copied, derived fields for nothing paid', async () => {
      const user = await newUser();
      const bill = await createBill(user, { name: 'Acme', category: 'Dining' });
      const res = await request(user, 'POST', '/entries/new', {
        billId: bill.id,
        date: '2026-10-15',
        flow: 'income',
        amount: 1234.5,
        services: '  Design work  ',
        status: true,
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({
        entryId: expect.any(Number),
        invoiceId: 1,
        billId: bill.id,
        name: 'Acme',
        category: 'Dining',
        date: '2026-10-15',
        flow: 'INCOMING',
        amount: 1234.5,
        services: 'Design work',
        dueDate: null,
        estimate: null,
        estimated: false,
        status: false,
        overpaid: false,
        balance: { totalBalance: 1234.5, totalOverpaid: 0 },
        internal: false,
        archived: false,
        recycle: false,
      });
      expect(await getEntry(user, res.json().entryId)).toEqual(res.json());
    });

    it('ignores server-owned fields (invoiceId, status, balance, name, archived, userId)', async () => {
      const bill = await createBill(api, { name: 'Owned fields' });
      const entry = await createEntry(api, {
        billId: bill.id,
        amount: 50,
        ...({
          invoiceId: 9999,
          status: true,
          overpaid: true,
          balance: { totalBalance: 0, totalOverpaid: 5 },
          name: 'Someone else',
          archived: true,
          userId: 1,
        } as object),
      });
      expect(entry.invoiceId).not.toBe(9999);
      expect(entry).toMatchObject({
        name: 'Owned fields',
        status: false,
        overpaid: false,
        archived: false,
        balance: { totalBalance: 50, totalOverpaid: 0 },
      });
    });

    it('takes a missing or null description as empty', async () => {
      const bill = await createBill(api);
      for (const services of [undefined, null]) {
        const body = { billId: bill.id, date: '2026-11-01', flow: 'expense', amount: 1, services };
        const res = await request(api, 'POST', '/entries/new', body);
        expect(res.statusCode).toBe(201);
        expect(res.json().services).toBe('');
      }
    });

    it.each([
      ['income', 'INCOMING'],
      ['INCOMING', 'INCOMING'],
      ['Incoming', 'INCOMING'],
      ['expense', 'OUTGOING'],
      ['OUTGOING', 'OUTGOING'],
      ['internal', 'OUTGOING'],
    ])('reads flow %s as %s', async (flow, expected) => {
      expect((await createEntry(api, { flow })).flow).toBe(expected);
    });

    it('stores every invoice of an internal entity as OUTGOING', async () => {
      const bill = await createBill(api, { internal: true });
      const entry = await createEntry(api, { billId: bill.id, flow: 'income' });
      expect(entry).toMatchObject({ flow: 'OUTGOING', internal: true });
    });

    it.each([
      ['an unknown flow', { flow: 'sideways' }],
      ['an amount with 3 decimals', { amount: 1.005 }],
      ['a negative amount', { amount: -1 }],
      ['an amount above 999999999.99', { amount: 1_000_000_000 }],
      ['an amount as text', { amount: '12.50' }],
      ['an amount in exponent notation as text', { amount: '1e2' }],
      ['an impossible date', { date: '2026-02-30' }],
      ['a date before 1900', { date: '1899-12-31' }],
      ['a date after 2099', { date: '2100-01-01' }],
      ['a date in another format', { date: '11/01/2026' }],
      ['services over 500 characters', { services: 'x'.repeat(501) }],
      ['a non-numeric billId', { billId: 'abc' }],
    ])('rejects %s with 400', async (_label, override) => {
      const bill = await createBill(api);
      const body = { billId: bill.id, date: '2026-11-01', flow: 'income', amount: 10, services: '', ...override };
      const res = await request(api, 'POST', '/entries/new', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    });

    it('accepts the boundaries: 0, 999999999.99, 1900-01-01, 2099-12-31, and money in any JSON number form', async () => {
      expect((await createEntry(api, { amount: 0, date: '1900-01-01' })).amount).toBe(0);
      expect((await createEntry(api, { amount: 999_999_999.99, date: '2099-12-31' })).amount).toBe(999_999_999.99);
      const bill = await createBill(api);
      for (const [token, amount] of [
        ['1e2', 100],
        ['12.50', 12.5],
        ['1.5E1', 15],
      ] as const) {
        const res = await api.app.inject({
          method: 'POST',
          url: '/api/v1/entries/new',
          headers: { ...api.session.headers, 'content-type': 'application/json' },
          payload: `{"billId":${bill.id},"date":"2026-11-01","flow":"income","amount":${token}}`,
        });
        expect({ token, status: res.statusCode, amount: res.json().amount }).toEqual({ token, status: 201, amount });
      }
    });

    it('answers 404 for an unknown entity and 409 for an archived or recycled one', async () => {
      expect((await request(api, 'POST', '/entries/new', entryBody(424242))).statusCode).toBe(404);
      const archived = await createBill(api, { status: 0 });
      const archivedRes = await request(api, 'POST', '/entries/new', entryBody(archived.id));
      expect(archivedRes.statusCode).toBe(409);
      const recycled = await createBill(api);
      await updateBill(api, { id: recycled.id, recycle: true });
      expect((await request(api, 'POST', '/entries/new', entryBody(recycled.id))).statusCode).toBe(409);
    });
  });

  describe('GET /entries/{id}', () => {
    it('shows a recycled invoice only with filter=bypass', async () => {
      const entry = await createEntry(api);
      await editEntry(api, { entryId: entry.entryId, recycle: true });
      const res = await request(api, 'GET', `/entries/${entry.entryId}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Invoice not found.');
      expect((await request(api, 'GET', `/entries/${entry.entryId}?filter=other`)).statusCode).toBe(404);
      expect((await getEntry(api, entry.entryId, '?filter=bypass')).recycle).toBe(true);
    });

    it('answers 400 for a bad id', async () => {
      expect((await request(api, 'GET', '/entries/1.5')).statusCode).toBe(400);
      expect((await request(api, 'GET', '/entries/0')).statusCode).toBe(400);
    });
  });

  describe('PUT /entries/edit', () => {
    it('changes date, flow, services and amount; derived fields follow the amount', async () => {
      const entry = await createEntry(api, { amount: 100 });
      await createPayment(api, { entryId: entry.entryId, amount: 60 });
      const edited = await editEntry(api, {
        entryId: entry.entryId,
        date: '2026-09-09',
        flow: 'expense',
        services: 'Changed',
        amount: 50,
      });
      expect(edited).toMatchObject({
        date: '2026-09-09',
        flow: 'OUTGOING',
        services: 'Changed',
        amount: 50,
        status: true,
        overpaid: true,
        balance: { totalBalance: 0, totalOverpaid: 10 },
      });
      const raised = await editEntry(api, { entryId: entry.entryId, amount: 80.25 });
      expect(raised).toMatchObject({
        status: false,
        overpaid: false,
        balance: { totalBalance: 20.25, totalOverpaid: 0 },
      });
      expect(await getEntry(api, entry.entryId)).toEqual(raised);
    });

    it('takes back the JSON it gave (a client round trip), ignoring server-owned fields', async () => {
      const entry = await createEntry(api, { amount: 10 });
      const edited = await editEntry(api, { ...entry, services: 'Round trip', status: true, invoiceId: 77 });
      expect(edited).toEqual({ ...entry, services: 'Round trip' });
    });

    it('moves an invoice to another entity, copying its name, category, internal and archived columns', async () => {
      const from = await createBill(api, { name: 'From entity', category: 'Dining' });
      const to = await createBill(api, { name: 'To entity', category: 'Fuel', internal: true });
      const entry = await createEntry(api, { billId: from.id, flow: 'income' });
      const moved = await editEntry(api, { entryId: entry.entryId, billId: to.id });
      expect(moved).toMatchObject({
        billId: to.id,
        name: 'To entity',
        category: 'Fuel',
        internal: true,
        flow: 'OUTGOING',
        invoiceId: entry.invoiceId,
      });
      await updateBill(api, { id: to.id, name: 'To entity renamed' });
      expect((await getEntry(api, entry.entryId)).name).toBe('To entity renamed');
    });

    it('refuses to move to an unknown (404), archived (409) or recycled (409) entity', async () => {
      const entry = await createEntry(api);
      const archived = await createBill(api, { status: 0 });
      const recycled = await createBill(api);
      await updateBill(api, { id: recycled.id, recycle: true });
      const move = (billId: number) => request(api, 'PUT', '/entries/edit', { entryId: entry.entryId, billId });
      expect((await move(515151)).statusCode).toBe(404);
      expect((await move(archived.id)).statusCode).toBe(409);
      expect((await move(recycled.id)).statusCode).toBe(409);
      expect(await getEntry(api, entry.entryId)).toEqual(entry);
    });

    it('keeps an internal entity’s invoice OUTGOING whatever flow is sent', async () => {
      const bill = await createBill(api, { internal: true });
      const entry = await createEntry(api, { billId: bill.id });
      expect((await editEntry(api, { entryId: entry.entryId, flow: 'income' })).flow).toBe('OUTGOING');
    });

    it('deletes with recycle:true together with its payments, and restores them with recycle:false', async () => {
      const entry = await createEntry(api, { amount: 100 });
      await createPayment(api, { entryId: entry.entryId, amount: 40 });
      await createPayment(api, { entryId: entry.entryId, amount: 10 });
      const deleted = await editEntry(api, { entryId: entry.entryId, recycle: true });
      expect(deleted.recycle).toBe(true);
      expect(await listPayments(api, entry.entryId)).toEqual([]);
      const restored = await editEntry(api, { entryId: entry.entryId, recycle: false });
      expect(restored).toMatchObject({ recycle: false, balance: { totalBalance: 50, totalOverpaid: 0 } });
      expect((await listPayments(api, entry.entryId)).map((p) => p.amount)).toEqual([10, 40]);
    });

    it('refuses changes to a recycled invoice other than restoring it (409)', async () => {
      const entry = await createEntry(api);
      await editEntry(api, { entryId: entry.entryId, recycle: true });
      const res = await request(api, 'PUT', '/entries/edit', { entryId: entry.entryId, amount: 5 });
      expect(res.statusCode).toBe(409);
      expect((await getEntry(api, entry.entryId, '?filter=bypass')).amount).toBe(entry.amount);
    });

    it('answers 404 for an unknown invoice and 400 for invalid values', async () => {
      expect((await request(api, 'PUT', '/entries/edit', { entryId: 979797, amount: 1 })).statusCode).toBe(404);
      const entry = await createEntry(api);
      for (const bad of [{ amount: 'lots' }, { date: '2026-13-01' }, { flow: 'up' }, { entryId: -1 }]) {
        const res = await request(api, 'PUT', '/entries/edit', { entryId: entry.entryId, ...bad });
        expect(res.statusCode).toBe(400);
      }
      expect((await request(api, 'PUT', '/entries/edit', { amount: 1 })).statusCode).toBe(400);
    });
  });
});

function entryBody(billId: number) {
  return { billId, date: '2026-11-01', flow: 'expense', amount: 10, services: '' };
}
