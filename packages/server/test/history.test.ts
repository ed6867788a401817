import type { FieldChange, HistoryEntry, HistoryResponse } from '@billfold/contract/history';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSqlite } from '../src/db/database.ts';
import { HistoryRepository } from '../src/modules/history/history.repository.ts';
import { oneInvoiceFile } from './helpers/account-file.ts';
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
  request,
  updateBill,
  updatePayment,
} from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';
import { multipart } from './helpers/multipart.ts';
import { createSchedule } from './helpers/schedules.ts';
import { ledgerOf } from './helpers/seed.ts';

/**
 * The change history (docs/decisions/0108-change-history.md): every path that writes an invoice, payment or entity
 * leaves exactly its row (action, actor, each field from and to in wire terms) in the write's own transaction;
 * a refused or failed write and a write that changes nothing leave none; the three read routes answer only the
 * item's owner; replaying an item's history from its first row gives the item as the API shows it.
 */

type Kind = 'entries' | 'bills' | 'payments';
const TABLE = { entries: 'entry_history', bills: 'bill_history', payments: 'payment_history' } as const;
const ITEM = { entries: 'entry_id', bills: 'bill_id', payments: 'payment_id' } as const;

/** The fields each kind records, as the API shows them on the item itself. */
const RECORDED = {
  entries: ['billId', 'date', 'flow', 'amount', 'services', 'dueDate', 'estimated', 'recycle'],
  bills: ['name', 'category', 'internal', 'status', 'recycle'],
  payments: ['date', 'amount', 'type', 'medium', 'notes', 'autopay', 'recycle'],
} as const;

const created = (fields: Record<string, unknown>): FieldChange[] =>
  Object.entries(fields).map(([field, to]) => ({ field, from: null, to }) as FieldChange);

