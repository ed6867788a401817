import { type EntryList, entriesQuery } from '@billfold/contract/entries';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeRecycleBin } from '../src/jobs/recycle-purge.ts';
import { VersionedCache } from '../src/lib/versioned-cache.ts';
import { EntriesListService } from '../src/modules/entries/entries-list.service.ts';
import { ReadModelRepository } from '../src/modules/read-model/read-model.repository.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import {
  type Api,
  createBill,
  createEntry,
  createPayment,
  editEntry,
  request,
  updateBill,
  updatePayment,
} from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';
import { userIdOf } from './helpers/seed.ts';

/**
 * The list's response cache (ADR 0403): a repeated list is served from memory, and only while it is exactly
 * what the query returns now — every kind of write to the user's invoices, from any code or connection,
 * makes the next list a fresh one.
 */
describe.each(dialects)('GET /api/v1/entries response cache on %s', (dialect) => {
  let t: TestApp;
  let api: Api;
  let userId: number;
  let fresh: EntriesListService;

  const URLS = ['', '?sortField=balance&sortOrder=desc', '?paid=false&pageSize=3', '?categoryList=Dining'];
  const get = (query: string, a: Api = api) =>
    t.app.inject({ method: 'GET', url: `/api/v1/entries${query}`, headers: a.session.headers });

  /** Every cached URL now answers what the service computes from the database, and a repeat is a hit. */
  const expectCurrent = async () => {
    for (const query of URLS) {
      const expected = await fresh.list(
        { id: userId },
        entriesQuery.parse(Object.fromEntries(new URLSearchParams(query))),
      );
      const first = await get(query);
      expect(first.statusCode).toBe(200);
      expect(first.json<EntryList>(), query).toEqual(expected);
      const second = await get(query);
      expect(second.headers['cache-status'], query).toBe('billfold; hit');
      expect(second.body).toBe(first.body);
    }
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    api = { app: t.app, session: await signUp(t.app) };
    userId = await userIdOf(t.app.db, api.session.username);
    fresh = new EntriesListService(new ReadModelRepository(t.app.db), t.clock.now);
  });
  afterAll(() => t.close());

  it('serves a repeated list from the cache, byte for byte, with JSON headers', async () => {
    const bill = await createBill(api, { category: 'Dining' });
    await createEntry(api, { billId: bill.id, amount: 12.5 });
    const first = await get('');
    const second = await get('');
    expect(first.headers['cache-status']).toBe('billfold; fwd=miss; stored');
    expect(second.headers['cache-status']).toBe('billfold; hit');
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.headers['cache-control']).toBe('no-store');
    expect(second.body).toBe(first.body);
    expect(second.json<EntryList>().total).toBe(1);
  });

  it('every write path through the API makes the next list fresh', async () => {
    const bill = await createBill(api, { category: 'Dining' });
    const writes: [string, () => Promise<unknown>][] = [];
    let entryId = 0;
    let paymentId = 0;
    writes.push([
      'create invoice',
      async () => (entryId = (await createEntry(api, { billId: bill.id, amount: 40 })).entryId),
    ]);
    writes.push(['edit invoice', () => editEntry(api, { entryId, amount: 45, services: 'edited' })]);
    writes.push([
      'create payment',
      async () => (paymentId = (await createPayment(api, { entryId, amount: 20 })).paymentId),
    ]);
    writes.push(['edit payment', () => updatePayment(api, { paymentId, amount: 45 })]);
    writes.push(['delete payment', () => updatePayment(api, { paymentId, recycle: true })]);
    writes.push([
      'restore payment',
      () => request(api, 'POST', '/recycle/restore', { entityType: 'Payment', entityId: paymentId }),
    ]);
    writes.push(['rename entity', () => updateBill(api, { ...bill, name: `${bill.name} II` })]);
    writes.push([
      'recategorise entity',
      () => updateBill(api, { ...bill, name: `${bill.name} II`, category: 'Shopping' }),
    ]);
    writes.push([
      'archive entity',
      () => updateBill(api, { ...bill, name: `${bill.name} II`, category: 'Shopping', status: 0 }),
    ]);
    writes.push([
      'unarchive entity',
      () => updateBill(api, { ...bill, name: `${bill.name} II`, category: 'Dining', status: 1 }),
    ]);
    writes.push([
      'delete entity',
      () => updateBill(api, { ...bill, name: `${bill.name} II`, category: 'Dining', recycle: true }),
    ]);
    writes.push([
      'restore entity',
      () => updateBill(api, { ...bill, name: `${bill.name} II`, category: 'Dining', recycle: false }),
    ]);
    writes.push(['delete invoice', () => editEntry(api, { entryId, recycle: true })]);
    writes.push([
      'restore invoice',
      () => request(api, 'POST', '/recycle/restore', { entityType: 'Invoice', entityId: entryId }),
    ]);
    for (const [label, write] of writes) {
      await expectCurrent();
      await write();
      for (const query of URLS)
        expect((await get(query)).headers['cache-status'], label).toBe('billfold; fwd=miss; stored');
    }
    await expectCurrent();
  });

  it('a write by other code on another connection, and the recycle purge, make the next list fresh', async () => {
    const e = await createEntry(api, { amount: 8 });
    await expectCurrent();
    await sql`update entries set services = ${'changed elsewhere'} where id = ${e.entryId}`.execute(t.app.db);
    await expectCurrent();
    expect((await get('')).json<EntryList>().entries.find((x) => x.entryId === e.entryId)?.services).toBe(
      'changed elsewhere',
    );
    await editEntry(api, { entryId: e.entryId, recycle: true });
    await expectCurrent();
    // The purge job as it runs 15 days later (the session's clock stays put, so its token stays valid).
    expect((await purgeRecycleBin(t.app.db, t.clock.now() + 15 * 86_400_000)).entries).toBeGreaterThan(0);
    await expectCurrent();
  });

  it('a request with Cache-Control: no-cache (a hard reload) is answered afresh and refreshes the entry', async () => {
    await get('?pageSize=2');
    const headers = { ...api.session.headers, 'cache-control': 'no-cache' };
    const reload = await t.app.inject({ method: 'GET', url: '/api/v1/entries?pageSize=2', headers });
    expect(reload.headers['cache-status']).toBe('billfold; fwd=request; stored');
    expect((await get('?pageSize=2')).headers['cache-status']).toBe('billfold; hit');
  });

  it('is per user: the same URL never answers another user’s page', async () => {
    const other: Api = { app: t.app, session: await signUp(t.app) };
    await get('?pageSize=3');
    const theirs = await get('?pageSize=3', other);
    expect(theirs.headers['cache-status']).toBe('billfold; fwd=miss; stored');
    expect(theirs.json<EntryList>()).toEqual({ entries: [], total: 0 });
  });

  it('does not outlive the account: a deactivated user gets 401, not the cached page', async () => {
    const s = await signUp(t.app);
    const mine: Api = { app: t.app, session: s };
    await createEntry(mine, { amount: 3 });
    await get('', mine);
    expect((await get('', mine)).headers['cache-status']).toBe('billfold; hit');
    expect((await request(mine, 'PUT', '/user', { password: s.password, recycle: true })).statusCode).toBe(200);
    expect((await get('', mine)).statusCode).toBe(401);
  });
});

