import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createBill, createEntry } from '../helpers/domain.ts';
import { type Session, signUp } from '../helpers/factories.ts';
import { changedTables, snapshot, tableNames } from './database-state.ts';

/**
 * U+0000 in any input. PostgreSQL text cannot hold it, so a NUL that reached a query failed in the driver (a 500 on
 * PostgreSQL, found by the fuzzer in a `category` filter) while SQLite took it. Every route now refuses it up front,
 * the same on both databases: 400 JSON, nothing stored.
 */
describe.each(dialects)('NUL characters on %s', (dialect) => {
  let t: TestApp;
  let s: Session;
  let entryId: number;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    s = await signUp(t.app);
    const bill = await createBill({ app: t.app, session: s });
    entryId = (await createEntry({ app: t.app, session: s }, { billId: bill.id })).entryId;
  });
  afterAll(() => t.close());

  it('refuses a NUL in any query value or JSON string with 400, storing nothing', async () => {
    const auth = () => s.headers;
    const cases: InjectOptions[] = [
      { method: 'GET', url: '/api/v1/bills?status=all&category=a%00b', headers: auth() },
      { method: 'GET', url: '/api/v1/entries?partyList=x%00', headers: auth() },
      { method: 'GET', url: '/api/v1/entries?categoryList=%00', headers: auth() },
      { method: 'GET', url: '/api/v1/entries/stats?partyList=%00', headers: auth() },
      { method: 'GET', url: '/api/v1/entries/export?categoryList=Utilities%00', headers: auth() },
      { method: 'GET', url: `/api/v1/bills/1?bypass=%00`, headers: auth() },
      { method: 'POST', url: '/api/v1/auth/login', payload: { username: `${s.username}\u0000`, password: 'x' } },
      { method: 'POST', url: '/api/v1/bills', headers: auth(), payload: { name: 'Ok', category: 'Utilities\u0000' } },
      { method: 'PUT', url: '/api/v1/entries/edit', headers: auth(), payload: { entryId, services: 'a\u0000' } },
      { method: 'POST', url: '/api/v1/bills', headers: auth(), payload: { name: 'Key', 'bad\u0000key': 1 } },
    ];
    const tables = await tableNames(t.app.db);
    const before = await snapshot(t.app.db, tables);
    for (const options of cases) {
      const res = await t.app.inject(options);
      const label = `${options.method} ${options.url} ${JSON.stringify(options.payload ?? '')}`;
      expect({ label, status: res.statusCode }).toEqual({ label, status: 400 });
      expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
    expect(changedTables(before, await snapshot(t.app.db, tables))).toEqual([]);
  });

  it('still takes the same requests without the NUL', async () => {
    const bills = await t.app.inject({
      method: 'GET',
      url: '/api/v1/bills?status=all&category=ab',
      headers: s.headers,
    });
    expect(bills.statusCode).toBe(200);
    const entries = await t.app.inject({ method: 'GET', url: '/api/v1/entries?partyList=x', headers: s.headers });
    expect(entries.statusCode).toBe(200);
  });
});
