import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { type Api, createBill, createEntry, editEntry, getEntry, request } from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';

const DUE_BEFORE_DATE = 'Due date must not be before the invoice date.';

describe.each(dialects)('due dates of invoices on %s', (dialect) => {
  let t: TestApp;
  let api: Api;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    api = { app: t.app, session: await signUp(t.app) };
  });
  afterAll(() => t.close());

  describe('create and read', () => {
    it('stores a due date and shows it on the invoice; none is null', async () => {
      const due = await createEntry(api, { date: '2026-11-01', dueDate: '2026-11-30' });
      expect(due.dueDate).toBe('2026-11-30');
      expect((await getEntry(api, due.entryId)).dueDate).toBe('2026-11-30');
      expect((await createEntry(api, {})).dueDate).toBeNull();
      expect((await createEntry(api, { dueDate: null })).dueDate).toBeNull();
      expect((await createEntry(api, { dueDate: '' })).dueDate).toBeNull();
    });

    it('accepts a due date on the invoice date itself', async () => {
      expect((await createEntry(api, { date: '2026-11-01', dueDate: '2026-11-01' })).dueDate).toBe('2026-11-01');
    });

    it('refuses a due date before the invoice date with a clear message', async () => {
      const bill = await createBill(api);
      const body = { billId: bill.id, date: '2026-11-10', flow: 'expense', amount: 5, dueDate: '2026-11-09' };
      const res = await request(api, 'POST', '/entries/new', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(DUE_BEFORE_DATE);
    });

    it.each([
      ['an impossible date', '2026-02-30'],
      ['a date after 2099', '2100-01-01'],
      ['another format', '11/30/2026'],
      ['a number', 20261130],
    ])('refuses a due date that is %s', async (_label, dueDate) => {
      const bill = await createBill(api);
      const body = { billId: bill.id, date: '2026-11-01', flow: 'expense', amount: 5, dueDate };
      const res = await request(api, 'POST', '/entries/new', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^DueDate must be /);
    });
  });

  describe('edit', () => {
    it('sets, changes and removes a due date', async () => {
      const entry = await createEntry(api, { date: '2026-11-01' });
      expect((await editEntry(api, { entryId: entry.entryId, dueDate: '2026-11-15' })).dueDate).toBe('2026-11-15');
      expect((await editEntry(api, { entryId: entry.entryId, dueDate: '2026-12-01' })).dueDate).toBe('2026-12-01');
      expect((await editEntry(api, { entryId: entry.entryId, services: 'x' })).dueDate).toBe('2026-12-01');
      expect((await editEntry(api, { entryId: entry.entryId, dueDate: null })).dueDate).toBeNull();
    });

    it('refuses a due date before the stored date, and a date after the new due date', async () => {
      const entry = await createEntry(api, { date: '2026-11-10', dueDate: '2026-11-20' });
      const early = await request(api, 'PUT', '/entries/edit', { entryId: entry.entryId, dueDate: '2026-11-09' });
      expect(early.statusCode).toBe(400);
      expect(early.json().message).toBe(DUE_BEFORE_DATE);
      const both = { entryId: entry.entryId, date: '2026-11-25', dueDate: '2026-11-21' };
      const late = await request(api, 'PUT', '/entries/edit', both);
      expect(late.statusCode).toBe(400);
      expect(late.json().message).toContain(DUE_BEFORE_DATE);
      expect((await getEntry(api, entry.entryId)).dueDate).toBe('2026-11-20');
    });

    it('moves the due date with the date when an edit does not send one (the terms stay)', async () => {
      const entry = await createEntry(api, { date: '2026-11-10', dueDate: '2026-11-24' });
      const later = await editEntry(api, { entryId: entry.entryId, date: '2026-12-01' });
      expect(later).toMatchObject({ date: '2026-12-01', dueDate: '2026-12-15' });
      const earlier = await editEntry(api, { entryId: entry.entryId, date: '2026-02-20' });
      expect(earlier).toMatchObject({ date: '2026-02-20', dueDate: '2026-03-06' });
      const capped = await editEntry(api, { entryId: entry.entryId, date: '2099-12-30' });
      expect(capped).toMatchObject({ date: '2099-12-30', dueDate: '2099-12-31' });
    });

    it('keeps the due date when a client sends the whole invoice back unchanged (the restore flow)', async () => {
      const entry = await createEntry(api, { date: '2026-11-10', dueDate: '2026-11-24' });
      const deleted = await editEntry(api, { entryId: entry.entryId, recycle: true });
      const { dueDate: _unknownToSpecClients, ...asSpecClientRead } = deleted;
      const restored = await editEntry(api, { ...asSpecClientRead, recycle: false });
      expect(restored).toMatchObject({ recycle: false, date: '2026-11-10', dueDate: '2026-11-24' });
    });
  });
});
