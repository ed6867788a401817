import type { BillOverviewList } from '@billfold/contract/bills';
import type { DueSummary } from '@billfold/contract/due';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { isSqlite } from '../src/db/database.ts';
import { EntitySnapshots } from '../src/modules/bills/entity-snapshots.ts';
import { DueRepository } from '../src/modules/due/due.repository.ts';
import { DataVersionRepository } from '../src/modules/read-model/data-version.repository.ts';
import { dialects, indexedServer, type TestApp, withSecondProcess } from './helpers/app.ts';
import { type Api, createBill, createEntry, request, updateBill } from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';
import { createSchedule } from './helpers/schedules.ts';

/**
 * The entities' snapshots (`EntitySnapshots`, docs/decisions/0406-entity-overview.md): the Entities page and the due
 * reads answer from one snapshot per ledger and data version, and every write to entities and schedules raises the
 * version (migration `2026-12-11T00-00_entity_versions`), so the next request, in any process, reads afresh.
 */
describe.each(dialects)('entity snapshots on %s', (dialect) => {
  let t: TestApp;
  let other: FastifyInstance;
  withSecondProcess(dialect, (app, second) => {
    t = app;
    other = second;
  });

  const newUser = async (): Promise<Api & { ledgerId: number }> => {
    const session = await signUp(t.app);
    const me = await request({ app: t.app, session }, 'GET', '/ledgers');
    const personal = me.json<{ ledgers: { id: number; personal: boolean }[] }>().ledgers.find((l) => l.personal);
    return { app: t.app, session, ledgerId: personal?.id as number };
  };
  const version = (ledgerId: number) => new DataVersionRepository(t.app.db).version(ledgerId);
  const overview = async (api: Api, query = '?status=all') => {
    const res = await request(api, 'GET', `/bills/overview${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<BillOverviewList>();
  };
  const dueSummary = async (api: Api) => {
    const res = await request(api, 'GET', '/entries/due-summary?today=2026-11-22');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<DueSummary>();
  };
  const scheduledNames = (due: DueSummary) => due.next30.scheduled.invoices.map((o) => `${o.name} ${o.dueDate}`);

  it('raises the ledger’s data version with every write to its entities and schedules', async () => {
    const api = await newUser();
    const steps: [string, () => Promise<unknown>][] = [];
    let billId = 0;
    let scheduleId = 0;
    steps.push(['create an entity', async () => (billId = (await createBill(api, { name: 'Gym' })).id)]);
    steps.push(['rename it', () => updateBill(api, { id: billId, name: 'Gym & Pool' })]);
    steps.push(['archive it', () => updateBill(api, { id: billId, status: 0 })]);
    steps.push(['restore it', () => updateBill(api, { id: billId, status: 1 })]);
    steps.push([
      'add a schedule',
      async () => (scheduleId = (await createSchedule(api, billId, { firstDate: '2026-12-01' })).id),
    ]);
    steps.push(['pause it', () => request(api, 'POST', `/schedules/${scheduleId}/pause`)]);
    steps.push(['delete it', () => request(api, 'DELETE', `/schedules/${scheduleId}`)]);
    steps.push(['put the entity in the bin', () => updateBill(api, { id: billId, recycle: true })]);
    for (const [step, write] of steps) {
      const before = await version(api.ledgerId);
      await write();
      expect(await version(api.ledgerId), step).toBeGreaterThan(before);
    }
  });

  it('shows a schedule paused, edited or deleted in another process at once, on the Entities page and the due summary', async () => {
    const api = await newUser();
    const there: Api = { app: other, session: api.session };
    const gym = await createBill(api, { name: 'Gym' });
    const schedule = await createSchedule(api, gym.id, { firstDate: '2026-12-01', amount: 30, dueDays: 0 });
    expect(scheduledNames(await dueSummary(api))).toEqual(['Gym 2026-12-01']);
    expect((await overview(api)).bills[0]?.schedules.map((s) => s.paused)).toEqual([false]);

    expect((await request(there, 'POST', `/schedules/${schedule.id}/pause`)).statusCode).toBe(200);
    expect(scheduledNames(await dueSummary(api))).toEqual([]);
    expect((await overview(api)).bills[0]?.schedules.map((s) => s.paused)).toEqual([true]);

    expect((await request(there, 'POST', `/schedules/${schedule.id}/resume`)).statusCode).toBe(200);
    const edit = await request(there, 'PUT', `/schedules/${schedule.id}`, {
      cadence: 'monthly',
      interval: 1,
      firstDate: '2026-12-10',
      amount: 45,
      flow: 'expense',
      description: 'Gym {month}',
      dueDays: 0,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(scheduledNames(await dueSummary(api))).toEqual(['Gym 2026-12-10']);
    expect((await overview(api)).bills[0]?.schedules.map((s) => s.amount)).toEqual([45]);

    expect((await request(there, 'DELETE', `/schedules/${schedule.id}`)).statusCode).toBe(200);
    expect(scheduledNames(await dueSummary(api))).toEqual([]);
    expect((await overview(api)).bills[0]?.schedules).toEqual([]);
  });

  it('shows an entity without invoices renamed or archived in another process at once', async () => {
    const api = await newUser();
    const there: Api = { app: other, session: api.session };
    const bill = await createBill(api, { name: 'Old Name' });
    await createSchedule(api, bill.id, { firstDate: '2026-12-01', dueDays: 0 });
    expect((await overview(api)).bills.map((b) => b.name)).toEqual(['Old Name']);
    expect(scheduledNames(await dueSummary(api))).toEqual(['Old Name 2026-12-01']);

    await updateBill(there, { id: bill.id, name: 'New Name' });
    expect((await overview(api)).bills.map((b) => b.name)).toEqual(['New Name']);
    expect(scheduledNames(await dueSummary(api))).toEqual(['New Name 2026-12-01']);

    await updateBill(there, { id: bill.id, status: 0 });
    expect((await overview(api)).bills.map((b) => [b.name, b.status])).toEqual([['New Name', 0]]);
    expect((await overview(api, '')).bills).toEqual([]);
    expect(scheduledNames(await dueSummary(api))).toEqual([]);
  });

  it('answers from the snapshot kept for the version: a change that does not raise it is not seen', async () => {
    const api = await newUser();
    const bill = await createBill(api, { name: 'Kept' });
    expect((await overview(api)).bills.map((b) => b.name)).toEqual(['Kept']);
    // Behind the version's back: the trigger's raise is undone in the same transaction.
    await t.app.db.transaction().execute(async (trx) => {
      const before = await new DataVersionRepository(trx).version(api.ledgerId);
      if (!isSqlite(trx)) await sql`set constraints all immediate`.execute(trx);
      await trx.updateTable('bills').set({ name: 'Unseen', name_key: 'unseen' }).where('id', '=', bill.id).execute();
      await trx
        .updateTable('ledger_data_versions')
        .set({ version: before })
        .where('ledger_id', '=', api.ledgerId)
        .execute();
    });
    expect((await overview(api)).bills.map((b) => b.name)).toEqual(['Kept']);
    // A write that raises it: the snapshot is read afresh.
    await createBill(api, { name: 'Another' });
    expect((await overview(api)).bills.map((b) => b.name)).toEqual(['Another', 'Unseen']);
  });

  it('gives the due reads schedules at least as new as the ledger index their invoices came from', async () => {
    const api = await newUser();
    const gym = await createBill(api, { name: 'Gym' });
    await createEntry(api, { billId: gym.id, amount: 5, dueDate: '2026-11-30' });
    const schedule = await createSchedule(api, gym.id, { firstDate: '2026-12-01', amount: 30, dueDays: 0 });
    const indexed = await indexedServer(t, api.session.headers);
    try {
      const snapshots = new EntitySnapshots(indexed.db);
      const due = new DueRepository(indexed.db, indexed.ledgerIndexes, snapshots);
      const before = await version(api.ledgerId);
      const names = async (v: number) =>
        (await due.scheduled({ id: api.ledgerId, version: v }, null, '2026-12-31')).map((o) => o.date);
      expect(await names(before)).toEqual(['2026-12-01']);
      // The schedule is paused, and the index catches up past the version an earlier request began at.
      expect((await request(api, 'POST', `/schedules/${schedule.id}/pause`)).statusCode).toBe(200);
      await indexed.inject({ method: 'GET', url: '/api/v1/entries/stats', headers: api.session.headers });
      expect(indexed.ledgerIndexes.versionOf(api.ledgerId)).toBeGreaterThan(before);
      expect(await names(before)).toEqual([]);
    } finally {
      await indexed.close();
    }
  });

  it('keeps at most its rows, the least recently used ledger dropped first', async () => {
    const a = await newUser();
    const b = await newUser();
    for (const api of [a, b]) for (const name of ['One', 'Two', 'Three']) await createBill(api, { name });
    const snapshots = new EntitySnapshots(t.app.db, 5);
    const at = async (api: { ledgerId: number }) => ({ id: api.ledgerId, version: await version(api.ledgerId) });
    const first = await snapshots.of(await at(a));
    expect(first.entities.map((e) => e.name).sort()).toEqual(['One', 'Three', 'Two']);
    expect(await snapshots.of(await at(a))).toBe(first);
    expect(snapshots.size).toEqual({ ledgers: 1, rows: 3 });
    await snapshots.of(await at(b));
    expect(snapshots.size).toEqual({ ledgers: 1, rows: 3 });
    expect(await snapshots.of(await at(a))).not.toBe(first);
    // A version older than the kept one is answered by the kept, newer, snapshot.
    const kept = await snapshots.of(await at(a));
    expect(await snapshots.of({ id: a.ledgerId, version: 0 })).toBe(kept);
  });
});
