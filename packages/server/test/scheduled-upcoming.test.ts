import { addDays } from '@billfold/contract/dates';
import { DUE_SOON_DAYS, type DueSummary } from '@billfold/contract/due';
import { fromCents } from '@billfold/contract/money';
import nodeIcal, { type VEvent } from 'node-ical';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { type Api, createBill, createEntry, request, updateBill } from './helpers/domain.ts';
import { signIn, signUp } from './helpers/factories.ts';
import { createSchedule } from './helpers/schedules.ts';

/** Noon UTC of a date: the clock of a test that happens "on" that day. */
const noon = (date: string) => Date.parse(`${date}T12:00:00Z`);

/**
 * The Home panel's summary and the calendar feed show what schedules will create and have not created yet
 * (docs/decisions/1012-scheduled-occurrences-in-upcoming.md), and the summary's `later` group is disjoint from
 * `next7`.
 */
describe.each(dialects)('scheduled invoices in the upcoming summary and the calendar feed on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const summaryOf = async (api: Api, today?: string) => {
    const res = await request(api, 'GET', `/entries/due-summary${today ? `?today=${today}` : ''}`);
    expect(res.statusCode).toBe(200);
    return res.json<DueSummary>();
  };
  const dues = (g: DueSummary['next7']) => g.scheduled.invoices.map((s) => `${s.name} ${s.date}→${s.dueDate}`);

  /** A user on 2026-11-22 with schedules of every kind the summary must tell apart. */
  async function household() {
    t.clock.set(noon('2026-11-22'));
    const api: Api = { app: t.app, session: await signUp(t.app) };
    const landlord = await createBill(api, { name: 'Landlord' });
    const employer = await createBill(api, { name: 'Employer' });
    const gym = await createBill(api, { name: 'Gym' });
    const archived = await createBill(api, { name: 'Old Storage' });
    const binned = await createBill(api, { name: 'Old Phone' });
    // Monthly rent from Dec 1, due 5 days later: Dec 6 is in the 8-30 days, Jan 6 beyond them.
    const rent = await createSchedule(api, landlord.id, { firstDate: '2026-12-01', amount: 1250.1, dueDays: 5 });
    // Weekly income from Nov 24: Nov 24 (7 days), Dec 1, 8, 15, 22 (8-30 days).
    const pay = await createSchedule(api, employer.id, {
      cadence: 'weekly',
      firstDate: '2026-11-24',
      amount: 100.01,
      flow: 'income',
      dueDays: 0,
      description: 'Pay {date}',
    });
    // Ends after two invoices: Nov 23 and Nov 30 only.
    await createSchedule(api, gym.id, {
      cadence: 'weekly',
      firstDate: '2026-11-23',
      amount: 0.3,
      dueDays: 0,
      count: 2,
    });
    const paused = await createSchedule(api, gym.id, { firstDate: '2026-11-25', amount: 7, dueDays: 0 });
    expect((await request(api, 'POST', `/schedules/${paused.id}/pause`)).statusCode).toBe(200);
    await createSchedule(api, archived.id, { firstDate: '2026-11-26', amount: 9, dueDays: 0 });
    await updateBill(api, { id: archived.id, status: 0 });
    await createSchedule(api, binned.id, { firstDate: '2026-11-27', amount: 11, dueDays: 0 });
    await updateBill(api, { id: binned.id, recycle: true });
    // Invoices that exist: one due in 7 days, one in the 8-30 days.
    const soon = await createEntry(api, {
      billId: landlord.id,
      date: '2026-11-01',
      dueDate: '2026-11-25',
      amount: 40,
      flow: 'expense',
    });
    const later = await createEntry(api, {
      billId: landlord.id,
      date: '2026-11-01',
      dueDate: '2026-12-10',
      amount: 60,
      flow: 'expense',
    });
    return { api, landlord, employer, rent, pay, soon, later };
  }

  it('lists what active schedules will create in each window, exact to the cent, apart from the invoices', async () => {
    const { api, rent, pay, soon, later } = await household();
    const summary = await summaryOf(api);
    expect(summary.today).toBe('2026-11-22');

    expect(dues(summary.next7)).toEqual(['Gym 2026-11-23→2026-11-23', 'Employer 2026-11-24→2026-11-24']);
    expect(summary.next7.scheduled).toMatchObject({ count: 2, toPay: 0.3, toCollect: 100.01 });
    expect(summary.next7.scheduled.invoices[1]).toEqual({
      scheduleId: pay.id,
      entityId: pay.entityId,
      name: 'Employer',
      date: '2026-11-24',
      dueDate: '2026-11-24',
      amount: 100.01,
      flow: 'INCOMING',
      description: 'Pay 2026-11-24',
    });

    // The 8-30 days: Gym's last, rent's Dec 1 (due Dec 6) and four weekly pays, the first five listed; the paused,
    // archived and binned schedules are not there.
    expect(summary.later.scheduled).toMatchObject({ count: 6, toPay: 1250.4, toCollect: 400.04 });
    expect(dues(summary.later)).toEqual([
      'Gym 2026-11-30→2026-11-30',
      'Employer 2026-12-01→2026-12-01',
      'Landlord 2026-12-01→2026-12-06',
      'Employer 2026-12-08→2026-12-08',
      'Employer 2026-12-15→2026-12-15',
    ]);
    expect(summary.later.scheduled.invoices[2]).toMatchObject({
      scheduleId: rent.id,
      description: 'Rent December 2026',
    });
    expect(summary.next30.scheduled).toMatchObject({ count: 8, toPay: 1250.7, toCollect: 500.05 });
    expect(summary.overdue.scheduled).toEqual({ count: 0, toPay: 0, toCollect: 0, invoices: [] });

    // The invoices: `later` is next30 without next7, so no invoice or amount is in two groups.
    expect(summary.next7).toMatchObject({ count: 1, toPay: 40 });
    expect(summary.next7.entries.map((e) => e.entryId)).toEqual([soon.entryId]);
    expect(summary.later).toMatchObject({ count: 1, toPay: 60, toCollect: 0 });
    expect(summary.later.entries.map((e) => e.entryId)).toEqual([later.entryId]);
    expect(summary.next30).toMatchObject({ count: 2, toPay: 100 });
  });

  it('puts an invoice due on each day from 3 days ago to 33 days ahead in exactly one group, at the edges too', async () => {
    t.clock.set(noon('2026-11-22'));
    const api: Api = { app: t.app, session: await signUp(t.app) };
    const bill = await createBill(api, { name: 'Every Day Co' });
    const [near, far] = DUE_SOON_DAYS;
    const expected = { overdue: [] as number[], next7: [] as number[], later: [] as number[] };
    const ids = new Map<number, number>();
    for (let offset = -3; offset <= far + 3; offset++) {
      // A different amount in cents for every day, so a sum names the days it holds.
      const cents = 1000 + offset * 101 + 7;
      const entry = await createEntry(api, {
        billId: bill.id,
        date: '2026-10-01',
        dueDate: addDays('2026-11-22', offset),
        amount: cents / 100,
        flow: 'expense',
      });
      ids.set(entry.entryId, offset);
      if (offset < 0) expected.overdue.push(cents);
      else if (offset <= near) expected.next7.push(cents);
      else if (offset <= far) expected.later.push(cents);
    }
    const summary = await summaryOf(api);
    const seen = new Map<number, string>();
    for (const name of ['overdue', 'next7', 'later'] as const) {
      const cents = expected[name];
      expect(summary[name], name).toMatchObject({
        count: cents.length,
        toPay: fromCents(cents.reduce((a, b) => a + b, 0)),
      });
      for (const e of summary[name].entries) {
        expect(seen.get(e.entryId), `invoice ${e.entryId} in ${name} and ${seen.get(e.entryId)}`).toBeUndefined();
        seen.set(e.entryId, name);
        const offset = ids.get(e.entryId) as number;
        expect(offset < 0 ? 'overdue' : offset <= near ? 'next7' : 'later').toBe(name);
      }
    }
    // The 30 days are the 7 days and the 8-30 days together.
    expect(summary.next30.count).toBe(summary.next7.count + summary.later.count);
  });

  it('counts an occurrence once: as scheduled until its invoice is created, then as the invoice', async () => {
    const { api, employer } = await household();
    t.clock.set(noon('2026-11-24'));
    await t.app.schedules.run(t.clock.now()); // creates Gym's Nov 23 and Employer's Nov 24
    const again: Api = { app: t.app, session: await signIn(t.app, api.session) };
    const summary = await summaryOf(again);
    expect(summary.today).toBe('2026-11-24');
    const income = summary.next7.entries.filter((e) => e.billId === employer.id);
    expect(income.map((e) => [e.date, e.amount, e.dueDate])).toEqual([['2026-11-24', 100.01, '2026-11-24']]);
    expect(summary.next7).toMatchObject({ toCollect: 100.01 });
    expect(dues(summary.next7)).toEqual(['Gym 2026-11-30→2026-11-30', 'Employer 2026-12-01→2026-12-01']);
    expect(summary.next7.scheduled).toMatchObject({ count: 2, toPay: 0.3, toCollect: 100.01 });
    // Gym's Nov 23 invoice is overdue now; its schedule has no occurrence left before its end.
    expect(summary.overdue.scheduled.count).toBe(0);
  });

  it('puts the scheduled invoices in the calendar feed, marked as scheduled, replaced by the invoice later', async () => {
    const { api, landlord, rent, pay } = await household();
    const on = await request(api, 'PUT', '/account/calendar-feed', {
      enabled: true,
      password: api.session.password,
    });
    const path = new URL(on.json<{ url: string }>().url).pathname;
    const events = async () => {
      const res = await t.app.inject({ method: 'GET', url: path });
      expect(res.statusCode).toBe(200);
      return Object.values(nodeIcal.sync.parseICS(res.body)).filter((c): c is VEvent => c?.type === 'VEVENT');
    };
    const feed = await events();
    const rentEvent = feed.find((e) => e.uid === `billfold-schedule-${rent.id}-2026-12-01`);
    expect(rentEvent).toMatchObject({ summary: 'Scheduled: pay Landlord $1,250.10' });
    const link = rentEvent?.url as unknown as string | { val: string } | undefined;
    expect(typeof link === 'object' ? link.val : link).toMatch(new RegExp(`/entities/${landlord.id}$`));
    expect(rentEvent?.description).toContain('Rent December 2026');
    expect(feed.find((e) => e.uid === `billfold-schedule-${pay.id}-2026-11-24`)).toMatchObject({
      summary: 'Scheduled: expect $100.01 from Employer',
    });
    // A year of rent ahead, never the paused, archived or binned ones.
    expect(feed.filter((e) => e.uid.startsWith(`billfold-schedule-${rent.id}-`))).toHaveLength(12);
    expect(feed.map((e) => e.summary).filter((s) => /Gym \$7|Old Storage|Old Phone/.test(String(s)))).toEqual([]);

    t.clock.set(noon('2026-11-24'));
    await t.app.schedules.run(t.clock.now());
    const after = await events();
    const uids = after.map((e) => e.uid);
    expect(uids).not.toContain(`billfold-schedule-${pay.id}-2026-11-24`);
    expect(after.filter((e) => e.summary === 'Expect $100.01 from Employer')).toHaveLength(1);
    expect(uids).toContain(`billfold-schedule-${pay.id}-2026-12-01`);
  });
});