describe('VersionedCache', () => {
  const body = (text: string) => Buffer.from(text);

  it('answers only for the version an entry was stored under, and forgets a stale one', () => {
    const cache = new VersionedCache(1024);
    cache.set(1, 5, '/a', body('five'));
    expect(cache.get(1, 5, '/a')?.toString()).toBe('five');
    expect(cache.get(2, 5, '/a')).toBeUndefined();
    expect(cache.get(1, 6, '/a')).toBeUndefined();
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });

  it('never replaces a newer version with an older one (a slower request finishing last)', () => {
    const cache = new VersionedCache(1024);
    cache.set(1, 7, '/a', body('seven'));
    cache.set(1, 6, '/a', body('six'));
    expect(cache.get(1, 7, '/a')?.toString()).toBe('seven');
  });

  it('evicts the least recently used entries beyond its byte budget and skips one oversized body', () => {
    const cache = new VersionedCache(160);
    cache.set(1, 1, '/a', body('a'.repeat(10)));
    cache.set(1, 1, '/b', body('b'.repeat(10)));
    expect(cache.get(1, 1, '/a')).toBeDefined(); // /a is now the most recently used
    for (let i = 0; i < 15; i++) cache.set(1, 1, `/fill${i}`, body('x'.repeat(10)));
    expect(cache.get(1, 1, '/b')).toBeUndefined();
    expect(cache.get(1, 1, '/a')).toBeDefined();
    expect(cache.size.bytes).toBeLessThanOrEqual(160);
    cache.set(1, 1, '/huge', body('h'.repeat(11)));
    expect(cache.get(1, 1, '/huge')).toBeUndefined();
  });
});
