import type { EntryList } from '@billfold/contract/entries';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
} from './helpers/domain.ts';
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

  describe('filters and sort', () => {
    let user: Api;
    const numbers = async (query: string) =>
      (await request(user, 'GET', `/entries?pageSize=100&${query}`)).json<EntryList>().entries.map((e) => e.invoiceId);

    beforeAll(async () => {
      user = { app: t.app, session: await signUp(t.app) };
      const bill = await createBill(user);
      const make = (date: string, dueDate: string | null, amount = 100) =>
        createEntry(user, { billId: bill.id, date, dueDate, amount, flow: 'expense' });
      await make('2026-10-01', '2026-11-01'); // 1: overdue on 2026-11-22
      await make('2026-10-01', '2026-11-21'); // 2: overdue, yesterday
      await make('2026-11-01', '2026-11-22'); // 3: due today
      await make('2026-11-01', '2026-11-29'); // 4: due in 7 days
      await make('2026-11-01', '2026-12-22', 50); // 5: due in 30 days
      await make('2026-11-01', null); // 6: no due date
      const paid = await make('2026-10-01', '2026-11-02'); // 7: paid, so never overdue
      await request(user, 'POST', '/payments', {
        entryId: paid.entryId,
        date: '2026-11-02',
        amount: 100,
        type: 'bank',
        medium: 'ach',
      });
    });

    it('overdue: due before today and not paid; today is the client’s date, else the server’s', async () => {
      expect(await numbers('due=overdue&sortField=invoiceId&sortOrder=asc')).toEqual([1, 2]);
      expect(await numbers('due=overdue&today=2026-11-22&sortField=invoiceId&sortOrder=asc')).toEqual([1, 2]);
      expect(await numbers('due=overdue&today=2026-11-23&sortField=invoiceId&sortOrder=asc')).toEqual([1, 2, 3]);
      expect(await numbers('due=overdue&today=2026-11-01&sortField=invoiceId&sortOrder=asc')).toEqual([]);
    });

    it('upcoming: due from today to today + dueWithin days (30 without it), not paid', async () => {
      const asc = 'sortField=invoiceId&sortOrder=asc';
      expect(await numbers(`due=upcoming&dueWithin=0&${asc}`)).toEqual([3]);
      expect(await numbers(`due=upcoming&dueWithin=7&${asc}`)).toEqual([3, 4]);
      expect(await numbers(`due=upcoming&${asc}`)).toEqual([3, 4, 5]);
      expect(await numbers(`due=upcoming&dueWithin=6&today=2026-11-23&${asc}`)).toEqual([4]);
    });

    it('sorts by due date with invoices without one last ascending and first descending', async () => {
      expect(await numbers('sortField=dueDate&sortOrder=asc')).toEqual([1, 7, 2, 3, 4, 5, 6]);
      expect(await numbers('sortField=dueDate&sortOrder=desc')).toEqual([6, 5, 4, 3, 2, 7, 1]);
    });

    it('the stats and the export read the same filter', async () => {
      const stats = (await request(user, 'GET', '/entries/stats?due=upcoming&dueWithin=30')).json();
      expect(stats).toMatchObject({ totalExpenseAmount: 250, totalExpenseUnpaid: 250 });
      const csv = (await request(user, 'GET', '/entries/export?due=overdue&sortField=dueDate&sortOrder=asc')).body;
      const lines = csv.trim().split('\r\n');
      const due = (lines[0] ?? '').split(',').indexOf('Due Date');
      expect(due).toBeGreaterThan(0);
      expect(lines.slice(1).map((line) => [line.split(',')[0], line.split(',')[due]])).toEqual([
        ['1', '2026-11-01'],
        ['2', '2026-11-21'],
      ]);
    });

    it.each([
      ['an unknown due filter', 'due=soon'],
      ['dueWithin without due=upcoming', 'due=overdue&dueWithin=7'],
      ['dueWithin above 366', 'due=upcoming&dueWithin=367'],
      ['a negative dueWithin', 'due=upcoming&dueWithin=-1'],
      ['an impossible today', 'due=overdue&today=2026-02-30'],
    ])('answers 400 for %s', async (_label, query) => {
      const res = await request(user, 'GET', `/entries?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^Query parameter (due|dueWithin|today) /);
    });
  });

  describe('GET /entries/due-summary', () => {
    it('counts and sums what is owed per window, lists the first invoices, leaves out paid and archived', async () => {
      const user: Api = { app: t.app, session: await signUp(t.app) };
      const bill = await createBill(user);
      const archivedBill = await createBill(user);
      const make = (dueDate: string, amount: number, flow = 'expense', billId = bill.id) =>
        createEntry(user, { billId, date: '2026-10-01', dueDate, amount, flow });
      const old = await make('2026-10-15', 10);
      const yesterday = await make('2026-11-21', 20, 'income');
      const today = await make('2026-11-22', 30);
      const week = await make('2026-11-29', 40.5);
      const month = await make('2026-12-22', 50, 'income');
      await make('2026-12-23', 60); // after the 30 days
      const partly = await make('2026-11-25', 100);
      await createPayment(user, { entryId: partly.entryId, amount: 25 });
      const paid = await make('2026-11-01', 70);
      await createPayment(user, { entryId: paid.entryId, amount: 70 });
      await make('2026-11-01', 80, 'expense', archivedBill.id);
      await updateBill(user, { id: archivedBill.id, status: 0 });

      const res = await request(user, 'GET', '/entries/due-summary');
      expect(res.statusCode).toBe(200);
      const summary = res.json();
      const ids = (g: { entries: { entryId: number }[] }) => g.entries.map((e) => e.entryId);
      expect(summary.today).toBe('2026-11-22');
      expect(summary.overdue).toMatchObject({ count: 2, toPay: 10, toCollect: 20 });
      expect(ids(summary.overdue)).toEqual([old.entryId, yesterday.entryId]);
      expect(summary.next7).toMatchObject({ count: 3, toPay: 30 + 40.5 + 75, toCollect: 0 });
      expect(ids(summary.next7)).toEqual([today.entryId, partly.entryId, week.entryId]);
      expect(summary.next30).toMatchObject({ count: 4, toPay: 30 + 40.5 + 75, toCollect: 50 });
      expect(ids(summary.next30)).toEqual([today.entryId, partly.entryId, week.entryId, month.entryId]);
      expect(summary.next30.entries[0]).toMatchObject({ dueDate: '2026-11-22', status: false });

      // The client's own date moves every window.
      const later = (await request(user, 'GET', '/entries/due-summary?today=2026-11-23')).json();
      expect(later.overdue).toMatchObject({ count: 3, toPay: 40, toCollect: 20 });
      expect(ids(later.overdue)).toEqual([old.entryId, yesterday.entryId, today.entryId]);
      expect((await request(user, 'GET', '/entries/due-summary?today=2026-13-01')).statusCode).toBe(400);
    });

    it('lists at most five invoices a group and counts them all', async () => {
      const user: Api = { app: t.app, session: await signUp(t.app) };
      const bill = await createBill(user);
      for (let day = 1; day <= 7; day++) {
        await createEntry(user, { billId: bill.id, date: '2026-10-01', dueDate: `2026-11-0${day}`, amount: 1 });
      }
      const summary = (await request(user, 'GET', '/entries/due-summary')).json();
      expect(summary.overdue.count).toBe(7);
      expect(summary.overdue.entries.map((e: { dueDate: string }) => e.dueDate)).toEqual([
        '2026-11-01',
        '2026-11-02',
        '2026-11-03',
        '2026-11-04',
        '2026-11-05',
      ]);
    });

    it('needs a session', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/entries/due-summary' })).statusCode).toBe(401);
    });
  });
});
