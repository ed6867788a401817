import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeRecycleBin } from '../src/jobs/recycle-purge.ts';
import { DAY } from '../src/lib/time.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { type Api, createBill, createEntry, editEntry } from './helpers/domain.ts';
import { signIn, signUp } from './helpers/factories.ts';

const PARALLEL = 25;
const consecutive = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describe.each(dialects)('invoice numbers on %s', (dialect) => {
  let t: TestApp;
  const newUser = async (): Promise<Api> => ({ app: t.app, session: await signUp(t.app) });

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it(`gives ${PARALLEL} parallel creates of one user distinct, consecutive numbers from 1`, async () => {
    const api = await newUser();
    const bills = await Promise.all([createBill(api), createBill(api), createBill(api)]);
    const created = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => createEntry(api, { billId: bills[i % bills.length]?.id })),
    );
    const numbers = created.map((e) => e.invoiceId).sort((a, b) => a - b);
    expect(numbers).toEqual(consecutive(1, PARALLEL));
  });

  it('counts per user: parallel creates of two users each start at 1', async () => {
    const [a, b] = await Promise.all([newUser(), newUser()]);
    const [billA, billB] = await Promise.all([createBill(a), createBill(b)]);
    const created = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 === 0 ? createEntry(a, { billId: billA.id }) : createEntry(b, { billId: billB.id }),
      ),
    );
    const of = (billId: number) =>
      created
        .filter((e) => e.billId === billId)
        .map((e) => e.invoiceId)
        .sort((x, y) => x - y);
    expect(of(billA.id)).toEqual(consecutive(1, 5));
    expect(of(billB.id)).toEqual(consecutive(1, 5));
  });

  it('never reuses a number: not after deleting the newest invoice, nor after it is purged', async () => {
    let api = await newUser();
    const bill = await createBill(api);
    const first = await createEntry(api, { billId: bill.id });
    const newest = await createEntry(api, { billId: bill.id });
    expect([first.invoiceId, newest.invoiceId]).toEqual([1, 2]);
    await editEntry(api, { entryId: newest.entryId, recycle: true });
    expect((await createEntry(api, { billId: bill.id })).invoiceId).toBe(3);

    const last = await createEntry(api, { billId: bill.id });
    await editEntry(api, { entryId: last.entryId, recycle: true });
    t.clock.advance(15 * DAY);
    await purgeRecycleBin(t.app.db, t.clock.now());
    api = { app: t.app, session: await signIn(t.app, api.session) };
    const purged = await api.app.inject({
      method: 'GET',
      url: `/api/v1/entries/${last.entryId}?filter=bypass`,
      headers: api.session.headers,
    });
    expect(purged.statusCode).toBe(404);
    expect((await createEntry(api, { billId: bill.id })).invoiceId).toBe(5);
  });

  it('a refused create (archived entity) consumes no number', async () => {
    const api = await newUser();
    const archived = await createBill(api, { status: 0 });
    const res = await api.app.inject({
      method: 'POST',
      url: '/api/v1/entries/new',
      headers: api.session.headers,
      payload: { billId: archived.id, date: '2026-11-01', flow: 'income', amount: 1 },
    });
    expect(res.statusCode).toBe(409);
    expect((await createEntry(api)).invoiceId).toBe(1);
  });
});
