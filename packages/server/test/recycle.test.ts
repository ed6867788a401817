import type { RecycleItem } from '@billfold/contract/recycle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeRecycleBin } from '../src/jobs/recycle-purge.ts';
import { DAY, MINUTE } from '../src/lib/time.ts';
import { rollupDifferences } from '../src/modules/read-model/rollup-tables.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import {
  type Api,
  createBill,
  createEntry,
  createPayment,
  editEntry,
  getBill,
  getEntry,
  getPayment,
  listPayments,
  listRecycle,
  request,
  updateBill,
  updatePayment,
} from './helpers/domain.ts';
import { signIn, signUp } from './helpers/factories.ts';

const ids = (items: RecycleItem[]) => items.map((i) => `${i.entityType}:${i.entityId}`);

describe.each(dialects)('recycle bin on %s', (dialect) => {
  let t: TestApp;
  const newUser = async (): Promise<Api> => ({ app: t.app, session: await signUp(t.app) });
  /** A fresh access token after the test clock moved past the old one's 15 minutes. */
  const again = async (api: Api): Promise<Api> => ({ app: t.app, session: await signIn(t.app, api.session) });

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  /** An entity with two invoices and three payments, one invoice and one payment already deleted on their own. */
  async function entityWithHistory(api: Api) {
    const bill = await createBill(api, { name: `History ${Math.random()}` });
    const e1 = await createEntry(api, { billId: bill.id, amount: 100 });
    const p1 = await createPayment(api, { entryId: e1.entryId, amount: 30 });
    const p2 = await createPayment(api, { entryId: e1.entryId, amount: 20 });
    const e2 = await createEntry(api, { billId: bill.id, amount: 10 });
    const p3 = await createPayment(api, { entryId: e2.entryId, amount: 10 });
    const e3 = await createEntry(api, { billId: bill.id, amount: 70 });
    const p4 = await createPayment(api, { entryId: e3.entryId, amount: 5 });
    await updatePayment(api, { paymentId: p2.paymentId, recycle: true });
    t.clock.advance(1000);
    await editEntry(api, { entryId: e3.entryId, recycle: true });
    t.clock.advance(1000);
    return { bill, e1, e2, e3, p1, p2, p3, p4 };
  }

  describe('cascade and restore', () => {
    it('deleting an entity recycles its live invoices and their payments; only the entity is listed', async () => {
      const api = await newUser();
      const h = await entityWithHistory(api);
      expect(ids(await listRecycle(api))).toEqual([`Invoice:${h.e3.entryId}`, `Payment:${h.p2.paymentId}`]);
      await updateBill(api, { id: h.bill.id, recycle: true });
      expect(ids(await listRecycle(api))).toEqual([`Entity:${h.bill.id}`]);
      for (const entry of [h.e1, h.e2]) {
        expect((await request(api, 'GET', `/entries/${entry.entryId}`)).statusCode).toBe(404);
        expect((await getEntry(api, entry.entryId, '?filter=bypass')).recycle).toBe(true);
      }
      for (const payment of [h.p1, h.p3]) expect((await getPayment(api, payment.paymentId)).recycle).toBe(true);
      const bills = await request(api, 'GET', '/bills?status=all');
      expect(bills.json().billDTOList).toEqual([]);
    });

    it('restoring an entity brings back exactly what was deleted with it; earlier deletions stay in the bin', async () => {
      const api = await newUser();
      const h = await entityWithHistory(api);
      await updateBill(api, { id: h.bill.id, recycle: true });
      const restored = await updateBill(api, { id: h.bill.id, recycle: false });
      expect(restored).toEqual({ ...h.bill, recycle: false });

      expect(await getEntry(api, h.e1.entryId)).toMatchObject({ recycle: false, balance: { totalBalance: 70 } });
      expect(await getEntry(api, h.e2.entryId)).toMatchObject({ recycle: false, status: true });
      expect((await listPayments(api, h.e1.entryId)).map((p) => p.paymentId)).toEqual([h.p1.paymentId]);
      expect((await listPayments(api, h.e2.entryId)).map((p) => p.paymentId)).toEqual([h.p3.paymentId]);
      expect((await getEntry(api, h.e3.entryId, '?filter=bypass')).recycle).toBe(true);
      expect((await getPayment(api, h.p4.paymentId)).recycle).toBe(true);
      expect((await getPayment(api, h.p2.paymentId)).recycle).toBe(true);
      // The children deleted on their own are listed again, newest first.
      expect(ids(await listRecycle(api))).toEqual([`Invoice:${h.e3.entryId}`, `Payment:${h.p2.paymentId}`]);

      // ...and the invoice deleted on its own returns with its own payments.
      await editEntry(api, { entryId: h.e3.entryId, recycle: false });
      expect(await getEntry(api, h.e3.entryId)).toMatchObject({ recycle: false, balance: { totalBalance: 65 } });
      expect(ids(await listRecycle(api))).toEqual([`Payment:${h.p2.paymentId}`]);
    });

    it('deleting an invoice takes its payments; restoring it returns only those, not ones deleted before', async () => {
      const api = await newUser();
      const entry = await createEntry(api, { amount: 100 });
      const early = await createPayment(api, { entryId: entry.entryId, amount: 1 });
      const kept = await createPayment(api, { entryId: entry.entryId, amount: 2 });
      await updatePayment(api, { paymentId: early.paymentId, recycle: true });
      t.clock.advance(1000);
      await editEntry(api, { entryId: entry.entryId, recycle: true });
      expect(ids(await listRecycle(api))).toEqual([`Invoice:${entry.entryId}`]);
      expect(await getEntry(api, entry.entryId, '?filter=bypass')).toMatchObject({ balance: { totalBalance: 100 } });
      await editEntry(api, { entryId: entry.entryId, recycle: false });
      expect((await listPayments(api, entry.entryId)).map((p) => p.paymentId)).toEqual([kept.paymentId]);
      expect(await getEntry(api, entry.entryId)).toMatchObject({ balance: { totalBalance: 98 } });
      expect(ids(await listRecycle(api))).toEqual([`Payment:${early.paymentId}`]);
    });

    it('refuses to restore an invoice whose entity is recycled (409), until the entity is back', async () => {
      const api = await newUser();
      const h = await entityWithHistory(api);
      await updateBill(api, { id: h.bill.id, recycle: true });
      const put = await request(api, 'PUT', '/entries/edit', { entryId: h.e3.entryId, recycle: false });
      const post = await request(api, 'POST', '/recycle/restore', { entityType: 'Invoice', entityId: h.e3.entryId });
      for (const res of [put, post]) {
        expect(res.json()).toEqual({
          statusCode: 409,
          error: 'Conflict',
          code: 'CONFLICT',
          message: 'The entity of this invoice is in the recycle bin. Restore the entity first.',
        });
      }
      await updateBill(api, { id: h.bill.id, recycle: false });
      expect((await editEntry(api, { entryId: h.e3.entryId, recycle: false })).recycle).toBe(false);
    });

    it('refuses to restore a payment whose invoice is recycled (409)', async () => {
      const api = await newUser();
      const entry = await createEntry(api);
      const payment = await createPayment(api, { entryId: entry.entryId });
      await updatePayment(api, { paymentId: payment.paymentId, recycle: true });
      await editEntry(api, { entryId: entry.entryId, recycle: true });
      const post = await request(api, 'POST', '/recycle/restore', {
        entityType: 'Payment',
        entityId: payment.paymentId,
      });
      expect(post.statusCode).toBe(409);
      expect((await getPayment(api, payment.paymentId)).recycle).toBe(true);
    });

    it('refuses to restore an entity whose name a live entity now has (409)', async () => {
      const api = await newUser();
      const bill = await createBill(api, { name: 'Reused' });
      await updateBill(api, { id: bill.id, recycle: true });
      const twin = await createBill(api, { name: 'REUSED' });
      expect((await request(api, 'PUT', '/bills', { id: bill.id, recycle: false })).statusCode).toBe(409);
      const post = await request(api, 'POST', '/recycle/restore', { entityType: 'Entity', entityId: bill.id });
      expect(post.statusCode).toBe(409);
      expect((await getBill(api, bill.id, '?bypass=1')).recycle).toBe(true);
      await updateBill(api, { id: twin.id, name: 'Renamed twin' });
      expect((await updateBill(api, { id: bill.id, recycle: false })).recycle).toBe(false);
    });

    it('says why a restore failed, and restores under another name with PUT /bills {id, recycle:false, name}', async () => {
      const api = await newUser();
      const entity = await createBill(api, { name: 'Taken' });
      const entry = await createEntry(api, { billId: entity.id });
      const archived = await createBill(api, { name: 'Old Taken', status: 0 });
      await updateBill(api, { id: entity.id, recycle: true });
      await updateBill(api, { id: archived.id, recycle: true });
      await createBill(api, { name: 'taken' });
      await createBill(api, { name: 'Old taken', status: 0 });

      for (const [id, message] of [
        [entity.id, 'An entity named "Taken" already exists. Restore this one under another name.'],
        [
          archived.id,
          'An archived entity named "Old Taken" already exists: find it in Archives in the History menu. Restore this one under another name.',
        ],
      ] as const) {
        const put = await request(api, 'PUT', '/bills', { id, recycle: false });
        expect(put.json()).toEqual({ statusCode: 409, error: 'Conflict', code: 'CONFLICT', message });
        const bin = await request(api, 'POST', '/recycle/restore', { entityType: 'Entity', entityId: id });
        expect(bin.json()).toEqual({ statusCode: 409, error: 'Conflict', code: 'CONFLICT', message });
      }
      // Another name that is taken too is refused the same way; a free one restores, an archived one stays archived.
      expect((await request(api, 'PUT', '/bills', { id: entity.id, recycle: false, name: 'TAKEN' })).statusCode).toBe(
        409,
      );
      const restored = await updateBill(api, { id: entity.id, recycle: false, name: 'Taken (2)' });
      expect(restored).toMatchObject({ name: 'Taken (2)', recycle: false, status: 1 });
      expect(await getEntry(api, entry.entryId)).toMatchObject({ name: 'Taken (2)', recycle: false });
      const back = await updateBill(api, { ...archived, recycle: false, name: 'Old Taken (2)' });
      expect(back).toMatchObject({ name: 'Old Taken (2)', recycle: false, status: 0 });
      // Once back, the archived entity is read only again.
      expect((await request(api, 'PUT', '/bills', { id: archived.id, name: 'Other' })).statusCode).toBe(409);
    });

    it('deleting twice is harmless, and a recycled entity cannot be edited without restoring it', async () => {
      const api = await newUser();
      const bill = await createBill(api);
      await updateBill(api, { id: bill.id, recycle: true });
      expect((await updateBill(api, { id: bill.id, recycle: true })).recycle).toBe(true);
      expect((await request(api, 'PUT', '/bills', { id: bill.id, name: 'Changed' })).statusCode).toBe(409);
      expect(ids(await listRecycle(api))).toEqual([`Entity:${bill.id}`]);
    });
  });

  describe('restore as the original client does it: GET with bypass, then PUT with recycle:false', () => {
    it('restores an entity', async () => {
      const api = await newUser();
      const bill = await createBill(api, { category: 'Fuel' });
      await updateBill(api, { id: bill.id, recycle: true });
      const read = await getBill(api, bill.id, '?bypass=true');
      expect(await updateBill(api, { ...read, recycle: false })).toEqual(bill);
    });

    it('restores an invoice', async () => {
      const api = await newUser();
      const entry = await createEntry(api);
      await editEntry(api, { entryId: entry.entryId, recycle: true });
      const read = await getEntry(api, entry.entryId, '?filter=bypass');
      const res = await request(api, 'PUT', '/entries/edit?filter=bypass', { ...read, recycle: false });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(entry);
    });

    it('restores a payment', async () => {
      const api = await newUser();
      const payment = await createPayment(api);
      await updatePayment(api, { paymentId: payment.paymentId, recycle: true });
      const read = await getPayment(api, payment.paymentId);
      const res = await request(api, 'PUT', '/payments?filter=bypass', { ...read, recycle: false });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(payment);
    });
  });

  describe('GET /recycle', () => {
    it('describes each item: type, UTC timestamp without offset, party, invoice number, date, amount, details', async () => {
      const api = await newUser();
      const bill = await createBill(api, { name: 'Described', category: 'Groceries', status: 0 });
      const live = await createBill(api, { name: 'Live party' });
      const income = await createEntry(api, { billId: live.id, flow: 'income', amount: 12.5, services: 'Desc' });
      const expense = await createEntry(api, { billId: live.id, flow: 'expense', date: '2026-01-02', amount: 3 });
      const payment = await createPayment(api, {
        entryId: expense.entryId,
        type: 'check',
        medium: 'mail',
        amount: 1.25,
        date: '2026-01-03',
        notes: 'Note',
      });
      t.clock.set(Date.UTC(2026, 11, 1, 8, 30, 15, 250));
      const fresh = await again(api);
      await updatePayment(fresh, { paymentId: payment.paymentId, recycle: true });
      t.clock.advance(MINUTE);
      await editEntry(fresh, { entryId: expense.entryId, recycle: true });
      t.clock.advance(MINUTE);
      await editEntry(fresh, { entryId: income.entryId, recycle: true });
      t.clock.advance(MINUTE);
      await updateBill(fresh, { id: bill.id, recycle: true });
      const items = await listRecycle(fresh);
      // The payment's invoice is in the bin, so only the invoice is listed for it.
      expect(items).toEqual([
        {
          entityType: 'Entity',
          entityId: bill.id,
          recycleDate: '2026-12-01T08:33:15',
          purgeDate: '2026-12-15T08:33:15',
          partyName: 'Described',
          invoiceNumber: null,
          entityDate: null,
          amount: null,
          type: 'Archived',
          details: 'Groceries',
        },
        {
          entityType: 'Invoice',
          entityId: income.entryId,
          recycleDate: '2026-12-01T08:32:15',
          purgeDate: '2026-12-15T08:32:15',
          partyName: 'Live party',
          invoiceNumber: income.invoiceId,
          entityDate: '2026-11-01',
          amount: 12.5,
          type: 'Income',
          details: 'Desc',
        },
        {
          entityType: 'Invoice',
          entityId: expense.entryId,
          recycleDate: '2026-12-01T08:31:15',
          purgeDate: '2026-12-15T08:31:15',
          partyName: 'Live party',
          invoiceNumber: expense.invoiceId,
          entityDate: '2026-01-02',
          amount: 3,
          type: 'Expense',
          details: 'Consulting',
        },
      ]);
      // Restoring the invoice leaves the payment deleted on its own before in the bin, now listed.
      await editEntry(fresh, { entryId: expense.entryId, recycle: false });
      const paymentItem = (await listRecycle(fresh)).find((i) => i.entityType === 'Payment');
      expect(paymentItem).toEqual({
        entityType: 'Payment',
        entityId: payment.paymentId,
        recycleDate: '2026-12-01T08:30:15',
        purgeDate: '2026-12-15T08:30:15',
        partyName: 'Live party',
        invoiceNumber: expense.invoiceId,
        entityDate: '2026-01-03',
        amount: 1.25,
        type: 'check / mail', // "<type> / <medium>", as the original server wrote it
        details: 'Note',
      });
      const active = await createBill(fresh);
      await updateBill(fresh, { id: active.id, recycle: true });
      expect((await listRecycle(fresh)).find((i) => i.entityId === active.id && i.entityType === 'Entity')?.type).toBe(
        'Active',
      );
    });

    it('lists the last 14 days only, newest first', async () => {
      let api = await newUser();
      const old = await createEntry(api);
      await editEntry(api, { entryId: old.entryId, recycle: true });
      t.clock.advance(7 * DAY);
      api = await again(api);
      const newer = await createPayment(api);
      await updatePayment(api, { paymentId: newer.paymentId, recycle: true });
      expect(ids(await listRecycle(api))).toEqual([`Payment:${newer.paymentId}`, `Invoice:${old.entryId}`]);
      t.clock.advance(7 * DAY);
      api = await again(api);
      expect(ids(await listRecycle(api))).toEqual([`Payment:${newer.paymentId}`, `Invoice:${old.entryId}`]);
      t.clock.advance(1);
      api = await again(api);
      expect(ids(await listRecycle(api))).toEqual([`Payment:${newer.paymentId}`]);
    });

    it('never lists another user’s items and needs a token', async () => {
      const api = await newUser();
      const other = await newUser();
      const entry = await createEntry(other);
      await editEntry(other, { entryId: entry.entryId, recycle: true });
      expect(await listRecycle(api)).toEqual([]);
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/recycle' })).statusCode).toBe(401);
    });
  });

  describe('POST /recycle/restore', () => {
    it.each(['Entity', 'Invoice', 'Payment'] as const)('restores a deleted %s with its message', async (type) => {
      const api = await newUser();
      const payment = await createPayment(api);
      const entry = await getEntry(api, payment.entryId);
      const id = type === 'Entity' ? entry.billId : type === 'Invoice' ? entry.entryId : payment.paymentId;
      if (type === 'Entity') await updateBill(api, { id, recycle: true });
      if (type === 'Invoice') await editEntry(api, { entryId: id, recycle: true });
      if (type === 'Payment') await updatePayment(api, { paymentId: id, recycle: true });
      const res = await request(api, 'POST', '/recycle/restore', { entityType: type, entityId: id });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: `${type} restored successfully.` });
      expect(await listRecycle(api)).toEqual([]);
      expect(await getEntry(api, entry.entryId)).toEqual(entry);
      expect(await listPayments(api, entry.entryId)).toEqual([payment]);
    });

    it('answers 404 Item not found for a live or unknown item, 400 for a bad body', async () => {
      const api = await newUser();
      const payment = await createPayment(api);
      for (const body of [
        { entityType: 'Payment', entityId: payment.paymentId },
        { entityType: 'Invoice', entityId: payment.entryId },
        { entityType: 'Entity', entityId: 123456 },
      ]) {
        const res = await request(api, 'POST', '/recycle/restore', body);
        expect(res.statusCode).toBe(404);
        expect(res.json().message).toBe('Item not found');
      }
      expect((await request(api, 'POST', '/recycle/restore', { entityType: 'Bill', entityId: 1 })).statusCode).toBe(
        400,
      );
      expect((await request(api, 'POST', '/recycle/restore', { entityType: 'Payment' })).statusCode).toBe(400);
    });
  });

  describe('purge date and delete forever', () => {
    const remove = (api: Api, type: string, id: number | string) => request(api, 'DELETE', `/recycle/${type}/${id}`);
    /** The rows of an entity as stored, live or recycled. */
    const rowsOf = async (billId: number) => ({
      bills: (await t.app.db.selectFrom('bills').select('id').where('id', '=', billId).execute()).length,
      entries: (await t.app.db.selectFrom('entries').select('id').where('bill_id', '=', billId).execute()).length,
      payments: (
        await t.app.db
          .selectFrom('payments as p')
          .innerJoin('entries as e', 'e.id', 'p.entry_id')
          .select('p.id')
          .where('e.bill_id', '=', billId)
          .execute()
      ).length,
    });

    it('says when each item is purged: 14 days after it was deleted', async () => {
      const api = await newUser();
      const h = await entityWithHistory(api);
      const items = await listRecycle(api);
      expect(items).toHaveLength(2);
      for (const item of items) {
        expect(Date.parse(`${item.purgeDate}Z`) - Date.parse(`${item.recycleDate}Z`)).toBe(14 * DAY);
      }
      expect(items.find((i) => i.entityId === h.e3.entryId)?.purgeDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    });

    it('an invoice goes for good with its payments, in one go; the totals and rollups stay exact', async () => {
      const api = await newUser();
      const h = await entityWithHistory(api);
      const statsBefore = (await request(api, 'GET', '/entries/stats')).json();
      const res = await remove(api, 'Invoice', h.e3.entryId);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'Invoice deleted permanently.' });
      expect((await request(api, 'GET', `/entries/${h.e3.entryId}?filter=bypass`)).statusCode).toBe(404);
      expect((await request(api, 'GET', `/payments/${h.p4.paymentId}`)).statusCode).toBe(404);
      expect(await rowsOf(h.bill.id)).toEqual({ bills: 1, entries: 2, payments: 3 });
      expect(ids(await listRecycle(api))).toEqual([`Payment:${h.p2.paymentId}`]);
      expect((await request(api, 'GET', '/entries/stats')).json()).toEqual(statsBefore);
      expect(await getEntry(api, h.e1.entryId)).toMatchObject({ balance: { totalBalance: 70 } });
      expect(await rollupDifferences(t.app.db)).toEqual([]);

      // Gone: a second delete and a restore find nothing.
      const again = await remove(api, 'Invoice', h.e3.entryId);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Item not found' });
      const restore = await request(api, 'POST', '/recycle/restore', { entityType: 'Invoice', entityId: h.e3.entryId });
      expect(restore.statusCode).toBe(404);
    });

    it('a payment goes for good; its invoice keeps its balance', async () => {
      const api = await newUser();
      const h = await entityWithHistory(api);
      expect((await remove(api, 'Payment', h.p2.paymentId)).json()).toEqual({
        message: 'Payment deleted permanently.',
      });
      expect((await request(api, 'GET', `/payments/${h.p2.paymentId}`)).statusCode).toBe(404);
      expect(await getEntry(api, h.e1.entryId)).toMatchObject({ balance: { totalBalance: 70 } });
      expect(ids(await listRecycle(api))).toEqual([`Invoice:${h.e3.entryId}`]);
      expect(await rollupDifferences(t.app.db)).toEqual([]);
    });

    it('an entity goes for good with its invoices, their payments and its schedules', async () => {
      const api = await newUser();
      const h = await entityWithHistory(api);
      const schedule = await request(api, 'POST', `/bills/${h.bill.id}/schedules`, {
        cadence: 'monthly',
        firstDate: '2027-01-01',
        amount: 5,
        flow: 'expense',
        description: 'Fee',
      });
      expect(schedule.statusCode).toBe(201);
      const other = await createEntry(api, { amount: 33 });
      await updateBill(api, { id: h.bill.id, recycle: true });
      const statsBefore = (await request(api, 'GET', '/entries/stats')).json();
      expect((await remove(api, 'Entity', h.bill.id)).json()).toEqual({ message: 'Entity deleted permanently.' });
      expect(await rowsOf(h.bill.id)).toEqual({ bills: 0, entries: 0, payments: 0 });
      const schedules = await t.app.db.selectFrom('schedules').select('id').where('bill_id', '=', h.bill.id).execute();
      expect(schedules).toEqual([]);
      expect(await listRecycle(api)).toEqual([]);
      expect((await request(api, 'GET', '/entries/stats')).json()).toEqual(statsBefore);
      expect(await getEntry(api, other.entryId)).toMatchObject({ amount: 33 });
      expect(await rollupDifferences(t.app.db)).toEqual([]);
    });

    it('refuses an item whose parent is in the bin too (404): it is not listed, and comes back with its parent', async () => {
      const api = await newUser();
      const h = await entityWithHistory(api);
      await updateBill(api, { id: h.bill.id, recycle: true });
      const before = await rowsOf(h.bill.id);
      // A refusal stores nothing: not even a new data version or change record (which a lock taken in a committed
      // transaction would leave).
      const versions = async () => ({
        versions: await t.app.db.selectFrom('ledger_data_versions').selectAll().orderBy('ledger_id').execute(),
        changes: (await t.app.db.selectFrom('entry_changes').select('entry_id').execute()).length,
      });
      const versionsBefore = await versions();
      // Deleted on their own before the entity (e3, p2), and deleted with it (e1, p1).
      for (const [type, id] of [
        ['Invoice', h.e3.entryId],
        ['Payment', h.p2.paymentId],
        ['Invoice', h.e1.entryId],
        ['Payment', h.p1.paymentId],
      ] as const) {
        const res = await remove(api, type, id);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Item not found' });
      }
      expect(await rowsOf(h.bill.id)).toEqual(before);
      expect(await versions()).toEqual(versionsBefore);
      expect(ids(await listRecycle(api))).toEqual([`Entity:${h.bill.id}`]);
      expect(
        (await request(api, 'POST', '/recycle/restore', { entityType: 'Entity', entityId: h.bill.id })).statusCode,
      ).toBe(200);
      expect(ids(await listRecycle(api))).toEqual([`Invoice:${h.e3.entryId}`, `Payment:${h.p2.paymentId}`]);
    });

    it('refuses what is not in the caller’s bin (404), and a bad type or id (400), with codes', async () => {
      const api = await newUser();
      const stranger = await newUser();
      const h = await entityWithHistory(api);
      // A live item, another user's item, an unknown one.
      for (const [who, type, id] of [
        [api, 'Invoice', h.e1.entryId],
        [api, 'Entity', h.bill.id],
        [api, 'Payment', h.p1.paymentId],
        [stranger, 'Invoice', h.e3.entryId],
        [stranger, 'Payment', h.p2.paymentId],
        [api, 'Invoice', 987654321],
      ] as const) {
        const res = await remove(who, type, id);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Item not found' });
      }
      expect(ids(await listRecycle(api))).toEqual([`Invoice:${h.e3.entryId}`, `Payment:${h.p2.paymentId}`]);
      for (const [type, id] of [
        ['Bill', h.bill.id],
        ['Invoice', 'abc'],
        ['Invoice', 0],
      ] as const) {
        const res = await remove(api, type, id);
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe('VALIDATION_FAILED');
      }
      expect(
        (await t.app.inject({ method: 'DELETE', url: `/api/v1/recycle/Invoice/${h.e3.entryId}` })).statusCode,
      ).toBe(401);
    });
  });

  describe('purge', () => {
    // A database of its own, so the counts are exactly this test's rows.
    let p: TestApp;
    beforeAll(async () => {
      p = await createTestApp(dialect);
    });
    afterAll(() => p.close());

    it('removes for good what was deleted over 14 days ago, children with parents, and nothing else', async () => {
      let api: Api = { app: p.app, session: await signUp(p.app) };
      const refresh = async () => {
        api = { app: p.app, session: await signIn(p.app, api.session) };
      };
      const purgedBill = await createBill(api);
      const purgedEntry = await createEntry(api, { billId: purgedBill.id });
      const purgedPayment = await createPayment(api, { entryId: purgedEntry.entryId });
      const liveEntry = await createEntry(api, { amount: 100 });
      const livePayment = await createPayment(api, { entryId: liveEntry.entryId, amount: 60 });
      const oldPayment = await createPayment(api, { entryId: liveEntry.entryId, amount: 7 });
      await updatePayment(api, { paymentId: oldPayment.paymentId, recycle: true });
      await updateBill(api, { id: purgedBill.id, recycle: true });
      p.clock.advance(10 * DAY);
      await refresh();
      const recentEntry = await createEntry(api);
      await editEntry(api, { entryId: recentEntry.entryId, recycle: true });

      p.clock.advance(4 * DAY);
      expect(await purgeRecycleBin(p.app.db, p.clock.now())).toEqual({ payments: 0, entries: 0, bills: 0 });
      p.clock.advance(1);
      // Two processes at once: every row goes exactly once and neither fails.
      const [first, second] = await Promise.all([
        purgeRecycleBin(p.app.db, p.clock.now()),
        purgeRecycleBin(p.app.db, p.clock.now()),
      ]);
      expect({
        payments: first.payments + second.payments,
        entries: first.entries + second.entries,
        bills: first.bills + second.bills,
      }).toEqual({ payments: 2, entries: 1, bills: 1 });
      expect(await purgeRecycleBin(p.app.db, p.clock.now())).toEqual({ payments: 0, entries: 0, bills: 0 });

      await refresh();
      expect((await request(api, 'GET', `/bills/${purgedBill.id}?bypass=1`)).statusCode).toBe(404);
      expect((await request(api, 'GET', `/entries/${purgedEntry.entryId}?filter=bypass`)).statusCode).toBe(404);
      expect((await request(api, 'GET', `/payments/${purgedPayment.paymentId}`)).statusCode).toBe(404);
      expect((await request(api, 'GET', `/payments/${oldPayment.paymentId}`)).statusCode).toBe(404);
      const restore = await request(api, 'POST', '/recycle/restore', { entityType: 'Entity', entityId: purgedBill.id });
      expect(restore.statusCode).toBe(404);
      // Untouched: the live invoice and payment, and the invoice deleted 4 days ago.
      expect(await getEntry(api, liveEntry.entryId)).toMatchObject({ balance: { totalBalance: 40 } });
      expect(await listPayments(api, liveEntry.entryId)).toEqual([livePayment]);
      expect(ids(await listRecycle(api))).toEqual([`Invoice:${recentEntry.entryId}`]);
    });
  });
});
