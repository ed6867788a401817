import type { BillList } from '@billfold/contract/bills';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import {
  type Api,
  createBill,
  createEntry,
  editEntry,
  getBill,
  getEntry,
  listRecycle,
  request,
  updateBill,
} from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';

describe.each(dialects)('entities (/bills) on %s', (dialect) => {
  let t: TestApp;
  const newUser = async (): Promise<Api> => ({ app: t.app, session: await signUp(t.app) });
  const names = (list: { name: string }[]) => list.map((b) => b.name);
  const list = async (api: Api, query = '') => {
    const res = await request(api, 'GET', `/bills${query}`);
    expect(res.statusCode).toBe(200);
    return res.json<BillList>().billDTOList;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  describe('POST /bills', () => {
    it('creates an entity: 201 with the Bill, trimmed name, canonical category, server-owned fields ignored', async () => {
      const api = await newUser();
      const res = await request(api, 'POST', '/bills', {
        name: '  Acme Power  ',
        status: 1,
        category: 'utilities',
        internal: false,
        recycle: true,
        id: 999,
        userId: 1,
      });
      expect(res.statusCode).toBe(201);
      const bill = res.json();
      expect(bill).toEqual({
        id: expect.any(Number),
        name: 'Acme Power',
        category: 'Utilities',
        internal: false,
        status: 1,
        recycle: false,
      });
      expect(bill.id).not.toBe(999);
      expect(await getBill(api, bill.id)).toEqual(bill);
    });

    it('normalises categories: any spelling of a known one, anything else Uncategorized', async () => {
      const api = await newUser();
      expect((await createBill(api, { category: 'AUTO_LOAN' })).category).toBe('Auto Loan');
      expect((await createBill(api, { category: ' hoa / taxes ' })).category).toBe('HOA / Taxes');
      expect((await createBill(api, { category: 'Yachts' })).category).toBe('Uncategorized');
      const res = await request(api, 'POST', '/bills', { name: 'No category', status: 1 });
      expect(res.json().category).toBe('Uncategorized');
    });

    it('accepts status and internal as 1/0/true/false; status defaults to active', async () => {
      const api = await newUser();
      expect((await createBill(api, { status: false })).status).toBe(0);
      expect((await createBill(api, { status: true })).status).toBe(1);
      expect((await createBill(api, { status: 0 })).status).toBe(0);
      const res = await request(api, 'POST', '/bills', { name: 'Default status', internal: 'true' });
      expect(res.json()).toMatchObject({ status: 1, internal: true });
    });

    it('rejects an empty or too long name with the message of docs/product.md, Validation', async () => {
      const api = await newUser();
      const empty = await request(api, 'POST', '/bills', { name: '   ', status: 1 });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toContain('Entity name cannot be empty.');
      expect((await request(api, 'POST', '/bills', { name: 'x'.repeat(101) })).statusCode).toBe(400);
      expect((await request(api, 'POST', '/bills', { name: 'bad\u0007name' })).statusCode).toBe(400);
      expect((await request(api, 'POST', '/bills', { name: 'x'.repeat(100) })).statusCode).toBe(201);
    });

    it('a duplicate name says so, and says where an archived entity of that name is', async () => {
      const api = await newUser();
      await createBill(api, { name: 'Live One' });
      await createBill(api, { name: 'Shelved', status: 0 });
      const live = await request(api, 'POST', '/bills', { name: 'live one' });
      expect(live.json()).toEqual({
        statusCode: 409,
        error: 'Conflict',
        code: 'CONFLICT',
        message: 'An entity named "live one" already exists.',
      });
      const archived = await request(api, 'POST', '/bills', { name: 'SHELVED' });
      expect(archived.json()).toEqual({
        statusCode: 409,
        error: 'Conflict',
        code: 'CONFLICT',
        message: 'An archived entity named "SHELVED" already exists: find it in Archives in the History menu.',
      });
      const other = await createBill(api, { name: 'Other' });
      const rename = await request(api, 'PUT', '/bills', { id: other.id, name: 'Shelved' });
      expect(rename.json().message).toBe(
        'An archived entity named "Shelved" already exists: find it in Archives in the History menu.',
      );
    });

    it('refuses a duplicate name case-insensitively with 409, per user only', async () => {
      const api = await newUser();
      await createBill(api, { name: 'Acme' });
      const dup = await request(api, 'POST', '/bills', { name: ' ACME ', status: 1 });
      expect(dup.statusCode).toBe(409);
      expect(dup.json()).toMatchObject({ statusCode: 409, error: 'Conflict' });
      const other = await newUser();
      expect((await createBill(other, { name: 'Acme' })).name).toBe('Acme');
    });

    it('decides concurrent creates of one name: exactly one 201, the rest 409', async () => {
      const api = await newUser();
      const results = await Promise.all(
        Array.from({ length: 8 }, () => request(api, 'POST', '/bills', { name: 'Race', status: 1 })),
      );
      const codes = results.map((r) => r.statusCode).sort();
      expect(codes).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    });

    it('needs a token', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/bills', payload: { name: 'x' } });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('GET /bills', () => {
    it('lists active and archived, never recycled, sorted by name case-insensitively', async () => {
      const api = await newUser();
      await createBill(api, { name: 'banana' });
      await createBill(api, { name: 'Apple', status: 0 });
      await createBill(api, { name: 'cherry' });
      const gone = await createBill(api, { name: 'Aardvark' });
      await updateBill(api, { id: gone.id, recycle: true });
      expect(names(await list(api))).toEqual(['Apple', 'banana', 'cherry']);
      expect(names(await list(api, '?status=all'))).toEqual(['Apple', 'banana', 'cherry']);
      expect(names(await list(api, '?status=active'))).toEqual(['banana', 'cherry']);
      expect(names(await list(api, '?status=inactive'))).toEqual(['Apple']);
    });

    it('searches by name substring (case-insensitive, wildcards literal) and repeated category', async () => {
      const api = await newUser();
      await createBill(api, { name: 'City Power', category: 'Utilities' });
      await createBill(api, { name: 'Power 100%', category: 'Utilities' });
      await createBill(api, { name: 'Gym', category: 'Personal Care / Fitness' });
      await createBill(api, { name: 'Corner_Shop', category: 'Groceries' });
      await createBill(api, { name: 'CornerXShop', category: 'Groceries' });
      expect(names(await list(api, '?name=POWER'))).toEqual(['City Power', 'Power 100%']);
      expect(names(await list(api, '?name=0%25'))).toEqual(['Power 100%']);
      expect(names(await list(api, '?name=r_s'))).toEqual(['Corner_Shop']);
      expect(names(await list(api, '?category=Groceries&category=personal%20care%20%2F%20fitness'))).toEqual([
        'Corner_Shop',
        'CornerXShop',
        'Gym',
      ]);
      expect(names(await list(api, '?category=Utilities&name=city'))).toEqual(['City Power']);
      expect(await list(api, '?category=Yachts')).toEqual([]);
    });

    it('rejects an unknown status with 400', async () => {
      const api = await newUser();
      expect((await request(api, 'GET', '/bills?status=deleted')).statusCode).toBe(400);
    });
  });

  describe('GET /bills/{id}', () => {
    it('returns an archived entity; a recycled one only with bypass', async () => {
      const api = await newUser();
      const archived = await createBill(api, { status: 0 });
      expect((await getBill(api, archived.id)).status).toBe(0);
      const bill = await createBill(api);
      await updateBill(api, { id: bill.id, recycle: true });
      const hidden = await request(api, 'GET', `/bills/${bill.id}`);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json().message).toBe('Entity not found.');
      expect((await getBill(api, bill.id, '?bypass=true')).recycle).toBe(true);
      expect((await getBill(api, bill.id, '?bypass=')).recycle).toBe(true);
    });

    it('answers 400 for a non-numeric or non-positive id and 404 for an unknown one', async () => {
      const api = await newUser();
      expect((await request(api, 'GET', '/bills/abc')).statusCode).toBe(400);
      expect((await request(api, 'GET', '/bills/0')).statusCode).toBe(400);
      expect((await request(api, 'GET', '/bills/-3')).statusCode).toBe(400);
      expect((await request(api, 'GET', '/bills/987654')).statusCode).toBe(404);
    });
  });

  describe('PUT /bills', () => {
    it('renames and recategorises; the invoices show the new name and category', async () => {
      const api = await newUser();
      const bill = await createBill(api, { name: 'Old Name', category: 'Dining' });
      const entry = await createEntry(api, { billId: bill.id });
      const updated = await updateBill(api, { ...bill, name: 'New Name', category: 'groceries' });
      expect(updated).toEqual({ ...bill, name: 'New Name', category: 'Groceries' });
      expect(await getEntry(api, entry.entryId)).toMatchObject({ name: 'New Name', category: 'Groceries' });
    });

    it('allows a change of case of its own name but not a name another entity holds', async () => {
      const api = await newUser();
      const bill = await createBill(api, { name: 'acme' });
      await createBill(api, { name: 'Other' });
      expect((await updateBill(api, { id: bill.id, name: 'ACME' })).name).toBe('ACME');
      const res = await request(api, 'PUT', '/bills', { id: bill.id, name: 'other' });
      expect(res.statusCode).toBe(409);
      expect((await getBill(api, bill.id)).name).toBe('ACME');
    });

    it('internal: true marks the invoices internal and never rewrites their stored flow, in the bin too', async () => {
      const api = await newUser();
      const bill = await createBill(api);
      const income = await createEntry(api, { billId: bill.id, flow: 'income' });
      const expense = await createEntry(api, { billId: bill.id, flow: 'expense' });
      const binned = await createEntry(api, { billId: bill.id, flow: 'income' });
      await editEntry(api, { entryId: binned.entryId, recycle: true });
      expect(income).toMatchObject({ flow: 'INCOMING', internal: false });
      await updateBill(api, { id: bill.id, internal: true });
      expect(await getEntry(api, income.entryId)).toMatchObject({ flow: 'INCOMING', internal: true });
      // Internal invoices count as expenses wherever income and expense are told apart.
      expect((await listRecycle(api)).find((i) => i.entityId === binned.entryId)?.type).toBe('Expense');
      const figures = async (query: string) => {
        const stats = (await request(api, 'GET', `/entries/stats?${query}`)).json();
        const list = (await request(api, 'GET', `/entries?${query}`)).json();
        return { income: stats.totalIncomeAmount, expense: stats.totalExpenseAmount, total: list.total };
      };
      expect(await figures('')).toEqual({ income: 0, expense: 0, total: 2 });
      expect(await figures('flow=internal')).toEqual({ income: 0, expense: 200, total: 2 });
      expect(await figures('flow=income')).toEqual({ income: 0, expense: 0, total: 0 });
      await updateBill(api, { id: bill.id, internal: false });
      expect(await getEntry(api, income.entryId)).toMatchObject({ flow: 'INCOMING', internal: false });
      expect(await getEntry(api, expense.entryId)).toMatchObject({ flow: 'OUTGOING', internal: false });
      expect(await getEntry(api, binned.entryId, '?filter=bypass')).toMatchObject({ flow: 'INCOMING', recycle: true });
      expect((await listRecycle(api)).find((i) => i.entityId === binned.entryId)?.type).toBe('Income');
      expect(await figures('')).toEqual({ income: 100, expense: 100, total: 2 });
      expect(await figures('flow=income')).toEqual({ income: 100, expense: 0, total: 1 });
      expect(await figures('flow=internal')).toEqual({ income: 0, expense: 0, total: 0 });
    });

    it('an invoice created or edited while its entity is internal is stored as an expense', async () => {
      const api = await newUser();
      const bill = await createBill(api, { internal: true });
      const created = await createEntry(api, { billId: bill.id, flow: 'income' });
      expect(created.flow).toBe('OUTGOING');
      const other = await createBill(api);
      const edited = await createEntry(api, { billId: other.id, flow: 'income' });
      await updateBill(api, { id: other.id, internal: true });
      // Sending back the invoice unchanged changes nothing; an edit stores it as an expense.
      expect((await editEntry(api, { ...(await getEntry(api, edited.entryId)) })).flow).toBe('INCOMING');
      expect((await editEntry(api, { entryId: edited.entryId, services: 'Transfer' })).flow).toBe('OUTGOING');
      await updateBill(api, { id: other.id, internal: false });
      expect((await getEntry(api, edited.entryId)).flow).toBe('OUTGOING');
    });

    it('archives (status 0) and unarchives (status 1); the invoices follow', async () => {
      const api = await newUser();
      const bill = await createBill(api);
      const entry = await createEntry(api, { billId: bill.id });
      expect((await updateBill(api, { ...bill, status: 0 })).status).toBe(0);
      expect((await getEntry(api, entry.entryId)).archived).toBe(true);
      expect((await updateBill(api, { id: bill.id, status: 'true' })).status).toBe(1);
      expect((await getEntry(api, entry.entryId)).archived).toBe(false);
    });

    it('answers 404 for an unknown id and 400 without an id', async () => {
      const api = await newUser();
      expect((await request(api, 'PUT', '/bills', { id: 99999, name: 'x' })).statusCode).toBe(404);
      expect((await request(api, 'PUT', '/bills', { name: 'x' })).statusCode).toBe(400);
    });
  });
});
