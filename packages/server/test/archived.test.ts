import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { signUp } from './helpers/factories.ts';

describe.each(dialects)('archived entity on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  /** An archived entity with a live invoice (one live and one deleted payment) and a deleted invoice. */
  async function archivedWorld() {
    const api: Api = { app: t.app, session: await signUp(t.app) };
    const bill = await createBill(api, { name: 'Archived Co', category: 'Dining' });
    const live = await createBill(api, { name: 'Live Co' });
    const entry = await createEntry(api, { billId: bill.id, amount: 100 });
    const payment = await createPayment(api, { entryId: entry.entryId, amount: 40 });
    const deletedPayment = await createPayment(api, { entryId: entry.entryId, amount: 5 });
    await updatePayment(api, { paymentId: deletedPayment.paymentId, recycle: true });
    const deletedEntry = await createEntry(api, { billId: bill.id, amount: 30 });
    await editEntry(api, { entryId: deletedEntry.entryId, recycle: true });
    const otherEntry = await createEntry(api, { billId: live.id });
    await updateBill(api, { id: bill.id, status: 0 });
    const snapshot = async () => ({
      bill: await getBill(api, bill.id),
      entry: await getEntry(api, entry.entryId),
      deletedEntry: await getEntry(api, deletedEntry.entryId, '?filter=bypass'),
      otherEntry: await getEntry(api, otherEntry.entryId),
      payments: await listPayments(api, entry.entryId),
      deletedPayment: await getPayment(api, deletedPayment.paymentId),
    });
    return { api, bill, live, entry, payment, deletedPayment, deletedEntry, otherEntry, snapshot };
  }

  it('stays readable: the entity, its invoices (flagged archived) and their payments', async () => {
    const w = await archivedWorld();
    expect((await getBill(w.api, w.bill.id)).status).toBe(0);
    const inactive = await request(w.api, 'GET', '/bills?status=inactive');
    expect(inactive.json().billDTOList.map((b: { id: number }) => b.id)).toEqual([w.bill.id]);
    expect(await getEntry(w.api, w.entry.entryId)).toMatchObject({
      archived: true,
      balance: { totalBalance: 60, totalOverpaid: 0 },
    });
    expect((await getEntry(w.api, w.deletedEntry.entryId, '?filter=bypass')).archived).toBe(true);
    expect(await listPayments(w.api, w.entry.entryId)).toEqual([w.payment]);
    expect(await getPayment(w.api, w.payment.paymentId)).toEqual(w.payment);
    expect((await listRecycle(w.api)).map((i) => i.entityId)).toEqual([
      w.deletedEntry.entryId,
      w.deletedPayment.paymentId,
    ]);
  });

  it('refuses every change to its invoices and payments with 409, leaving all data as it was', async () => {
    const w = await archivedWorld();
    const before = await w.snapshot();
    const attempts: [string, 'POST' | 'PUT', string, object][] = [
      ['new invoice', 'POST', '/entries/new', { billId: w.bill.id, date: '2026-11-01', flow: 'income', amount: 1 }],
      ['invoice amount', 'PUT', '/entries/edit', { entryId: w.entry.entryId, amount: 1 }],
      ['invoice date', 'PUT', '/entries/edit', { entryId: w.entry.entryId, date: '2026-01-01' }],
      ['invoice services', 'PUT', '/entries/edit', { entryId: w.entry.entryId, services: 'x' }],
      ['invoice flow', 'PUT', '/entries/edit', { entryId: w.entry.entryId, flow: 'expense' }],
      ['identical invoice JSON', 'PUT', '/entries/edit', before.entry],
      ['invoice delete', 'PUT', '/entries/edit', { entryId: w.entry.entryId, recycle: true }],
      [
        'invoice restore with a change',
        'PUT',
        '/entries/edit?filter=bypass',
        { ...before.deletedEntry, recycle: false, amount: 31 },
      ],
      ['move out', 'PUT', '/entries/edit', { entryId: w.entry.entryId, billId: w.live.id }],
      ['move in', 'PUT', '/entries/edit', { entryId: w.otherEntry.entryId, billId: w.bill.id }],
      [
        'new payment',
        'POST',
        '/payments',
        { entryId: w.entry.entryId, date: '2026-11-02', amount: 1, type: 'cash', medium: 'person' },
      ],
      ['payment amount', 'PUT', '/payments', { paymentId: w.payment.paymentId, amount: 99 }],
      ['payment delete', 'PUT', '/payments', { paymentId: w.payment.paymentId, recycle: true }],
      [
        'payment restore with a change',
        'PUT',
        '/payments',
        { ...before.deletedPayment, recycle: false, notes: 'changed' },
      ],
      ['entity rename while archived', 'PUT', '/bills', { id: w.bill.id, name: 'Renamed' }],
      ['entity recategorise while archived', 'PUT', '/bills', { id: w.bill.id, category: 'Fuel', status: 0 }],
      ['entity internal while archived', 'PUT', '/bills', { id: w.bill.id, internal: true }],
    ];
    for (const [label, method, url, payload] of attempts) {
      const res = await request(w.api, method, url, payload);
      expect({ label, status: res.statusCode }).toEqual({ label, status: 409 });
      expect(res.json().message).toMatch(/archived|Archives/);
    }
    expect(await w.snapshot()).toEqual(before);
  });

  it('gives back an invoice or payment deleted before the archiving, read only (as the original client restores)', async () => {
    const w = await archivedWorld();
    const before = await w.snapshot();
    // The original client: GET with bypass, then PUT the same JSON with recycle:false.
    const entry = await request(w.api, 'PUT', '/entries/edit?filter=bypass', {
      ...before.deletedEntry,
      recycle: false,
    });
    expect(entry.statusCode).toBe(200);
    expect(entry.json()).toEqual({ ...before.deletedEntry, recycle: false });
    const payment = await request(w.api, 'PUT', '/payments?filter=bypass', {
      ...before.deletedPayment,
      recycle: false,
    });
    expect(payment.statusCode).toBe(200);
    expect(payment.json()).toEqual({ ...before.deletedPayment, recycle: false });
    expect(await getEntry(w.api, w.entry.entryId)).toMatchObject({ balance: { totalBalance: 55, totalOverpaid: 0 } });
    expect(await listRecycle(w.api)).toEqual([]);
    // Back, and read only like the rest of the entity.
    const edit = await request(w.api, 'PUT', '/entries/edit', { entryId: w.deletedEntry.entryId, amount: 1 });
    expect(edit.statusCode).toBe(409);
    const pay = await request(w.api, 'PUT', '/payments', { paymentId: w.deletedPayment.paymentId, amount: 1 });
    expect(pay.statusCode).toBe(409);
    const remove = await request(w.api, 'PUT', '/payments', { paymentId: w.deletedPayment.paymentId, recycle: true });
    expect(remove.statusCode).toBe(409);
  });

  it('restores them from the bin too, and refuses a payment whose invoice is still in the bin', async () => {
    const w = await archivedWorld();
    // A payment of the deleted invoice, deleted on its own before the invoice.
    await updateBill(w.api, { id: w.bill.id, status: 1 });
    const entry = await createEntry(w.api, { billId: w.bill.id, amount: 10 });
    const own = await createPayment(w.api, { entryId: entry.entryId, amount: 2 });
    await updatePayment(w.api, { paymentId: own.paymentId, recycle: true });
    await editEntry(w.api, { entryId: entry.entryId, recycle: true });
    await updateBill(w.api, { id: w.bill.id, status: 0 });

    const orphan = await request(w.api, 'POST', '/recycle/restore', { entityType: 'Payment', entityId: own.paymentId });
    expect(orphan.statusCode).toBe(409);
    expect(orphan.json().message).toBe('The invoice of this payment is in the recycle bin. Restore the invoice first.');
    for (const [entityType, entityId] of [
      ['Invoice', w.deletedEntry.entryId],
      ['Payment', w.deletedPayment.paymentId],
      ['Invoice', entry.entryId],
      ['Payment', own.paymentId],
    ] as const) {
      const res = await request(w.api, 'POST', '/recycle/restore', { entityType, entityId });
      expect({ entityType, entityId, status: res.statusCode }).toEqual({ entityType, entityId, status: 200 });
      expect(res.json()).toEqual({ message: `${entityType} restored successfully.` });
    }
    expect(await getEntry(w.api, entry.entryId)).toMatchObject({ archived: true, recycle: false, status: false });
    expect(await getEntry(w.api, w.deletedEntry.entryId)).toMatchObject({ archived: true, recycle: false });
    expect(await listPayments(w.api, entry.entryId)).toMatchObject([{ paymentId: own.paymentId, amount: 2 }]);
    expect(await listRecycle(w.api)).toEqual([]);
  });

  it('may be unarchived (with edits in the same request), after which changes work again', async () => {
    const w = await archivedWorld();
    const bill = await updateBill(w.api, { ...w.bill, status: 1, name: 'Back Co' });
    expect(bill).toMatchObject({ status: 1, name: 'Back Co' });
    expect(await getEntry(w.api, w.entry.entryId)).toMatchObject({ archived: false, name: 'Back Co' });
    expect((await editEntry(w.api, { entryId: w.entry.entryId, amount: 40 })).status).toBe(true);
    expect((await createPayment(w.api, { entryId: w.entry.entryId, amount: 1 })).amount).toBe(1);
  });

  it('may be deleted and restored, and comes back archived with its invoices', async () => {
    const w = await archivedWorld();
    expect((await updateBill(w.api, { id: w.bill.id, recycle: true })).recycle).toBe(true);
    const [item] = await listRecycle(w.api);
    expect(item).toMatchObject({ entityType: 'Entity', entityId: w.bill.id, type: 'Archived' });
    expect(await updateBill(w.api, { id: w.bill.id, recycle: false })).toEqual({ ...w.bill, status: 0 });
    expect(await getEntry(w.api, w.entry.entryId)).toMatchObject({ archived: true, recycle: false });
    expect(await listPayments(w.api, w.entry.entryId)).toEqual([w.payment]);
  });
});
