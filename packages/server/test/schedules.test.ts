import type { Schedule, ScheduleList, SchedulePreview } from '@billfold/contract/schedules';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { purgeRecycleBin } from '../src/jobs/recycle-purge.ts';
import { createTestApp, dialects, secondProcess, type TestApp } from './helpers/app.ts';
import {
  type Api,
  createBill,
  createEntry,
  createPayment,
  editEntry,
  listPayments,
  request,
  updateBill,
} from './helpers/domain.ts';
import { signIn, signUp } from './helpers/factories.ts';
import { createSchedule, scheduleData, storedInvoices } from './helpers/schedules.ts';
import { personalLedgerOf } from './helpers/seed.ts';

/** Noon UTC of a date: the clock of a test that happens "on" that day. */
const noon = (date: string) => Date.parse(`${date}T12:00:00Z`);

describe.each(dialects)('recurring invoices on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  /** A new user on `date`. */
  async function userOn(date: string, app: FastifyInstance = t.app): Promise<Api> {
    t.clock.set(noon(date));
    return { app, session: await signUp(app) };
  }

  /** The same user on a later `date`, signed in again (access tokens last 15 minutes). */
  async function on(date: string, api: Api): Promise<Api> {
    t.clock.set(noon(date));
    return { app: api.app, session: await signIn(api.app, api.session) };
  }

  const getSchedule = async (api: Api, id: number) => (await request(api, 'GET', `/schedules/${id}`)).json<Schedule>();

  describe('create and list', () => {
    it('creates the invoices of occurrences up to today at once, with the description filled in', async () => {
      const api = await userOn('2026-11-22');
      const bill = await createBill(api, { name: 'Landlord' });
      const schedule = await createSchedule(api, bill.id, { firstDate: '2026-09-30', dayOfMonth: 31 });
      expect(schedule).toMatchObject({
        entityId: bill.id,
        cadence: 'monthly',
        dayOfMonth: 31,
        amount: 1250,
        flow: 'OUTGOING',
        paused: false,
        createdCount: 2,
        nextDate: '2026-11-30',
      });
      const invoices = await storedInvoices(t.app.db, bill.id);
      expect(invoices.map((i) => [i.date, i.due_date, i.services, i.amount_cents])).toEqual([
        ['2026-09-30', '2026-10-05', 'Rent September 2026', 125000],
        ['2026-10-31', '2026-11-05', 'Rent October 2026', 125000],
      ]);
      const [first] = invoices;
      expect(first && (await request(api, 'GET', `/entries/${first.id}`)).json()).toMatchObject({
        dueDate: '2026-10-05',
      });
      expect(invoices.map((i) => i.invoice_number)).toEqual([1, 2]);

      const list = await request(api, 'GET', `/bills/${bill.id}/schedules`);
      expect(list.statusCode).toBe(200);
      expect(list.json<ScheduleList>().schedules).toEqual([schedule]);
    });

    it('wait: "on the 31st" of a schedule starting in November creates Nov 30 only once it is Nov 30', async () => {
      const api = await userOn('2026-11-22');
      const bill = await createBill(api);
      const schedule = await createSchedule(api, bill.id, { firstDate: '2026-11-01', dayOfMonth: 31 });
      expect(schedule.createdCount).toBe(0);
      expect(schedule.nextDate).toBe('2026-11-30');
      await t.app.schedules.run(noon('2026-11-29'));
      expect(await storedInvoices(t.app.db, bill.id)).toHaveLength(0);
      await t.app.schedules.run(Date.parse('2026-11-30T00:00:01Z'));
      expect((await storedInvoices(t.app.db, bill.id)).map((i) => i.date)).toEqual(['2026-11-30']);
    });

    it('stores an internal entity’s invoices as expenses, as every invoice of it', async () => {
      const api = await userOn('2026-11-22');
      const bill = await createBill(api, { internal: true });
      await createSchedule(api, bill.id, { firstDate: '2026-11-01', flow: 'income' });
      expect((await storedInvoices(t.app.db, bill.id)).map((i) => i.flow)).toEqual(['OUTGOING']);
    });
  });

  describe('validation', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'an unknown placeholder',
        { description: 'Rent {Month}' },
        'Description has an unknown placeholder {Month}: use {date}, {day}, {month}, {year}, {quarter}, {n}.',
      ],
      ['an end date before the first date', { endDate: '2026-11-30' }, 'EndDate must not be before the first date.'],
      [
        'both an end date and a count',
        { endDate: '2027-12-31', count: 3 },
        'Count cannot be set together with endDate.',
      ],
      [
        'a day of the month on a weekly schedule',
        { cadence: 'weekly', dayOfMonth: 3 },
        'DayOfMonth only applies to monthly, quarterly and yearly schedules.',
      ],
      [
        'a cadence it does not know',
        { cadence: 'daily' },
        'Cadence must be one of weekly, monthly, quarterly, yearly.',
      ],
      ['an interval of 0', { interval: 0 }, 'Interval must be a whole number from 1 to 99.'],
      ['a day of the month of 32', { dayOfMonth: 32 }, 'DayOfMonth must be a whole number from 1 to 31.'],
      ['too many due days', { dueDays: 366 }, 'DueDays must be a whole number from 0 to 365.'],
      [
        'an autopay method that is not one of the 12',
        { autopay: 'cash|mail' },
        'Autopay must be one of the payment methods:',
      ],
      [
        'an impossible first date',
        { firstDate: '2026-02-30' },
        'FirstDate must be a date YYYY-MM-DD between 1900-01-01 and 2099-12-31.',
      ],
      ['an amount with three decimals', { amount: 1.234 }, 'Amount'],
    ];
    it.each(cases)('refuses %s with a 400 saying so', async (_name, overrides, message) => {
      const api = await userOn('2026-11-22');
      const bill = await createBill(api);
      const res = await request(api, 'POST', `/bills/${bill.id}/schedules`, { ...scheduleData(), ...overrides });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json<{ message: string }>().message).toContain(message);
      expect(await storedInvoices(t.app.db, bill.id)).toHaveLength(0);
    });

    it('refuses a schedule with no occurrence between its first and end date', async () => {
      const api = await userOn('2026-11-22');
      const bill = await createBill(api);
      const res = await request(api, 'POST', `/bills/${bill.id}/schedules`, {
        ...scheduleData({ firstDate: '2026-12-02', dayOfMonth: 1, endDate: '2026-12-31' }),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toBe(
        'This schedule has no occurrence between its first date and its end date.',
      );
    });

    it('refuses a new schedule that would create more than 120 invoices at once, and creates 120', async () => {
      const api = await userOn('2026-11-22');
      const bill = await createBill(api);
      const tooMany = await request(
        api,
        'POST',
        `/bills/${bill.id}/schedules`,
        scheduleData({ firstDate: '2016-10-01' }),
      );
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json<{ message: string }>().message).toBe(
        'This schedule would create more than 120 invoices dated up to today at once. Pick a later first date.',
      );
      const capped = await createSchedule(api, bill.id, { firstDate: '2016-10-01', count: 24 });
      expect(capped.createdCount).toBe(24);
      // Its first 22 stand beside the capped schedule's invoices of the same dates and amount: asked to create them.
      const ten = await createSchedule(api, bill.id, { firstDate: '2016-12-01', duplicates: 'create' });
      expect(ten.createdCount).toBe(120);
      expect(await storedInvoices(t.app.db, bill.id)).toHaveLength(144);
    });

    it('409 on an archived or recycled entity, 404 on an unknown one', async () => {
      const api = await userOn('2026-11-22');
      const archived = await createBill(api, { status: 0 });
      const recycled = await createBill(api);
      await updateBill(api, { id: recycled.id, recycle: true });
      const archivedRes = await request(api, 'POST', `/bills/${archived.id}/schedules`, scheduleData());
      expect(archivedRes.statusCode).toBe(409);
      expect(archivedRes.json<{ message: string }>().message).toMatch(/archived/);
      const recycledRes = await request(api, 'POST', `/bills/${recycled.id}/schedules`, scheduleData());
      expect(recycledRes.statusCode).toBe(409);
      expect(recycledRes.json<{ message: string }>().message).toBe(
        'This entity is in the recycle bin. Restore it first.',
      );
      expect((await request(api, 'POST', '/bills/999999/schedules', scheduleData())).statusCode).toBe(404);
      expect((await request(api, 'GET', '/bills/999999/schedules')).statusCode).toBe(404);
    });
  });

  describe('past first dates: preview and invoices that already exist', () => {
    const code = (res: { json: <T>() => T }) => res.json<{ code: string }>().code;

    it('the preview tells what creating would make at once, the automatic payments and the duplicates, and changes nothing', async () => {
      const api = await userOn('2026-11-22');
      const bill = await createBill(api, { name: 'Landlord' });
      const existing = await createEntry(api, { billId: bill.id, date: '2026-10-01', flow: 'expense', amount: 1250 });
      // Not duplicates: another amount, another date, one in the recycle bin.
      await createEntry(api, { billId: bill.id, date: '2026-09-01', flow: 'expense', amount: 1200 });
      const recycled = await createEntry(api, { billId: bill.id, date: '2026-11-01', flow: 'expense', amount: 1250 });
      await editEntry(api, { ...recycled, recycle: true });
      const body = scheduleData({ firstDate: '2026-09-01', autopay: 'bank|ach', dueDays: 25 });
      const res = await request(api, 'POST', `/bills/${bill.id}/schedules/preview`, body);
      expect(res.statusCode).toBe(200);
      expect(res.json<SchedulePreview>().invoices).toEqual([
        {
          date: '2026-09-01',
          dueDate: '2026-09-26',
          amount: 1250,
          description: 'Rent September 2026',
          autopay: true,
          duplicateOf: null,
        },
        {
          date: '2026-10-01',
          dueDate: '2026-10-26',
          amount: 1250,
          description: 'Rent October 2026',
          autopay: true,
          duplicateOf: { entryId: existing.entryId, invoiceId: existing.invoiceId },
        },
        {
          date: '2026-11-01',
          dueDate: '2026-11-26',
          amount: 1250,
          description: 'Rent November 2026',
          autopay: false,
          duplicateOf: null,
        },
      ]);
      expect((await request(api, 'GET', `/bills/${bill.id}/schedules`)).json<ScheduleList>().schedules).toEqual([]);
      expect(await storedInvoices(t.app.db, bill.id)).toHaveLength(3);
      // A first date after today creates nothing at once; the preview's rules are the save's.
      const later = await request(api, 'POST', `/bills/${bill.id}/schedules/preview`, scheduleData());
      expect(later.json<SchedulePreview>().invoices).toEqual([]);
      const bad = await request(api, 'POST', `/bills/${bill.id}/schedules/preview`, scheduleData({ interval: 0 }));
      expect(bad.statusCode).toBe(400);
    });

    it('refuses to create an invoice beside an existing one of the same date and amount without being told', async () => {
      const api = await userOn('2026-11-22');
      const bill = await createBill(api);
      await createEntry(api, { billId: bill.id, date: '2026-10-01', flow: 'expense', amount: 1250 });
      const res = await request(api, 'POST', `/bills/${bill.id}/schedules`, scheduleData({ firstDate: '2026-09-01' }));
      expect(res.statusCode).toBe(409);
      expect(code(res)).toBe('SCHEDULE_DUPLICATES');
      expect(res.json<{ message: string }>().message).toBe(
        '1 invoice this schedule would create now already exists for this entity with the same date and amount (2026-10-01). Say whether to skip it or create it anyway.',
      );
      expect((await request(api, 'GET', `/bills/${bill.id}/schedules`)).json<ScheduleList>().schedules).toEqual([]);
      expect(await storedInvoices(t.app.db, bill.id)).toHaveLength(1);
      const bad = await request(api, 'POST', `/bills/${bill.id}/schedules`, {
        ...scheduleData({ firstDate: '2026-09-01' }),
        duplicates: 'maybe',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json<{ message: string }>().message).toBe('Duplicates must be one of skip, create.');
    });

    it('skip: the existing invoice stands for its occurrence, counted and numbered, never paid automatically', async () => {
      const api = await userOn('2026-11-22');
      const bill = await createBill(api);
      const existing = await createEntry(api, { billId: bill.id, date: '2026-10-01', flow: 'expense', amount: 1250 });
      const schedule = await createSchedule(api, bill.id, {
        firstDate: '2026-09-01',
        count: 4,
        description: '#{n} {month}',
        autopay: 'bank|ach',
        duplicates: 'skip',
      });
      expect(schedule).toMatchObject({ createdCount: 3, nextDate: '2026-12-01' });
      const invoices = await storedInvoices(t.app.db, bill.id);
      expect(invoices.map((i) => [i.date, i.services, i.paid_cents])).toEqual([
        ['2026-09-01', '#1 September', 125000],
        ['2026-10-01', 'Consulting', 0],
        ['2026-11-01', '#3 November', 125000],
      ]);
      expect(invoices[1]?.id).toBe(existing.entryId);
      // The job, in this process or another, creates no second October; the count ends after December's.
      await t.app.schedules.run(noon('2027-02-01'));
      expect((await storedInvoices(t.app.db, bill.id)).map((i) => [i.date, i.services])).toEqual([
        ['2026-09-01', '#1 September'],
        ['2026-10-01', 'Consulting'],
        ['2026-11-01', '#3 November'],
        ['2026-12-01', '#4 December'],
      ]);
      expect(await getSchedule(api, schedule.id)).toMatchObject({ createdCount: 4, nextDate: null });
    });

    it('create: a second invoice of that date and amount, as asked', async () => {
      const api = await userOn('2026-11-22');
      const bill = await createBill(api);
      await createEntry(api, { billId: bill.id, date: '2026-11-01', flow: 'expense', amount: 1250 });
      const schedule = await createSchedule(api, bill.id, { firstDate: '2026-11-01', duplicates: 'create' });
      expect(schedule.createdCount).toBe(1);
      expect((await storedInvoices(t.app.db, bill.id)).map((i) => i.date)).toEqual(['2026-11-01', '2026-11-01']);
    });

    it('an edit that creates today’s invoice beside an existing one asks too, and its preview says so', async () => {
      let api = await userOn('2026-11-22');
      const bill = await createBill(api);
      const schedule = await createSchedule(api, bill.id, { firstDate: '2026-12-01' });
      api = await on('2026-12-15', api);
      const today = await createEntry(api, { billId: bill.id, date: '2026-12-15', flow: 'expense', amount: 1300 });
      const body = scheduleData({ firstDate: '2026-12-01', dayOfMonth: 15, amount: 1300 });
      // The job has not run since the 1st: December 1st is still to create, and it is no duplicate.
      const preview = await request(api, 'POST', `/schedules/${schedule.id}/preview`, body);
      expect(preview.statusCode).toBe(200);
      expect(preview.json<SchedulePreview>().invoices).toEqual([
        {
          date: '2026-12-15',
          dueDate: '2026-12-20',
          amount: 1300,
          description: 'Rent December 2026',
          autopay: false,
          duplicateOf: { entryId: today.entryId, invoiceId: today.invoiceId },
        },
      ]);
      const refused = await request(api, 'PUT', `/schedules/${schedule.id}`, body);
      expect(refused.statusCode).toBe(409);
      expect(code(refused)).toBe('SCHEDULE_DUPLICATES');
      expect((await getSchedule(api, schedule.id)).dayOfMonth).toBe(1);
      const saved = await request(api, 'PUT', `/schedules/${schedule.id}`, { ...body, duplicates: 'skip' });
      expect(saved.statusCode).toBe(200);
      expect(saved.json<Schedule>()).toMatchObject({ createdCount: 1, nextDate: '2027-01-15' });
      expect((await storedInvoices(t.app.db, bill.id)).map((i) => i.id)).toEqual([today.entryId]);
    });

    it('the preview of an edit applies the edit’s rules: a long-running schedule is no "too many at once"', async () => {
      const api = await userOn('2026-11-22');
      const bill = await createBill(api);
      // Nearly twelve years of months, but a count of 3: the three invoices of 2015 are created at once.
      const schedule = await createSchedule(api, bill.id, { firstDate: '2015-01-01', count: 3 });
      expect(schedule).toMatchObject({ createdCount: 3, nextDate: null });
      // Without the count, an edit goes on from today: nothing is dated up to today, so nothing is made at once.
      const body = scheduleData({ firstDate: '2015-01-01' });
      const preview = await request(api, 'POST', `/schedules/${schedule.id}/preview`, body);
      expect(preview.statusCode).toBe(200);
      expect(preview.json<SchedulePreview>().invoices).toEqual([]);
      const saved = await request(api, 'PUT', `/schedules/${schedule.id}`, body);
      expect(saved.statusCode).toBe(200);
      expect(saved.json<Schedule>()).toMatchObject({ createdCount: 3, nextDate: '2026-12-01' });
      expect(await storedInvoices(t.app.db, bill.id)).toHaveLength(3);
      // A new schedule of the same body would create them all at once: that one is refused, preview and save alike.
      for (const path of [`/bills/${bill.id}/schedules/preview`, `/bills/${bill.id}/schedules`]) {
        const res = await request(api, 'POST', path, body);
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toContain('invoices dated up to today at once');
      }
    });

    it('editing a paused schedule creates nothing, so it asks about nothing', async () => {
      let api = await userOn('2026-11-22');
      const bill = await createBill(api);
      const schedule = await createSchedule(api, bill.id, { firstDate: '2026-12-01' });
      await request(api, 'POST', `/schedules/${schedule.id}/pause`);
      api = await on('2026-12-15', api);
      await createEntry(api, { billId: bill.id, date: '2026-12-15', flow: 'expense', amount: 1250 });
      const body = scheduleData({ firstDate: '2026-12-01', dayOfMonth: 15 });
      const preview = await request(api, 'POST', `/schedules/${schedule.id}/preview`, body);
      expect(preview.json<SchedulePreview>().invoices).toEqual([]);
      const saved = await request(api, 'PUT', `/schedules/${schedule.id}`, body);
      expect(saved.statusCode).toBe(200);
      expect(await storedInvoices(t.app.db, bill.id)).toHaveLength(1);
    });
  });

  describe('edit, pause, resume, delete', () => {
    it('an edit changes future occurrences only', async () => {
      let api = await userOn('2026-11-22');
      const bill = await createBill(api);
      const schedule = await createSchedule(api, bill.id, { firstDate: '2026-10-01' });
      expect(schedule.createdCount).toBe(2);
      const res = await request(api, 'PUT', `/schedules/${schedule.id}`, {
        ...scheduleData({
          firstDate: '2026-10-01',
          amount: 1300,
          description: 'Rent {month} (new lease)',
          dayOfMonth: 15,
        }),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json<Schedule>()).toMatchObject({
        amount: 1300,
        dayOfMonth: 15,
        nextDate: '2026-12-15',
        createdCount: 2,
      });
      api = await on('2026-12-16', api);
      await t.app.schedules.run(t.clock.now());
      const invoices = await storedInvoices(t.app.db, bill.id);
      expect(invoices.map((i) => [i.date, i.services, i.amount_cents])).toEqual([
        ['2026-10-01', 'Rent October 2026', 125000],
        ['2026-11-01', 'Rent November 2026', 125000],
        ['2026-12-15', 'Rent December (new lease)', 130000],
      ]);
    });

    it('pause creates nothing; resume passes over what fell due while paused', async () => {
      let api = await userOn('2026-11-22');
      const bill = await createBill(api);
      const schedule = await createSchedule(api, bill.id, { cadence: 'weekly', firstDate: '2026-11-23' });
      const paused = await request(api, 'POST', `/schedules/${schedule.id}/pause`);
      expect(paused.json<Schedule>()).toMatchObject({ paused: true, nextDate: null });
      api = await on('2026-12-08', api);
      await t.app.schedules.run(t.clock.now());
      expect(await storedInvoices(t.app.db, bill.id)).toHaveLength(0);
      const resumed = await request(api, 'POST', `/schedules/${schedule.id}/resume`);
      expect(resumed.json<Schedule>()).toMatchObject({ paused: false, nextDate: '2026-12-14', createdCount: 0 });
      api = await on('2026-12-14', api);
      await t.app.schedules.run(t.clock.now());
      expect((await storedInvoices(t.app.db, bill.id)).map((i) => i.date)).toEqual(['2026-12-14']);
    });

    it('ends after its count of invoices', async () => {
      const api = await userOn('2026-11-22');
      const bill = await createBill(api);
      const schedule = await createSchedule(api, bill.id, { cadence: 'quarterly', firstDate: '2025-11-01', count: 3 });
      expect(schedule).toMatchObject({ createdCount: 3, nextDate: null });
      expect((await storedInvoices(t.app.db, bill.id)).map((i) => i.date)).toEqual([
        '2025-11-01',
        '2026-02-01',
        '2026-05-01',
      ]);
    });

    it('delete removes the schedule for good and keeps its invoices', async () => {
      const api = await userOn('2026-11-22');
      const bill = await createBill(api);
      const schedule = await createSchedule(api, bill.id, { firstDate: '2026-11-01' });
      const res = await request(api, 'DELETE', `/schedules/${schedule.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'Schedule deleted.' });
      expect((await request(api, 'GET', `/schedules/${schedule.id}`)).statusCode).toBe(404);
      expect((await request(api, 'DELETE', `/schedules/${schedule.id}`)).statusCode).toBe(404);
      expect(await storedInvoices(t.app.db, bill.id)).toHaveLength(1);
      await t.app.schedules.run(noon('2027-03-01'));
      expect(await storedInvoices(t.app.db, bill.id)).toHaveLength(1);
    });
  });

  describe('archived and recycled entities', () => {
    it('an archived entity’s schedules are read only and pass over what falls due; unarchived, they go on', async () => {
      let api = await userOn('2026-11-22');
      const bill = await createBill(api);
      const schedule = await createSchedule(api, bill.id, { firstDate: '2026-12-01' });
      await updateBill(api, { id: bill.id, status: 0 });
      for (const [method, url] of [
        ['POST', `/schedules/${schedule.id}/pause`],
        ['PUT', `/schedules/${schedule.id}`],
        ['DELETE', `/schedules/${schedule.id}`],
      ] as const) {
        const res = await request(api, method, url, method === 'PUT' ? scheduleData() : undefined);
        expect(res.statusCode, `${method} ${url}`).toBe(409);
      }
      expect((await request(api, 'GET', `/bills/${bill.id}/schedules`)).statusCode).toBe(200);
      api = await on('2027-01-15', api);
      await t.app.schedules.run(t.clock.now());
      expect(await storedInvoices(t.app.db, bill.id)).toHaveLength(0);
      expect((await getSchedule(api, schedule.id)).nextDate).toBe('2027-02-01');
      await updateBill(api, { id: bill.id, status: 1 });
      await t.app.schedules.run(t.clock.now());
      expect(await storedInvoices(t.app.db, bill.id)).toHaveLength(0);
      api = await on('2027-02-01', api);
      await t.app.schedules.run(t.clock.now());
      expect((await storedInvoices(t.app.db, bill.id)).map((i) => i.date)).toEqual(['2027-02-01']);
    });

    it('a recycled entity hides its schedules, which create nothing; restored, they come back', async () => {
      let api = await userOn('2026-11-22');
      const bill = await createBill(api);
      const schedule = await createSchedule(api, bill.id, { firstDate: '2026-12-01' });
      await updateBill(api, { id: bill.id, recycle: true });
      expect((await request(api, 'GET', `/bills/${bill.id}/schedules`)).statusCode).toBe(404);
      expect((await request(api, 'GET', `/schedules/${schedule.id}`)).statusCode).toBe(404);
      expect((await request(api, 'POST', `/schedules/${schedule.id}/pause`)).statusCode).toBe(404);
      api = await on('2026-12-02', api);
      await t.app.schedules.run(t.clock.now());
      expect(await storedInvoices(t.app.db, bill.id)).toHaveLength(0);
      await updateBill(api, { id: bill.id, recycle: false });
      expect((await getSchedule(api, schedule.id)).nextDate).toBe('2027-01-01');
    });
  });

  it('purging an entity from the bin deletes its schedules; purging a created invoice keeps the claim', async () => {
    const api = await userOn('2026-11-22');
    const bill = await createBill(api);
    const kept = await createBill(api);
    const schedule = await createSchedule(api, bill.id, { firstDate: '2026-11-01' });
    const other = await createSchedule(api, kept.id, { firstDate: '2026-10-01' });
    const [invoice] = await storedInvoices(t.app.db, kept.id);
    if (!invoice) throw new Error('no invoice');
    await editEntry(api, { entryId: invoice.id, recycle: true });
    await updateBill(api, { id: bill.id, recycle: true });
    await purgeRecycleBin(t.app.db, noon('2026-12-10'));
    const left = await t.app.db
      .selectFrom('schedules')
      .select('id')
      .where('id', 'in', [schedule.id, other.id])
      .execute();
    expect(left.map((r) => r.id)).toEqual([other.id]);
    const claims = await t.app.db
      .selectFrom('schedule_occurrences')
      .select(['occurrence_date', 'entry_id'])
      .where('schedule_id', 'in', [schedule.id, other.id])
      .orderBy('occurrence_date')
      .execute();
    expect(claims.map((c) => [c.occurrence_date, c.entry_id === null])).toEqual([
      ['2026-10-01', true],
      ['2026-11-01', false],
    ]);
    // The purged occurrence is not created again.
    await t.app.schedules.run(noon('2026-12-10'));
    expect((await storedInvoices(t.app.db, kept.id)).map((i) => i.date)).toEqual(['2026-11-01', '2026-12-01']);
  });

  describe('automatic payments', () => {
    it('records the balance on the due date, once, with the method', async () => {
      let api = await userOn('2026-11-22');
      const bill = await createBill(api);
      await createSchedule(api, bill.id, { firstDate: '2026-12-01', dueDays: 10, autopay: 'bank|ach', amount: 80 });
      api = await on('2026-12-01', api);
      await t.app.schedules.run(t.clock.now());
      const [invoice] = await storedInvoices(t.app.db, bill.id);
      if (!invoice) throw new Error('no invoice');
      await createPayment(api, { entryId: invoice.id, amount: 30, date: '2026-12-03' });
      api = await on('2026-12-10', api);
      await t.app.schedules.run(t.clock.now());
      expect(await listPayments(api, invoice.id)).toHaveLength(1);
      api = await on('2026-12-11', api);
      await t.app.schedules.run(t.clock.now());
      await t.app.schedules.run(t.clock.now());
      const payments = await listPayments(api, invoice.id);
      expect(payments.map((p) => [p.date, p.amount, p.type, p.medium, p.autopay])).toEqual([
        ['2026-12-11', 50, 'bank', 'ach', true],
        ['2026-12-03', 30, 'bank', 'ach', false],
      ]);
      expect((await storedInvoices(t.app.db, bill.id))[0]?.paid_cents).toBe(8000);
    });

    it('records nothing for an invoice deleted or paid before its due date', async () => {
      let api = await userOn('2026-11-22');
      const bill = await createBill(api);
      await createSchedule(api, bill.id, {
        firstDate: '2026-11-01',
        cadence: 'weekly',
        dueDays: 30,
        autopay: 'credit|web',
      });
      const invoices = await storedInvoices(t.app.db, bill.id);
      expect(invoices).toHaveLength(4);
      const [first, second] = invoices;
      if (!first || !second) throw new Error('no invoices');
      await editEntry(api, { entryId: first.id, recycle: true });
      await createPayment(api, { entryId: second.id, amount: 1250 });
      api = await on('2026-12-16', api);
      await t.app.schedules.run(t.clock.now());
      expect(await listPayments(api, second.id)).toHaveLength(1);
      const third = invoices[2];
      expect(third && (await listPayments(api, third.id)).map((p) => [p.date, p.amount, p.autopay])).toEqual([
        ['2026-12-15', 1250, true],
      ]);
      expect((await request(api, 'GET', `/entries/${first.id}?filter=bypass`)).json()).toMatchObject({ status: false });
    });
  });

  describe('the job', () => {
    // Run totals count every schedule of the database: these tests start from an empty one.
    beforeEach(async () => {
      await t.close();
      t = await createTestApp(dialect);
    });

    it('back-fills what fell due while no server ran, with consecutive invoice numbers', async () => {
      const api = await userOn('2026-11-22');
      const bill = await createBill(api);
      await createSchedule(api, bill.id, {
        cadence: 'weekly',
        interval: 2,
        firstDate: '2026-11-30',
        description: '#{n} {date}',
      });
      expect(await storedInvoices(t.app.db, bill.id)).toHaveLength(0);
      const result = await t.app.schedules.run(noon('2027-03-01'));
      expect(result).toEqual({ created: 7, skipped: 0, autopaid: 0, adopted: 0 });
      const invoices = await storedInvoices(t.app.db, bill.id);
      expect(invoices.map((i) => i.services)).toEqual([
        '#1 2026-11-30',
        '#2 2026-12-14',
        '#3 2026-12-28',
        '#4 2027-01-11',
        '#5 2027-01-25',
        '#6 2027-02-08',
        '#7 2027-02-22',
      ]);
      expect(invoices.map((i) => i.invoice_number)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    });

    it('creates each occurrence and records each automatic payment exactly once with two processes at once', async () => {
      const other = await secondProcess(t);
      try {
        const api = await userOn('2026-11-22');
        const bills = await Promise.all([createBill(api), createBill(api), createBill(api)]);
        for (const bill of bills) {
          await createSchedule(api, bill.id, {
            cadence: 'weekly',
            firstDate: '2026-12-01',
            autopay: 'debit|web',
            dueDays: 3,
          });
        }
        const now = noon('2027-06-01');
        const runs = await Promise.all([t.app, other, t.app, other].map((app) => app.schedules.run(now)));
        const total = (key: 'created' | 'autopaid') => runs.reduce((sum, r) => sum + r[key], 0);
        // 2026-12-01 .. 2027-06-01 weekly: 27 occurrences per schedule.
        expect(total('created')).toBe(81);
        // Each schedule's last invoice (2027-06-01) is due on 2027-06-04: not paid yet.
        expect(total('autopaid')).toBe(78);
        const numbers: number[] = [];
        for (const bill of bills) {
          const invoices = await storedInvoices(t.app.db, bill.id);
          expect(new Set(invoices.map((i) => i.date)).size).toBe(27);
          expect(invoices).toHaveLength(27);
          expect(invoices.map((i) => i.paid_cents)).toEqual([...Array(26).fill(125000), 0]);
          numbers.push(...invoices.map((i) => i.invoice_number));
        }
        expect(numbers.sort((a, b) => a - b)).toEqual(Array.from({ length: 81 }, (_, i) => i + 1));
        const payments = await t.app.db
          .selectFrom('payments')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('ledger_id', '=', await personalLedgerOf(t.app.db, api.session.username))
          .executeTakeFirstOrThrow();
        expect(Number(payments.n)).toBe(78);
      } finally {
        await other.close();
      }
    });
  });
});