describe.each(dialects)('change history on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const newUser = async (): Promise<Api & { id: number }> => {
    const session = await signUp(t.app);
    const row = await t.app.db
      .selectFrom('users')
      .select('id')
      .where('username_key', '=', session.username.toLowerCase())
      .executeTakeFirstOrThrow();
    return { app: t.app, session, id: row.id };
  };
  const history = async (api: Api, kind: Kind, id: number): Promise<HistoryEntry[]> => {
    const res = await request(api, 'GET', `/${kind}/${id}/history`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<HistoryResponse>().history;
  };
  /** The stored rows of one item's history, read behind the API. */
  const stored = (kind: Kind, id: number) =>
    t.app.db
      .selectFrom(TABLE[kind] as 'entry_history')
      .selectAll()
      .where(ITEM[kind] as 'entry_id', '=', id)
      .orderBy('id')
      .execute();
  const actions = async (api: Api, kind: Kind, id: number) => (await history(api, kind, id)).map((h) => h.action);
  const by = (api: Api & { id: number }) => ({ userId: api.id, username: api.session.username });
  const last = async (api: Api, kind: Kind, id: number) => (await history(api, kind, id)).at(-1);

  it('records an invoice’s create, edits, move, delete and restore by whom, each field from and to', async () => {
    const api = await newUser();
    const power = await createBill(api, { name: 'Power' });
    const water = await createBill(api, { name: 'Water' });
    const entry = await createEntry(api, {
      billId: power.id,
      date: '2026-11-01',
      amount: 120.5,
      flow: 'expense',
      services: 'November',
    });
    const [first] = await history(api, 'entries', entry.entryId);
    expect(first).toMatchObject({ action: 'create', by: by(api), at: '2026-11-22T12:00:00' });
    expect(first?.fields).toEqual(
      created({
        billId: power.id,
        date: '2026-11-01',
        flow: 'OUTGOING',
        amount: 120.5,
        services: 'November',
        dueDate: null,
        estimated: false,
        recycle: false,
      }),
    );

    t.clock.advance(60_000);
    await editEntry(api, { entryId: entry.entryId, amount: 99.99, dueDate: '2026-11-15', services: 'November' });
    expect(await last(api, 'entries', entry.entryId)).toMatchObject({
      action: 'update',
      by: by(api),
      at: '2026-11-22T12:01:00',
      fields: [
        { field: 'amount', from: 120.5, to: 99.99 },
        { field: 'dueDate', from: null, to: '2026-11-15' },
      ],
    });
    // The date moves, and the due date with it: both are recorded.
    await editEntry(api, { entryId: entry.entryId, date: '2026-11-03' });
    expect((await last(api, 'entries', entry.entryId))?.fields).toEqual([
      { field: 'date', from: '2026-11-01', to: '2026-11-03' },
      { field: 'dueDate', from: '2026-11-15', to: '2026-11-17' },
    ]);
    await editEntry(api, { entryId: entry.entryId, billId: water.id });
    expect((await last(api, 'entries', entry.entryId))?.fields).toEqual([
      { field: 'billId', from: power.id, to: water.id },
    ]);

    // Sending back the whole invoice as read changes nothing, and records nothing.
    const before = (await stored('entries', entry.entryId)).length;
    await editEntry(api, { ...(await getEntry(api, entry.entryId)) });
    expect(await stored('entries', entry.entryId)).toHaveLength(before);

    const payment = await createPayment(api, { entryId: entry.entryId, amount: 10 });
    await editEntry(api, { entryId: entry.entryId, recycle: true });
    expect(await last(api, 'entries', entry.entryId)).toMatchObject({
      action: 'recycle',
      by: by(api),
      fields: [{ field: 'recycle', from: false, to: true }],
    });
    // Its payment left with it, and says so.
    expect(await last(api, 'payments', payment.paymentId)).toMatchObject({
      action: 'recycle',
      by: by(api),
      fields: [{ field: 'recycle', from: false, to: true }],
    });
    // Deleting a deleted invoice changes nothing.
    await editEntry(api, { entryId: entry.entryId, recycle: true });
    expect(await actions(api, 'entries', entry.entryId)).toEqual(['create', 'update', 'update', 'update', 'recycle']);

    // Restored with an edit on the way (PUT with recycle false): one row, the edit and the way back.
    await request(api, 'PUT', '/entries/edit?filter=bypass', {
      entryId: entry.entryId,
      services: 'Nov.',
      recycle: false,
    }).then((res) => expect(res.statusCode, res.body).toBe(200));
    expect(await last(api, 'entries', entry.entryId)).toMatchObject({
      action: 'restore',
      fields: [
        { field: 'services', from: 'November', to: 'Nov.' },
        { field: 'recycle', from: true, to: false },
      ],
    });
    expect(await last(api, 'payments', payment.paymentId)).toMatchObject({
      action: 'restore',
      fields: [{ field: 'recycle', from: true, to: false }],
    });
    // Stored in the database as JSON, one row per write.
    expect((await stored('entries', entry.entryId)).map((r) => [r.action, r.user_id])).toEqual([
      ['create', api.id],
      ['update', api.id],
      ['update', api.id],
      ['update', api.id],
      ['recycle', api.id],
      ['restore', api.id],
    ]);
  });

  it('records a payment’s create, edit, delete and restore from the recycle bin; a payment’s totals are not its fields', async () => {
    const api = await newUser();
    const entry = await createEntry(api, { amount: 100 });
    const payment = await createPayment(api, {
      entryId: entry.entryId,
      amount: 25,
      date: '2026-11-05',
      type: 'bank',
      medium: 'ach',
    });
    expect((await history(api, 'payments', payment.paymentId))[0]).toMatchObject({
      action: 'create',
      by: by(api),
      fields: created({
        date: '2026-11-05',
        amount: 25,
        type: 'bank',
        medium: 'ach',
        notes: '',
        autopay: false,
        recycle: false,
      }),
    });
    // Paying changed the invoice's totals, which are not the invoice's own fields.
    expect(await actions(api, 'entries', entry.entryId)).toEqual(['create']);

    await updatePayment(api, { paymentId: payment.paymentId, amount: 30, notes: 'Late fee', autopay: true });
    expect((await last(api, 'payments', payment.paymentId))?.fields).toEqual([
      { field: 'amount', from: 25, to: 30 },
      { field: 'notes', from: '', to: 'Late fee' },
      { field: 'autopay', from: false, to: true },
    ]);
    await updatePayment(api, { paymentId: payment.paymentId, amount: 30 });
    await updatePayment(api, { paymentId: payment.paymentId, recycle: true });
    const restored = await request(api, 'POST', '/recycle/restore', {
      entityType: 'Payment',
      entityId: payment.paymentId,
    });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(await actions(api, 'payments', payment.paymentId)).toEqual(['create', 'update', 'recycle', 'restore']);
    expect(await last(api, 'payments', payment.paymentId)).toMatchObject({
      by: by(api),
      fields: [{ field: 'recycle', from: true, to: false }],
    });
    expect(await actions(api, 'entries', entry.entryId)).toEqual(['create']);
  });

  it('records an entity’s create, rename, archive and unarchive, and its delete and restore on each invoice and payment that went and came back with it', async () => {
    const api = await newUser();
    const bill = await createBill(api, { name: 'Gym', category: 'Utilities', internal: false });
    expect((await history(api, 'bills', bill.id))[0]).toMatchObject({
      action: 'create',
      by: by(api),
      fields: created({ name: 'Gym', category: 'Utilities', internal: false, status: 1, recycle: false }),
    });
    await updateBill(api, { id: bill.id, name: 'City Gym', category: 'Personal Care / Fitness' });
    expect((await last(api, 'bills', bill.id))?.fields).toEqual([
      { field: 'name', from: 'Gym', to: 'City Gym' },
      { field: 'category', from: 'Utilities', to: 'Personal Care / Fitness' },
    ]);
    const a = await createEntry(api, { billId: bill.id });
    const b = await createEntry(api, { billId: bill.id });
    const paid = await createPayment(api, { entryId: a.entryId, amount: 5 });
    // Deleted on its own before: stays in the bin when the entity comes back, and records nothing more.
    await editEntry(api, { entryId: b.entryId, recycle: true });

    await updateBill(api, { id: bill.id, status: 0 });
    expect((await last(api, 'bills', bill.id))?.fields).toEqual([{ field: 'status', from: 1, to: 0 }]);
    // Archiving is the entity's change: the invoices' copies of it are not theirs.
    expect(await actions(api, 'entries', a.entryId)).toEqual(['create']);
    await updateBill(api, { id: bill.id, status: 1 });
    expect((await last(api, 'bills', bill.id))?.fields).toEqual([{ field: 'status', from: 0, to: 1 }]);

    await updateBill(api, { id: bill.id, recycle: true });
    for (const [kind, id] of [
      ['bills', bill.id],
      ['entries', a.entryId],
      ['payments', paid.paymentId],
    ] as const)
      expect(await last(api, kind, id), `${kind} ${id}`).toMatchObject({
        action: 'recycle',
        by: by(api),
        fields: [{ field: 'recycle', from: false, to: true }],
      });
    expect(await actions(api, 'entries', b.entryId)).toEqual(['create', 'recycle']);

    const restored = await request(api, 'POST', '/recycle/restore', { entityType: 'Entity', entityId: bill.id });
    expect(restored.statusCode, restored.body).toBe(200);
    for (const [kind, id] of [
      ['bills', bill.id],
      ['entries', a.entryId],
      ['payments', paid.paymentId],
    ] as const)
      expect(await last(api, kind, id), `${kind} ${id}`).toMatchObject({
        action: 'restore',
        by: by(api),
        fields: [{ field: 'recycle', from: true, to: false }],
      });
    expect(await actions(api, 'entries', b.entryId)).toEqual(['create', 'recycle']);
    expect(await actions(api, 'bills', bill.id)).toEqual([
      'create',
      'update',
      'update',
      'update',
      'recycle',
      'restore',
    ]);
  });

  it('records a category rename on each entity that carries it (deleted ones too), not on their invoices', async () => {
    const api = await newUser();
    const made = await request(api, 'POST', '/categories', { name: 'Hobbies' });
    expect(made.statusCode, made.body).toBe(201);
    const one = await createBill(api, { category: 'Hobbies' });
    const two = await createBill(api, { category: 'Hobbies' });
    const other = await createBill(api, { category: 'Utilities' });
    const entry = await createEntry(api, { billId: one.id });
    await updateBill(api, { id: two.id, recycle: true });
    const renamed = await request(api, 'PATCH', `/categories/${made.json<{ id: number }>().id}`, { name: 'Pastimes' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    for (const id of [one.id, two.id])
      expect(await last(api, 'bills', id)).toMatchObject({
        action: 'update',
        by: by(api),
        fields: [{ field: 'category', from: 'Hobbies', to: 'Pastimes' }],
      });
    expect(await actions(api, 'bills', other.id)).toEqual(['create']);
    expect(await actions(api, 'entries', entry.entryId)).toEqual(['create']);
  });

  it('leaves no history row for a refused write, nor for a write that fails inside its transaction', async () => {
    const api = await newUser();
    const bill = await createBill(api);
    const entry = await createEntry(api, { billId: bill.id, date: '2026-11-01' });
    const payment = await createPayment(api, { entryId: entry.entryId, amount: 5 });
    const counts = async () => ({
      bills: (await stored('bills', bill.id)).length,
      entries: (await stored('entries', entry.entryId)).length,
      payments: (await stored('payments', payment.paymentId)).length,
      all: Number(
        (
          await sql<{ n: number }>`select (select count(*) from entry_history) + (select count(*) from payment_history)
            + (select count(*) from bill_history) as n`.execute(t.app.db)
        ).rows[0]?.n,
      ),
    });
    const before = await counts();

    // 400: a due date before the invoice date.
    const early = await request(api, 'PUT', '/entries/edit', { entryId: entry.entryId, dueDate: '2026-10-01' });
    expect(early.statusCode).toBe(400);
    // 409: an archived entity's invoices and payments are read only.
    await updateBill(api, { id: bill.id, status: 0 });
    const archived = await counts();
    expect(archived).toEqual({ ...before, bills: before.bills + 1, all: before.all + 1 });
    for (const [url, body] of [
      ['/entries/edit', { entryId: entry.entryId, amount: 1 }],
      ['/payments', { paymentId: payment.paymentId, amount: 1 }],
    ] as const)
      expect((await request(api, 'PUT', url, body)).statusCode).toBe(409);
    expect((await request(api, 'POST', '/entries/new', { ...entry, billId: bill.id })).statusCode).toBe(409);
    // 409: a second live entity of the same name.
    expect((await request(api, 'POST', '/bills', { name: (await getBill(api, bill.id)).name })).statusCode).toBe(409);
    expect(await counts()).toEqual(archived);
    await updateBill(api, { id: bill.id, status: 1 });
    const live = await counts();

    // Errors forced inside the transaction: one as the history row is written (the change must go too), one after
    // it (the history row must go too).
    const pg = !isSqlite(t.app.db);
    if (pg) {
      await sql`create function history_test_fail() returns trigger language plpgsql as $$
        begin raise exception 'forced failure'; end $$`.execute(t.app.db);
      await sql`create trigger history_test_poison before insert on entry_history for each row
        when (new.fields like '%Poison%') execute function history_test_fail()`.execute(t.app.db);
      await sql`create trigger history_test_totals before update on entries for each row
        when (new.paid_cents = 1313) execute function history_test_fail()`.execute(t.app.db);
    } else {
      await sql`create trigger history_test_poison before insert on entry_history
        when new.fields like '%Poison%' begin select raise(abort, 'forced failure'); end`.execute(t.app.db);
      await sql`create trigger history_test_totals before update on entries
        when new.paid_cents = 1313 begin select raise(abort, 'forced failure'); end`.execute(t.app.db);
    }
    try {
      const poisoned = await request(api, 'PUT', '/entries/edit', { entryId: entry.entryId, services: 'Poison' });
      expect(poisoned.statusCode).toBe(500);
      expect((await getEntry(api, entry.entryId)).services).not.toBe('Poison');
      const unpaid = await request(api, 'POST', '/payments', {
        entryId: entry.entryId,
        date: '2026-11-05',
        amount: 8.13,
        type: 'cash',
        medium: 'person',
      });
      expect(unpaid.statusCode).toBe(500);
      expect(await counts()).toEqual(live);
      const payments = await t.app.db
        .selectFrom('payments')
        .select('id')
        .where('entry_id', '=', entry.entryId)
        .execute();
      expect(payments).toHaveLength(1);
    } finally {
      await sql`drop trigger history_test_poison${pg ? sql` on entry_history` : sql``}`.execute(t.app.db);
      await sql`drop trigger history_test_totals${pg ? sql` on entries` : sql``}`.execute(t.app.db);
      if (pg) await sql`drop function history_test_fail()`.execute(t.app.db);
    }
    // The same writes go through once nothing forces them to fail, each with its row.
    await editEntry(api, { entryId: entry.entryId, services: 'Poison' });
    expect(await counts()).toEqual({ ...live, entries: live.entries + 1, all: live.all + 1 });
  });

  it('answers 404 for an item outside the caller’s data, and shows a deleted one’s history', async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const payment = await createPayment(owner);
    const { entryId } = payment;
    const { billId } = await getEntry(owner, entryId);
    for (const [kind, id] of [
      ['entries', entryId],
      ['bills', billId],
      ['payments', payment.paymentId],
    ] as const) {
      const res = await request(stranger, 'GET', `/${kind}/${id}/history`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
      expect(res.body).not.toContain(owner.session.username);
      expect((await request(owner, 'GET', `/${kind}/9999999/history`)).statusCode).toBe(404);
    }
    expect((await request(owner, 'GET', '/entries/0/history')).statusCode).toBe(400);
    await updateBill(owner, { id: billId, recycle: true });
    expect(await actions(owner, 'entries', entryId)).toEqual(['create', 'recycle']);
    expect(await actions(owner, 'bills', billId)).toEqual(['create', 'recycle']);
    expect(await actions(owner, 'payments', payment.paymentId)).toEqual(['create', 'recycle']);
  });

  it('names no one once the author’s account is gone', async () => {
    const owner = await newUser();
    const gone = await newUser();
    const entry = await createEntry(owner);
    // A member of a shared ledger writes the owner's invoice: recorded as the writers record it.
    await t.app.db.transaction().execute(async (trx) => {
      await new HistoryRepository(trx, t.clock.now()).record(
        'entry',
        entry.entryId,
        gone.id,
        'update',
        {
          bill_id: entry.billId,
          date: entry.date,
          flow: entry.flow,
          amount_cents: 10_000,
          services: 'x',
          due_date: null,
        },
        {
          bill_id: entry.billId,
          date: entry.date,
          flow: entry.flow,
          amount_cents: 10_000,
          services: 'y',
          due_date: null,
        },
      );
    });
    expect((await last(owner, 'entries', entry.entryId))?.by).toEqual(by(gone));
    await t.app.db.deleteFrom('users').where('id', '=', gone.id).execute();
    const after = await history(owner, 'entries', entry.entryId);
    expect(after.map((h) => [h.action, h.by])).toEqual([
      ['create', by(owner)],
      ['update', null],
    ]);
    expect(after[1]?.fields).toEqual([{ field: 'services', from: 'x', to: 'y' }]);
  });

  it('records a CSV import’s entities, invoices and payments as `import`, and its undo as `recycle`', async () => {
    const api = await newUser();
    const power = await createBill(api, { name: 'Power Co' });
    const csv = 'Date,Entity,Amount,Description,Paid\n2026-01-05,Power Co,-12,Jan,12\n2026-01-06,New Gym,-45,Feb,\n';
    const body = multipart({ name: 'bank.csv', content: csv }, {});
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/imports',
      headers: { ...api.session.headers, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    const importId = (JSON.parse(res.body.trim().split('\n').at(-1) as string) as { result: { id: number } }).result.id;
    const entries = await t.app.db
      .selectFrom('entries')
      .selectAll()
      .where('import_id', '=', importId)
      .orderBy('date')
      .execute();
    const [jan, feb] = entries;
    if (!jan || !feb) throw new Error('the import wrote no invoices');
    expect(await history(api, 'entries', jan.id)).toEqual([
      expect.objectContaining({
        action: 'import',
        by: by(api),
        fields: created({
          billId: power.id,
          date: '2026-01-05',
          flow: 'OUTGOING',
          amount: 12,
          services: 'Jan',
          dueDate: null,
          estimated: false,
          recycle: false,
        }),
      }),
    ]);
    expect(await actions(api, 'bills', feb.bill_id)).toEqual(['import']);
    expect((await history(api, 'bills', feb.bill_id))[0]?.fields).toContainEqual({
      field: 'name',
      from: null,
      to: 'New Gym',
    });
    const [paid] = await t.app.db.selectFrom('payments').selectAll().where('entry_id', '=', jan.id).execute();
    expect(paid && (await history(api, 'payments', paid.id))).toEqual([
      expect.objectContaining({ action: 'import', by: by(api) }),
    ]);
    expect(await actions(api, 'bills', power.id)).toEqual(['create']);

    const undone = await request(api, 'POST', `/imports/${importId}/undo`);
    expect(undone.statusCode, undone.body).toBe(200);
    for (const [kind, id] of [
      ['entries', jan.id],
      ['entries', feb.id],
      ['bills', feb.bill_id],
      ['payments', paid?.id as number],
    ] as const)
      expect(await last(api, kind, id), `${kind} ${id}`).toMatchObject({
        action: 'recycle',
        by: by(api),
        fields: [{ field: 'recycle', from: false, to: true }],
      });
    expect(await actions(api, 'bills', power.id)).toEqual(['create']);
  });

  it('records an account file’s entities, invoices and payments as `import`, deleted ones as deleted', async () => {
    const api = await newUser();
    const file = oneInvoiceFile();
    const second = { ...file.invoices[0], ref: 2, number: 2, deletedAt: '2026-02-01T00:00:00.000Z' };
    file.invoices.push(second as (typeof file.invoices)[number]);
    file.lastInvoiceNumber = 2;
    const res = await request(api, 'POST', '/account/import', file);
    expect(res.statusCode, res.body).toBe(200);
    const ledgerId = await ledgerOf(t.app.db, api.id);
    const [bill] = await t.app.db.selectFrom('bills').selectAll().where('ledger_id', '=', ledgerId).execute();
    const entries = await t.app.db
      .selectFrom('entries')
      .selectAll()
      .where('ledger_id', '=', ledgerId)
      .orderBy('invoice_number')
      .execute();
    const [payment] = await t.app.db.selectFrom('payments').selectAll().where('ledger_id', '=', ledgerId).execute();
    if (!bill || !payment || entries.length !== 2) throw new Error('the account file was not imported');
    expect(await history(api, 'bills', bill.id)).toEqual([
      expect.objectContaining({
        action: 'import',
        by: by(api),
        fields: created({ name: 'Power Co', category: 'Utilities', internal: false, status: 1, recycle: false }),
      }),
    ]);
    expect((await history(api, 'entries', entries[0]?.id as number))[0]?.fields).toEqual(
      created({
        billId: bill.id,
        date: '2026-01-05',
        flow: 'OUTGOING',
        amount: 10,
        services: 'Bill',
        dueDate: null,
        estimated: false,
        recycle: false,
      }),
    );
    expect((await history(api, 'entries', entries[1]?.id as number))[0]?.fields).toContainEqual({
      field: 'recycle',
      from: null,
      to: true,
    });
    expect(await history(api, 'payments', payment.id)).toEqual([
      expect.objectContaining({
        action: 'import',
        fields: created({
          date: '2026-01-06',
          amount: 10,
          type: 'cash',
          medium: 'person',
          notes: '',
          autopay: false,
          recycle: false,
        }),
      }),
    ]);
  });

  it('records a schedule’s invoices as `schedule` and its automatic payments as `autopay`: the saver’s at a save, no one’s from the job', async () => {
    const api = await newUser();
    const bill = await createBill(api);
    // Saved on Nov 22 from Oct 1: October's and November's invoices are created at once, October's paid at once.
    await createSchedule(api, bill.id, { firstDate: '2026-10-01', autopay: 'bank|ach' });
    const atOnce = await t.app.db
      .selectFrom('entries')
      .selectAll()
      .where('bill_id', '=', bill.id)
      .orderBy('date')
      .execute();
    expect(atOnce.map((e) => e.date)).toEqual(['2026-10-01', '2026-11-01']);
    for (const e of atOnce) {
      const [row] = await history(api, 'entries', e.id);
      expect(row).toMatchObject({ action: 'schedule', by: by(api) });
      expect(row?.fields).toContainEqual({ field: 'date', from: null, to: e.date });
    }
    const autopaid = await t.app.db
      .selectFrom('payments')
      .selectAll()
      .where(
        'entry_id',
        'in',
        atOnce.map((e) => e.id),
      )
      .execute();
    expect(autopaid.length).toBeGreaterThan(0);
    for (const p of autopaid)
      expect(await history(api, 'payments', p.id)).toEqual([
        expect.objectContaining({ action: 'autopay', by: by(api) }),
      ]);

    // The hourly job: December's invoice on Dec 1, paid on its due date, both the server's own.
    await t.app.schedules.run(Date.parse('2026-12-01T12:00:00Z'));
    await t.app.schedules.run(Date.parse('2026-12-06T12:00:00Z'));
    const [december] = await t.app.db
      .selectFrom('entries')
      .selectAll()
      .where('bill_id', '=', bill.id)
      .where('date', '=', '2026-12-01')
      .execute();
    if (!december) throw new Error('the job created no invoice');
    expect(await history(api, 'entries', december.id)).toEqual([
      expect.objectContaining({ action: 'schedule', by: null, at: '2026-12-01T12:00:00' }),
    ]);
    const [decPayment] = await t.app.db
      .selectFrom('payments')
      .selectAll()
      .where('entry_id', '=', december.id)
      .execute();
    expect(decPayment && (await history(api, 'payments', decPayment.id))).toEqual([
      expect.objectContaining({
        action: 'autopay',
        by: null,
        fields: expect.arrayContaining([{ field: 'autopay', from: null, to: true }]),
      }),
    ]);
  });

  describe('replaying an item’s history from its first row gives the item as the API shows it', () => {
    type Op =
      | { kind: 'entry'; change: Record<string, unknown> }
      | { kind: 'payment'; change: Record<string, unknown> }
      | { kind: 'bill'; change: Record<string, unknown> };
    const date = fc
      .integer({ min: 0, max: 60 })
      .map((d) => new Date(Date.UTC(2026, 9, 1) + d * 86_400_000).toISOString().slice(0, 10));
    const amount = fc.integer({ min: 1, max: 100_000 }).map((c) => c / 100);
    const text = fc.constantFrom('', 'Rent', 'Power', 'Late fee', 'Ünïcode ✓');
    const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({
        kind: fc.constant('entry' as const),
        change: fc.record(
          {
            date: maybe(date),
            amount: maybe(amount),
            services: maybe(text),
            flow: maybe(fc.constantFrom('income', 'expense')),
            dueDate: maybe(fc.option(date, { nil: null })),
            moveTo: maybe(fc.boolean()),
            recycle: maybe(fc.boolean()),
          },
          { requiredKeys: [] },
        ),
      }),
      fc.record({
        kind: fc.constant('payment' as const),
        change: fc.record(
          {
            date: maybe(date),
            amount: maybe(amount),
            notes: maybe(text),
            autopay: maybe(fc.boolean()),
            method: maybe(fc.constantFrom(['bank', 'ach'], ['cash', 'person'], ['card', 'credit'])),
            recycle: maybe(fc.boolean()),
          },
          { requiredKeys: [] },
        ),
      }),
      fc.record({
        kind: fc.constant('bill' as const),
        change: fc.record(
          {
            name: maybe(fc.constantFrom('Alpha', 'Beta', 'Gamma')),
            category: maybe(fc.constantFrom('Utilities', 'Mortgage / Rent', 'Insurance')),
            internal: maybe(fc.boolean()),
            status: maybe(fc.constantFrom(0, 1)),
            recycle: maybe(fc.boolean()),
          },
          { requiredKeys: [] },
        ),
      }),
    );

    /** Starts from the first row's values and applies each later row's `to`s, checking each `from` on the way. */
    const replay = (rows: HistoryEntry[]) => {
      const state: Record<string, unknown> = {};
      rows.forEach((row, i) => {
        for (const { field, from, to } of row.fields) {
          if (i > 0) expect(state[field], `${row.action} ${field}`).toEqual(from);
          state[field] = to;
        }
      });
      return state;
    };
    const pick = (item: Record<string, unknown>, fields: readonly string[]) =>
      Object.fromEntries(fields.map((f) => [f, item[f]]));

    it('for random sequences of edits, deletes and restores (refused ones included)', async () => {
      const api = await newUser();
      let names = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
          names += 1;
          const bill = await createBill(api, { name: `Replay ${names}` });
          const other = await createBill(api, { name: `Replay ${names} other` });
          const entry = await createEntry(api, { billId: bill.id, amount: 500 });
          const payment = await createPayment(api, { entryId: entry.entryId, amount: 5 });
          for (const { kind, change } of ops) {
            // Whatever the API answers (2xx, 400, 409), the history must still replay to the item.
            if (kind === 'entry') {
              const { moveTo, ...rest } = change;
              const body = { ...rest, entryId: entry.entryId, ...(moveTo ? { billId: other.id } : {}) };
              await request(api, 'PUT', '/entries/edit?filter=bypass', body);
            } else if (kind === 'payment') {
              const { method, ...rest } = change as { method?: [string, string] };
              const body = {
                ...rest,
                paymentId: payment.paymentId,
                ...(method ? { type: method[0], medium: method[1] } : {}),
              };
              await request(api, 'PUT', '/payments', body);
            } else {
              const { name, ...rest } = change;
              await request(api, 'PUT', '/bills', {
                ...rest,
                id: bill.id,
                ...(name ? { name: `${name} ${names}` } : {}),
              });
            }
          }
          const items = [
            ['entries', entry.entryId, await getEntry(api, entry.entryId, '?filter=bypass')],
            ['payments', payment.paymentId, await getPayment(api, payment.paymentId)],
            ['bills', bill.id, await getBill(api, bill.id, '?bypass=true')],
          ] as const;
          for (const [kind, id, item] of items) {
            const rows = await history(api, kind, id);
            expect(rows[0]?.action).toBe('create');
            for (const row of rows) expect(row.fields.length).toBeGreaterThan(0);
            expect(replay(rows), kind).toEqual(pick(item as Record<string, unknown>, RECORDED[kind]));
          }
        }),
        { numRuns: 12 },
      );
    });
  });
});
