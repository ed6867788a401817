import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BUSY_RETRY_SECONDS } from '../src/plugins/fairness.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { type Session, signUp } from './helpers/factories.ts';
import { multipart } from './helpers/multipart.ts';
import { snapshot, tableNames } from './security/database-state.ts';

/**
 * Fairness between users (plugins/fairness.ts, docs/decisions/0706-limits-and-fairness.md): at most
 * `LIMIT_HEAVY_PER_USER` heavy requests of one user at once (429 BUSY with Retry-After), and at most
 * `LIMIT_REQUESTS_PER_MINUTE` requests of one signed-in user a minute (429 RATE_LIMITED with Retry-After). Other
 * users are never held back by one user's share, and a refused request stores nothing.
 */

/**
 * A heavy request that holds its slot: an account import whose headers announce a body that never comes. The slot
 * is taken before the body is read, so the request waits inside it until the socket closes.
 */
function heldImport(port: number, session: Session): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /api/v1/account/import HTTP/1.1\r\nHost: x\r\nAuthorization: ${session.headers.authorization}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
        () => resolve(socket),
      );
    });
    socket.on('error', reject);
  });
}

describe.each(dialects)('fairness on %s', (dialect) => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp(dialect, { limits: { heavyPerUser: 2, requestsPerMinute: 40 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(() => t.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  const get = (session: Session, url: string) =>
    t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: session.headers });

  it('a user running two heavy requests gets 429 BUSY with Retry-After on a third; others and light routes go on', async () => {
    const me = await signUp(t.app);
    const other = await signUp(t.app);
    // An import to undo and a shared ledger to delete: refused while busy, they stay as they are.
    const csv = multipart({ name: 'one.csv', content: 'Date,Entity,Amount\n2026-01-05,Power Co,-12\n' });
    const imported = await t.app.inject({
      method: 'POST',
      url: '/api/v1/imports',
      headers: { ...me.headers, ...csv.headers },
      payload: csv.payload,
    });
    expect(imported.statusCode, imported.body).toBe(200);
    // The import answers NDJSON progress lines, then the result.
    const lastLine = imported.body.trim().split('\n').at(-1) ?? '';
    const importId = (JSON.parse(lastLine) as { result: { id: number } }).result.id;
    const shared = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ledgers',
      headers: me.headers,
      payload: { name: 'Household' },
    });
    expect(shared.statusCode, shared.body).toBe(201);
    const ledgerId = shared.json<{ id: number }>().id;
    // A held import that was answered lost the race for a slot to one of the polls below (its hooks read the
    // database, so a poll sent later may reach the slots first): it is sent again until both are held.
    const answered = new Set<Socket>();
    const hold = async () => {
      const socket = await heldImport(port, me);
      socket.once('data', () => answered.add(socket));
      return socket;
    };
    const sockets = [await hold(), await hold()];
    // The server has taken both slots once it answers a request sent after them on another connection.
    await vi.waitFor(
      async () => {
        for (const [i, socket] of sockets.entries()) {
          if (!answered.has(socket)) continue;
          socket.destroy();
          sockets[i] = await hold();
        }
        expect((await get(me, '/entries/stats')).statusCode).toBe(429);
      },
      { timeout: 5000 },
    );
    const tables = await tableNames(t.app.db);
    const before = await snapshot(t.app.db, tables);
    // Every heavy route (plugins/fairness.ts): each is refused before its body is read or its work begins.
    const heavy: Array<['GET' | 'POST' | 'DELETE', string, object?]> = [
      ['GET', '/entries/stats'],
      ['GET', '/entries/trends'],
      ['GET', '/entries/export'],
      ['GET', '/account/export'],
      ['POST', '/account/import', {}],
      ['POST', '/imports/preview', {}],
      ['POST', '/imports', {}],
      ['POST', `/imports/${importId}/undo`],
      ['DELETE', `/ledgers/${ledgerId}`, { password: me.password }],
    ];
    for (const [method, url, payload] of heavy) {
      const res = await t.app.inject({ method, url: `/api/v1${url}`, headers: me.headers, payload });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(429);
      expect(res.json()).toMatchObject({
        code: 'BUSY',
        message: expect.stringMatching(
          /already runs 2 heavy requests at once \(imports, exports, statistics or deletions\)/,
        ),
      });
      expect(res.headers['retry-after']).toBe(String(BUSY_RETRY_SECONDS));
    }
    expect(await snapshot(t.app.db, tables)).toEqual(before);
    // Light routes of the same user, and every route of another user, are not held back.
    expect((await get(me, '/entries')).statusCode).toBe(200);
    expect((await get(other, '/entries/stats')).statusCode).toBe(200);
    // A slot comes back when its request ends (here its connection closes).
    sockets[0]?.destroy();
    await vi.waitFor(async () => expect((await get(me, '/entries/stats')).statusCode).toBe(200));
    sockets[1]?.destroy();
  });

  it('a user over the requests a minute gets 429 RATE_LIMITED with Retry-After until the minute ends; others go on', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2026, 10, 25, 12, 0, 0));
    const me = await signUp(t.app);
    const other = await signUp(t.app);
    for (let i = 0; i < 40; i++) expect((await get(me, '/entries')).statusCode).toBe(200);
    vi.setSystemTime(Date.UTC(2026, 10, 25, 12, 0, 15));
    const tables = await tableNames(t.app.db);
    const before = await snapshot(t.app.db, tables);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/v1/bills',
      headers: me.headers,
      payload: { name: 'Power', category: 'Utilities' },
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/at most 40 a minute per account\. Try again in 45 seconds\./),
    });
    expect(refused.headers['retry-after']).toBe('45');
    expect(await snapshot(t.app.db, tables)).toEqual(before);
    expect((await get(other, '/entries')).statusCode).toBe(200);
    // Requests without a user are not counted: the health probe and sign-in stay open.
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
    vi.setSystemTime(Date.UTC(2026, 10, 25, 12, 1, 0));
    expect((await get(me, '/entries')).statusCode).toBe(200);
  });
});

describe.each(dialects)('fairness defaults on %s', (dialect) => {
  it('let a user make hundreds of requests in a minute, heavy ones one after the other', async () => {
    const t = await createTestApp(dialect);
    try {
      const me = await signUp(t.app);
      // Many quick requests of one user, as the web app makes on a busy page, all answered.
      for (let i = 0; i < 300; i++) {
        const res = await t.app.inject({ method: 'GET', url: '/api/v1/entries/stats', headers: me.headers });
        expect(res.statusCode).toBe(200);
      }
    } finally {
      await t.close();
    }
  });
});
