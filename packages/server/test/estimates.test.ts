import type { BillOverviewList } from '@billfold/contract/bills';
import type { DueSummary } from '@billfold/contract/due';
import type { Entry } from '@billfold/contract/entries';
import type { Forecast } from '@billfold/contract/forecast';
import type { Schedule } from '@billfold/contract/schedules';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SchedulesRepository } from '../src/modules/schedules/schedules.repository.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { type Api, createBill, createEntry, editEntry, getEntry, request } from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';
import { createSchedule, scheduleData, storedInvoices } from './helpers/schedules.ts';

const noon = (date: string) => Date.parse(`${date}T12:00:00Z`);

/**
 * Estimated and actual amounts (docs/decisions/0212-estimated-amounts.md, 0213-confirming-estimates.md): a
 * schedule's amount mode, the estimate each created invoice records, confirming it, and the forecast going by the
 * estimates; worked out by hand on 2026-11-22, on both databases.
 */
describe.each(dialects)('estimated amounts on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let power: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    t.clock.set(noon('2026-11-22'));
    api = { app: t.app, session: await signUp(t.app) };
    power = (await createBill(api, { name: 'Power Co' })).id;
    const invoice = (date: string, amount: number, flow: 'expense' | 'income' = 'expense') =>
      createEntry(api, { billId: power, date, amount, flow, services: `power ${date}` });
    await invoice('2026-08-01', 100);
    await invoice('2026-09-01', 90.01);
    await invoice('2026-10-01', 120);
    // Neither an income of the entity nor an invoice in the recycle bin is gone by.
    await invoice('2026-10-20', 5000, 'income');
    const binned = await invoice('2026-10-25', 1);
    await editEntry(api, { entryId: binned.entryId, recycle: true });
  });
  afterAll(() => t.close());

  const schedules = async (billId: number) => {
    const res = await request(api, 'GET', `/bills/${billId}/schedules`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ schedules: Schedule[] }>().schedules;
  };
  const invoicesOf = async (billId: number) => {
    const res = await request(
      api,
      'GET',
      `/entries?partyList=${encodeURIComponent(billId === power ? 'Power Co' : 'Gas Co')}&sortField=date&sortOrder=asc`,
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ entries: Entry[] }>().entries;
  };

  let scheduleId: number;
  let november: Entry;

  it('averages the entity’s last N confirmed invoices of its flow, half a cent up, and marks the invoice', async () => {
    const created = await createSchedule(api, power, {
      firstDate: '2026-11-01',
      amount: 50,
      amountMode: 'average',
      averageOf: 2,
      dueDays: 5,
    });
    scheduleId = created.id;
    // (120.00 + 90.01) / 2 = 105.005 → 105.01.
    expect(created).toMatchObject({ amountMode: 'average', averageOf: 2, amount: 50, estimate: 105.01 });
    const entries = (await invoicesOf(power)).filter((e) => e.date === '2026-11-01');
    expect(entries).toHaveLength(1);
    november = entries[0] as Entry;
    expect(november).toMatchObject({ amount: 105.01, estimate: 105.01, estimated: true, dueDate: '2026-11-06' });
    expect(await getEntry(api, november.entryId)).toMatchObject({ estimate: 105.01, estimated: true });
    // An invoice no schedule created has no estimate.
    expect((await invoicesOf(power))[0]).toMatchObject({ estimate: null, estimated: false });
  });

  it('goes by the estimate for the schedule’s coming occurrences in the forecast', async () => {
    const res = await request(api, 'GET', '/forecast?months=2');
    expect(res.statusCode, res.body).toBe(200);
    const f = res.json<Forecast>();
    const occurrences = f.days.flatMap((d) => d.items.filter((i) => i.kind === 'occurrence'));
    expect(occurrences.map((o) => [o.dueDate, o.amount])).toEqual([
      ['2026-12-06', 105.01],
      ['2027-01-06', 105.01],
    ]);
  });

  it('an edit of the amount confirms it; the estimate stays and the schedule goes by its own invoices', async () => {
    const edited = await editEntry(api, { entryId: november.entryId, amount: 130 });
    expect(edited).toMatchObject({ amount: 130, estimate: 105.01, estimated: false });
    // Its own confirmed invoices now: only 130.00 (an average of what there is).
    expect((await schedules(power))[0]).toMatchObject({ id: scheduleId, estimate: 130 });
    // One history row for the one write: the new amount and the mark cleared together.
    const history = await request(api, 'GET', `/entries/${november.entryId}/history`);
    expect(history.statusCode, history.body).toBe(200);
    const rows = history.json<{ history: { action: string; fields: unknown[] }[] }>().history;
    expect(rows.map((r) => r.action)).toEqual(['schedule', 'update']);
    expect(rows[1]?.fields).toEqual([
      { field: 'amount', from: 105.01, to: 130 },
      { field: 'estimated', from: true, to: false },
    ]);
  });

  it('the job creates the next invoice at the new estimate; confirm: true confirms it as it is', async () => {
    await t.app.schedules.run(noon('2026-12-01'));
    const december = (await invoicesOf(power)).find((e) => e.date === '2026-12-01');
    expect(december).toMatchObject({ amount: 130, estimate: 130, estimated: true });
    const id = december?.entryId ?? 0;
    // Sending back what it read changes nothing: still an estimate.
    expect(await editEntry(api, { entryId: id, amount: 130, services: december?.services })).toMatchObject({
      estimated: true,
    });
    expect(await editEntry(api, { entryId: id, confirm: true })).toMatchObject({
      amount: 130,
      estimate: 130,
      estimated: false,
    });
    // Confirming a confirmed invoice changes nothing; `confirm: false` confirms nothing.
    expect(await editEntry(api, { entryId: id, confirm: true })).toMatchObject({ estimated: false });
    const rows = await storedInvoices(t.app.db, power);
    expect(rows.filter((r) => r.date >= '2026-11-01').map((r) => [r.date, Number(r.amount_cents)])).toEqual([
      ['2026-11-01', 13_000],
      ['2026-12-01', 13_000],
    ]);
  });

  it('same as last falls back to the amount without invoices to go by; a fixed schedule marks nothing', async () => {
    const gas = (await createBill(api, { name: 'Gas Co' })).id;
    const last = await createSchedule(api, gas, { firstDate: '2026-11-15', amount: 42, amountMode: 'last' });
    expect(last).toMatchObject({ amountMode: 'last', averageOf: null, estimate: 42 });
    const [first] = await invoicesOf(gas);
    expect(first).toMatchObject({ amount: 42, estimate: 42, estimated: true });
    await editEntry(api, { entryId: first?.entryId ?? 0, amount: 47.5 });
    expect((await schedules(gas))[0]?.estimate).toBe(47.5);
    const fixed = await createSchedule(api, gas, { firstDate: '2026-11-20', amount: 9.99, description: 'Meter' });
    expect(fixed).toMatchObject({ amountMode: 'fixed', estimate: 9.99 });
    const meter = (await invoicesOf(gas)).find((e) => e.services === 'Meter');
    expect(meter).toMatchObject({ amount: 9.99, estimate: 9.99, estimated: false });
  });

  it('refuses an average count out of range or with another mode, storing nothing', async () => {
    const before = await schedules(power);
    for (const body of [
      { amountMode: 'average', averageOf: 1 },
      { amountMode: 'average', averageOf: 25 },
      { amountMode: 'last', averageOf: 3 },
      { amountMode: 'sometimes' },
    ]) {
      const res = await request(
        api,
        'POST',
        `/bills/${power}/schedules`,
        scheduleData({ firstDate: '2027-01-01', ...body } as never),
      );
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    }
    expect(await schedules(power)).toEqual(before);
  });

  it('an average without a count averages the default three', async () => {
    const replaced = await request(
      api,
      'PUT',
      `/schedules/${scheduleId}`,
      scheduleData({ firstDate: '2026-11-01', amount: 50, amountMode: 'average' }),
    );
    expect(replaced.statusCode, replaced.body).toBe(200);
    // Its own confirmed invoices: 130.00 and 130.00.
    expect(replaced.json<Schedule>()).toMatchObject({ averageOf: 3, estimate: 130 });
  });
});

