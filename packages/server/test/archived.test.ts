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
      ['invoice restore', 'PUT', '/entries/edit', { entryId: w.deletedEntry.entryId, recycle: false }],
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
      ['payment restore', 'PUT', '/payments', { paymentId: w.deletedPayment.paymentId, recycle: false }],
      [
        'bin restore of invoice',
        'POST',
        '/recycle/restore',
        { entityType: 'Invoice', entityId: w.deletedEntry.entryId },
      ],
      [
        'bin restore of payment',
        'POST',
        '/recycle/restore',
        { entityType: 'Payment', entityId: w.deletedPayment.paymentId },
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
