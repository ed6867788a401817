import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import {
  type Api,
  createEntry,
  createPayment,
  editEntry,
  getEntry,
  getPayment,
  listPayments,
  request,
  updatePayment,
} from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';

describe.each(dialects)('payments (/payments) on %s', (dialect) => {
  let t: TestApp;
  let api: Api;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    api = { app: t.app, session: await signUp(t.app) };
  });
  afterAll(() => t.close());

  describe('POST /payments', () => {
    it('adds a payment: 201 with every field, method stored lower-case, the invoice totals updated', async () => {
      const entry = await createEntry(api, { amount: 100 });
      const res = await request(api, 'POST', '/payments', {
        entryId: entry.entryId,
        date: '2026-11-03',
        amount: 30.1,
        type: ' Credit ',
        medium: 'WEB',
        notes: 'First\ninstalment',
        autopay: true,
        recycle: true,
      });
      expect(res.statusCode).toBe(201);
      const payment = res.json();
      expect(payment).toEqual({
        paymentId: expect.any(Number),
        id: payment.paymentId,
        entryId: entry.entryId,
        date: '2026-11-03',
        amount: 30.1,
        type: 'credit',
        medium: 'web',
        notes: 'First\ninstalment',
        autopay: true,
        recycle: false,
      });
      expect(await getEntry(api, entry.entryId)).toMatchObject({
        status: false,
        overpaid: false,
        balance: { totalBalance: 69.9, totalOverpaid: 0 },
      });
    });

    it.each([
      'bank|ach',
      'credit|web',
      'credit|person',
      'cyber|web',
      'debit|web',
      'debit|person',
      'other|ewallet',
      'other|service',
      'cash|person',
      'check|mail',
      'check|person',
      'other|other',
    ])('accepts the method %s', async (code) => {
      const [type, medium] = code.toUpperCase().split('|');
      const payment = await createPayment(api, { type, medium });
      expect(`${payment.type}|${payment.medium}`).toBe(code);
    });

    it.each([
      ['an unknown method pair', { type: 'bank', medium: 'web' }],
      ['an unknown type', { type: 'gold', medium: 'person' }],
      ['a missing medium', { medium: undefined }],
      ['a missing date', { date: undefined }],
      ['a bad date', { date: '2026-04-31' }],
      ['an amount with 3 decimals', { amount: 0.001 }],
      ['a negative amount', { amount: -5 }],
      ['notes over 1000 characters', { notes: 'n'.repeat(1001) }],
      ['control characters in notes', { notes: 'bell\u0007' }],
    ])('rejects %s with 400', async (_label, override) => {
      const entry = await createEntry(api);
      const body = {
        entryId: entry.entryId,
        date: '2026-11-05',
        amount: 5,
        type: 'cash',
        medium: 'person',
        ...override,
      };
      expect((await request(api, 'POST', '/payments', body)).statusCode).toBe(400);
      expect(await listPayments(api, entry.entryId)).toEqual([]);
    });

    it('answers 404 for an unknown invoice and 409 for a recycled one', async () => {
      const body = { date: '2026-11-05', amount: 5, type: 'cash', medium: 'person' };
      expect((await request(api, 'POST', '/payments', { ...body, entryId: 888888 })).statusCode).toBe(404);
      const entry = await createEntry(api);
      await editEntry(api, { entryId: entry.entryId, recycle: true });
      const res = await request(api, 'POST', '/payments', { ...body, entryId: entry.entryId });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toContain('recycle bin');
    });

    it('keeps totals exact under concurrent payments on one invoice', async () => {
      const entry = await createEntry(api, { amount: 100 });
      const amounts = [0.01, 0.1, 0.2, 0.3, 1.11, 2.22, 3.33, 4.44, 5.55, 6.66, 7.77, 8.88];
      await Promise.all(amounts.map((amount) => createPayment(api, { entryId: entry.entryId, amount })));
      // 40.57 paid of 100.00
      expect(await getEntry(api, entry.entryId)).toMatchObject({
        status: false,
        balance: { totalBalance: 59.43, totalOverpaid: 0 },
      });
      expect(await listPayments(api, entry.entryId)).toHaveLength(amounts.length);
    });
  });

  describe('GET /payments', () => {
    it('lists the live payments of an invoice: date desc, then id desc', async () => {
      const entry = await createEntry(api);
      const a = await createPayment(api, { entryId: entry.entryId, date: '2026-11-02' });
      const b = await createPayment(api, { entryId: entry.entryId, date: '2026-11-09' });
      const c = await createPayment(api, { entryId: entry.entryId, date: '2026-11-02' });
      const gone = await createPayment(api, { entryId: entry.entryId, date: '2026-12-01' });
      await updatePayment(api, { paymentId: gone.paymentId, recycle: true });
      const res = await request(api, 'GET', `/payments?entryId=${entry.entryId}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().paymentDTOList.map((p: { paymentId: number }) => p.paymentId)).toEqual([
        b.paymentId,
        c.paymentId,
        a.paymentId,
      ]);
    });

    it('answers 400 without a valid entryId and 404 for an unknown invoice', async () => {
      expect((await request(api, 'GET', '/payments')).statusCode).toBe(400);
      expect((await request(api, 'GET', '/payments?entryId=x')).statusCode).toBe(400);
      expect((await request(api, 'GET', '/payments?entryId=777777')).statusCode).toBe(404);
    });

    it('GET /payments/{id} shows one payment, recycled ones included', async () => {
      const payment = await createPayment(api);
      expect(await getPayment(api, payment.paymentId)).toEqual(payment);
      await updatePayment(api, { paymentId: payment.paymentId, recycle: true });
      expect(await getPayment(api, payment.paymentId)).toEqual({ ...payment, recycle: true });
      expect((await request(api, 'GET', '/payments/666666')).statusCode).toBe(404);
      expect((await request(api, 'GET', '/payments/abc')).statusCode).toBe(400);
    });
  });

  describe('PUT /payments', () => {
    it('edits amount, date, method, notes and autopay; the invoice totals follow', async () => {
      const entry = await createEntry(api, { amount: 100 });
      const payment = await createPayment(api, { entryId: entry.entryId, amount: 40 });
      const edited = await updatePayment(api, {
        ...payment,
        amount: 120.5,
        date: '2026-10-10',
        type: 'CHECK',
        medium: 'mail',
        notes: 'Corrected',
        autopay: true,
      });
      expect(edited).toEqual({
        ...payment,
        amount: 120.5,
        date: '2026-10-10',
        type: 'check',
        medium: 'mail',
        notes: 'Corrected',
        autopay: true,
      });
      expect(await getEntry(api, entry.entryId)).toMatchObject({
        status: true,
        overpaid: true,
        balance: { totalBalance: 0, totalOverpaid: 20.5 },
      });
    });

    it('accepts `id` in place of `paymentId`', async () => {
      const payment = await createPayment(api);
      const edited = await updatePayment(api, { id: payment.paymentId, notes: 'by id' } as never);
      expect(edited.notes).toBe('by id');
    });

    it('deletes with recycle:true and restores with recycle:false; totals follow both', async () => {
      const entry = await createEntry(api, { amount: 50 });
      const payment = await createPayment(api, { entryId: entry.entryId, amount: 50 });
      expect((await getEntry(api, entry.entryId)).status).toBe(true);
      expect((await updatePayment(api, { paymentId: payment.paymentId, recycle: true })).recycle).toBe(true);
      expect(await getEntry(api, entry.entryId)).toMatchObject({ status: false, balance: { totalBalance: 50 } });
      expect(await listPayments(api, entry.entryId)).toEqual([]);
      expect((await updatePayment(api, { ...payment, recycle: false })).recycle).toBe(false);
      expect(await getEntry(api, entry.entryId)).toMatchObject({ status: true, balance: { totalBalance: 0 } });
    });

    it('refuses to edit a recycled payment without restoring it (409)', async () => {
      const payment = await createPayment(api);
      await updatePayment(api, { paymentId: payment.paymentId, recycle: true });
      const res = await request(api, 'PUT', '/payments', { paymentId: payment.paymentId, amount: 1 });
      expect(res.statusCode).toBe(409);
    });

    it('refuses to restore a payment whose invoice is recycled (409: restore the invoice first)', async () => {
      const entry = await createEntry(api);
      const payment = await createPayment(api, { entryId: entry.entryId });
      await updatePayment(api, { paymentId: payment.paymentId, recycle: true });
      await editEntry(api, { entryId: entry.entryId, recycle: true });
      const res = await request(api, 'PUT', '/payments', { paymentId: payment.paymentId, recycle: false });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toContain('invoice');
      expect((await getPayment(api, payment.paymentId)).recycle).toBe(true);
    });

    it('refuses to move a payment to another invoice (400) and answers 404 for an unknown payment', async () => {
      const payment = await createPayment(api);
      const other = await createEntry(api);
      const res = await request(api, 'PUT', '/payments', { paymentId: payment.paymentId, entryId: other.entryId });
      expect(res.statusCode).toBe(400);
      expect((await request(api, 'PUT', '/payments', { paymentId: 555555, amount: 1 })).statusCode).toBe(404);
      expect((await request(api, 'PUT', '/payments', { amount: 1 })).statusCode).toBe(400);
      expect((await request(api, 'PUT', '/payments', { paymentId: payment.paymentId, type: 'cash' })).statusCode).toBe(
        400,
      );
    });
  });
});