/**
 * Every place that shows a schedule's amount shows what its next invoice would get now, and reads the estimates of
 * all the ledger's schedules in one statement (docs/decisions/0212-estimated-amounts.md): the Entities page, an
 * entity's schedules, the due summary's scheduled invoices, the calendar feed and the forecast.
 */
describe.each(dialects)('the estimates of many schedules on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  /** Schedule id → the estimate worked out by hand. */
  const want = new Map<number, number>();
  const names = new Map<number, string>();

  beforeAll(async () => {
    t = await createTestApp(dialect);
    t.clock.set(noon('2026-11-22'));
    api = { app: t.app, session: await signUp(t.app) };
    const water = (await createBill(api, { name: 'Water' })).id;
    const phone = (await createBill(api, { name: 'Phone' })).id;
    const power = (await createBill(api, { name: 'Power' })).id;
    for (const [date, amount] of [
      ['2026-08-01', 30],
      ['2026-09-01', 45.5],
      ['2026-10-01', 60],
    ] as const)
      await createEntry(api, { billId: water, date, amount, flow: 'expense', services: `water ${date}` });
    await createEntry(api, {
      billId: power,
      date: '2026-10-01',
      amount: 80,
      flow: 'expense',
      services: 'power October',
    });
    // An income of the entity is not gone by.
    await createEntry(api, { billId: water, date: '2026-10-15', amount: 999, flow: 'income' });
    const add = async (billId: number, name: string, estimate: number, body: Parameters<typeof createSchedule>[2]) => {
      const s = await createSchedule(api, billId, { firstDate: '2026-12-10', dueDays: 0, ...body });
      want.set(s.id, estimate);
      names.set(s.id, name);
      return s;
    };
    // Nothing created yet: the entity's confirmed invoices of the flow, newest first.
    await add(water, 'Water', 60, { amount: 1, amountMode: 'last' });
    // (30.00 + 45.50 + 60.00) / 3 = 45.1666… → 45.17.
    await add(water, 'Water', 45.17, { amount: 1, amountMode: 'average', averageOf: 3 });
    // No invoice to go by: the amount stands in.
    await add(phone, 'Phone', 25, { amount: 25, amountMode: 'average', averageOf: 4 });
    await add(phone, 'Phone', 12.34, { amount: 12.34 });
    // A schedule with a confirmed invoice of its own goes by that one; its sibling still by the entity's.
    const own = await add(power, 'Power', 95, { firstDate: '2026-11-01', amount: 1, amountMode: 'last' });
    const created = (await storedInvoices(t.app.db, power)).find((r) => r.date === '2026-11-01');
    await editEntry(api, { entryId: Number(created?.id), amount: 95 });
    await add(power, 'Power', 87.5, { amount: 1, amountMode: 'average', averageOf: 2 });
    expect((await request(api, 'GET', `/schedules/${own.id}`)).json<Schedule>().estimate).toBe(95);
  });
  afterAll(() => t.close());

  /** `GET path` with the statements that read recent confirmed amounts counted. */
  const readCounting = async (path: string) => {
    const reads = vi.spyOn(SchedulesRepository.prototype, 'recentActuals');
    try {
      const res = await request(api, 'GET', path);
      expect(res.statusCode, res.body).toBe(200);
      return { body: res, reads: reads.mock.calls.length };
    } finally {
      reads.mockRestore();
    }
  };

  it('the Entities page shows each schedule’s estimate and mode beside its amount, in one read', async () => {
    const { body, reads } = await readCounting('/bills/overview?pageSize=100');
    const shown = body
      .json<BillOverviewList>()
      .bills.flatMap((b) => b.schedules.map((s) => [s.id, s.estimate, s.amountMode, s.amount] as const));
    expect(new Map(shown.map(([id, estimate]) => [id, estimate]))).toEqual(want);
    expect(shown.find(([id]) => want.get(id) === 45.17)).toEqual([expect.any(Number), 45.17, 'average', 1]);
    expect(reads).toBe(1);
  });

  it('an entity’s schedules, the due summary, the calendar feed and the forecast go by the estimates, in one read', async () => {
    for (const billName of ['Water', 'Phone', 'Power']) {
      const ids = [...names].filter(([, n]) => n === billName).map(([id]) => id);
      const bill = (await request(api, 'GET', '/bills/overview?pageSize=100'))
        .json<BillOverviewList>()
        .bills.find((b) => b.name === billName);
      const { body, reads } = await readCounting(`/bills/${bill?.id}/schedules`);
      const got = body.json<{ schedules: Schedule[] }>().schedules.map((s) => [s.id, s.estimate] as const);
      expect(new Map(got)).toEqual(new Map(ids.map((id) => [id, want.get(id)])));
      expect(reads).toBe(1);
    }
    // The entity snapshot the Entities page read at this data version has the estimates (ADR 0406): none read.
    expect((await readCounting('/entries/due-summary?today=2026-12-01')).reads).toBe(0);
    // A write raises the version: the next read of them is one for all the schedules.
    await createBill(api, { name: 'Unrelated' });
    const due = await readCounting('/entries/due-summary?today=2026-12-01');
    // One occurrence of each schedule in the next 30 days; the first few listed.
    const scheduled = due.body.json<DueSummary>().next30.scheduled;
    expect([scheduled.count, scheduled.toPay]).toEqual([6, 325.01]);
    for (const o of scheduled.invoices) expect(o.amount).toBe(want.get(o.scheduleId));
    expect(due.reads).toBe(1);
    await createBill(api, { name: 'Unrelated too' });
    const forecast = await readCounting('/forecast?months=1&today=2026-12-01');
    const occurrences = forecast.body
      .json<Forecast>()
      .days.flatMap((d) => d.items.filter((i) => i.kind === 'occurrence'));
    expect(new Map(occurrences.map((o) => [o.scheduleId, o.amount]))).toEqual(want);
    expect(forecast.reads).toBe(1);
    const feed = await request(api, 'PUT', '/account/calendar-feed', { enabled: true, password: api.session.password });
    const ics = await t.app.inject({ method: 'GET', url: new URL(feed.json<{ url: string }>().url).pathname });
    const summaries = new Set(ics.body.split(/\r?\n/).filter((line) => line.startsWith('SUMMARY:Scheduled')));
    expect([...summaries].sort()).toEqual(
      [...want].map(([id, cents]) => `SUMMARY:Scheduled: pay ${names.get(id)} $${cents.toFixed(2)}`).sort(),
    );
  });

  it('reads the estimates of more schedules than one statement can bind, the same as of each alone', async () => {
    const rows = await t.app.db.selectFrom('schedules').select(['id', 'ledger_id', 'bill_id', 'flow']).execute();
    const repo = new SchedulesRepository(t.app.db);
    const alone = await repo.recentActuals(rows, 3);
    expect(alone.size).toBeGreaterThan(0);
    // Four bound values a schedule: 17,000 is past both SQLite's 32,766 and PostgreSQL's 65,535. The others name
    // no stored schedule or entity, so they find nothing.
    const ledgerId = rows[0]?.ledger_id ?? 0;
    const others = Array.from({ length: 17_000 }, (_, i) => ({
      id: 1_000_000 + i,
      ledger_id: ledgerId,
      bill_id: 1_000_000 + i,
      flow: 'OUTGOING',
    }));
    const many = await repo.recentActuals([...others.slice(0, 9_000), ...rows, ...others.slice(9_000)], 3);
    expect(many).toEqual(alone);
  });
});
