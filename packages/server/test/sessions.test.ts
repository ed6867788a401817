import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { MINUTE } from '../src/lib/time.ts';
import { LIMITS, retryPhrase } from '../src/modules/auth/throttle.ts';
import { dialects, secondProcess, type TestApp, testConfig, withSecondProcess } from './helpers/app.ts';
import { type Session, signIn, signUp, userData } from './helpers/factories.ts';
import { enrolMfa } from './helpers/mfa.ts';

/**
 * Sessions as real clients use them: the refresh-token reuse interval (the original client sends five identical
 * refreshes at once; tabs sharing one session refresh together), on two server processes over one database;
 * access tokens cut off at once by a password change or deactivation; throttling per account (username and
 * email share one counter) and per client address, where TRUST_PROXY decides the address; sign-up and refresh
 * limits per address; 429 answers that say when to retry.
 */

const WRONG = 'Wrong!Passw0rd';

let addressSequence = 0;
/** A client address no other test uses, so per-address counters start at zero. */
function freshIp(): string {
  addressSequence += 1;
  return `10.77.${(addressSequence >> 8) & 255}.${addressSequence & 255}`;
}

function expectThrottled(res: LightMyRequestResponse, reason: string) {
  expect(res.statusCode).toBe(429);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  expect(res.json()).toEqual({
    statusCode: 429,
    error: 'Too Many Requests',
    code: 'TOO_MANY_REQUESTS',
    message: `${reason} Try again ${retryPhrase(retryAfter)}.`,
  });
}

describe('retryPhrase', () => {
  it('says how long in seconds under a minute, else in whole minutes rounded up', () => {
    expect(retryPhrase(1)).toBe('in 1 second');
    expect(retryPhrase(42)).toBe('in 42 seconds');
    expect(retryPhrase(60)).toBe('in 1 minute');
    expect(retryPhrase(61)).toBe('in 2 minutes');
    expect(retryPhrase(900)).toBe('in 15 minutes');
  });
});

describe.each(dialects)('sessions (%s)', (dialect) => {
  let t: TestApp;
  /** A second server process on the same database: token state must be shared, not per process. */
  let other: FastifyInstance;
  withSecondProcess(dialect, (app, second) => {
    t = app;
    other = second;
  });

  /** The original client: the token in the query string, an empty JSON body. */
  const refreshByQuery = (app: FastifyInstance, token: string, ip = '127.0.0.1') =>
    app.inject({
      method: 'POST',
      url: `/api/v1/auth/refresh?refreshToken=${encodeURIComponent(token)}`,
      headers: { 'content-type': 'application/json' },
      remoteAddress: ip,
    });
  const refresh = (token: string, app: FastifyInstance = t.app) =>
    app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: token } });
  const me = (s: { username: string }, accessToken: string, app: FastifyInstance = t.app) =>
    app.inject({
      method: 'GET',
      url: `/api/v1/user?userName=${s.username}`,
      headers: { authorization: `Bearer ${accessToken}` },
    });
  const putUser = (s: Session, payload: object) =>
    t.app.inject({ method: 'PUT', url: '/api/v1/user', headers: s.headers, payload });
  const login = (username: string, password: string, ip: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { username, password },
      remoteAddress: ip,
      headers,
    });

  describe('refresh-token reuse interval', () => {
    it('five identical refreshes at once, on two processes, all get working pairs of one family', async () => {
      const s = await signUp(t.app);
      const burst = await Promise.all(
        Array.from({ length: 5 }, (_, i) => refreshByQuery(i % 2 === 0 ? t.app : other, s.refreshToken)),
      );
      expect(burst.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
      const pairs = burst.map((r) => r.json<{ accessToken: string; refreshToken: string; username: string }>());
      expect(new Set(pairs.map((p) => p.refreshToken)).size).toBe(5);
      for (const pair of pairs) {
        expect(pair.username).toBe(s.username);
        expect((await me(s, pair.accessToken, other)).statusCode).toBe(200);
      }
      // Every refresh token handed out works (each once), and they all belong to the original family.
      for (const pair of pairs) expect((await refresh(pair.refreshToken, other)).statusCode).toBe(200);
      const families = await t.app.db
        .selectFrom('refresh_tokens as r')
        .innerJoin('users as u', 'u.id', 'r.user_id')
        .select('r.family_id')
        .distinct()
        .where('u.username_key', '=', s.username.toLowerCase())
        .execute();
      expect(families).toHaveLength(1);
    });

    it('two tabs refreshing one token seconds apart both stay signed in', async () => {
      const s = await signUp(t.app);
      const first = await refresh(s.refreshToken);
      t.clock.advance(29_000);
      const second = await refresh(s.refreshToken, other);
      expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
      expect((await refresh(first.json().refreshToken)).statusCode).toBe(200);
      expect((await refresh(second.json().refreshToken, other)).statusCode).toBe(200);
    });

    it('reuse after the interval is theft: 401, and the whole family dies on every process', async () => {
      const s = await signUp(t.app);
      const first = await refresh(s.refreshToken);
      expect(first.statusCode).toBe(200);
      t.clock.advance(30_001);
      const reuse = await refresh(s.refreshToken, other);
      expect(reuse.statusCode).toBe(401);
      expect(reuse.json().message).toBe('Unauthorized: refresh token already used');
      expect((await refresh(first.json().refreshToken)).statusCode).toBe(401);
      // The revoked family stays dead, even for a token presented inside what was its interval.
      expect((await refresh(s.refreshToken)).statusCode).toBe(401);
    });

    it('REFRESH_REUSE_SECONDS sets the interval: at 0 a second use revokes the family at once', async () => {
      const strict = await secondProcess(t, { refreshReuseSeconds: 0 });
      try {
        const s = await signUp(strict);
        const first = await refresh(s.refreshToken, strict);
        expect(first.statusCode).toBe(200);
        t.clock.advance(1);
        expect((await refresh(s.refreshToken, strict)).statusCode).toBe(401);
        expect((await refresh(first.json().refreshToken, strict)).statusCode).toBe(401);
      } finally {
        await strict.close();
      }
    });
  });

  describe('access tokens stop at once', () => {
    it('after a password change, on every process, while tokens issued after it work', async () => {
      const s = await signUp(t.app);
      const laptop = await signIn(t.app, s);
      const refreshed = (await refresh(s.refreshToken)).json().accessToken as string;
      expect((await putUser(s, { password: s.password, newPassword: 'N3w!Password' })).statusCode).toBe(200);
      // Same instant on the test clock: the cut-off does not depend on timestamps.
      for (const token of [s.accessToken, laptop.accessToken, refreshed]) {
        for (const app of [t.app, other]) {
          const res = await me(s, token, app);
          expect(res.statusCode).toBe(401);
          expect(res.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
        }
      }
      const again = await signIn(t.app, { ...s, password: 'N3w!Password' });
      expect((await me(s, again.accessToken, other)).statusCode).toBe(200);
      expect((await refresh(again.refreshToken, other)).statusCode).toBe(200);
    });

    it('after deactivation, and still after a login reactivates the account', async () => {
      const s = await signUp(t.app);
      expect((await putUser(s, { password: s.password, recycle: true })).statusCode).toBe(200);
      expect((await me(s, s.accessToken, other)).statusCode).toBe(401);
      const back = await signIn(t.app, s);
      expect((await me(s, back.accessToken)).statusCode).toBe(200);
      expect((await me(s, s.accessToken)).statusCode).toBe(401);
    });

    it('an email or MFA change leaves the session alone', async () => {
      const s = await signUp(t.app);
      expect((await putUser(s, { password: s.password, newEmail: `moved.${s.email}` })).statusCode).toBe(200);
      await enrolMfa(t.app, s, t.clock.now());
      expect((await me(s, s.accessToken)).statusCode).toBe(200);
      expect((await refresh(s.refreshToken)).statusCode).toBe(200);
    });
  });

  describe('failed-login throttling per account', () => {
    it('the username and the email share one counter, in any letter case', async () => {
      const s = await signUp(t.app);
      const names = [s.username, s.email.toUpperCase(), s.username.toUpperCase(), s.email, ` ${s.email} `];
      for (let i = 0; i < LIMITS.account; i++) {
        const res = await login(names[i % names.length] as string, WRONG, freshIp());
        expect(res.statusCode).toBe(401);
      }
      for (const name of names) {
        expectThrottled(await login(name, s.password, freshIp()), 'Too many failed sign-in attempts.');
      }
      const blocked = await login(s.email, s.password, freshIp());
      expect(blocked.json().message).toBe('Too many failed sign-in attempts. Try again in 15 minutes.');
      t.clock.advance(15 * MINUTE);
      expect((await login(s.email.toUpperCase(), s.password, freshIp())).statusCode).toBe(200);
    });

    it('an unknown name is throttled exactly like an account, so 429 reveals nothing', async () => {
      const name = `ghost_${dialect}_${Date.now()}`;
      for (let i = 0; i < LIMITS.account; i++) expect((await login(name, WRONG, freshIp())).statusCode).toBe(401);
      expectThrottled(await login(name.toUpperCase(), WRONG, freshIp()), 'Too many failed sign-in attempts.');
    });

    it('a changed email still counts against the same account', async () => {
      const s = await signUp(t.app);
      for (let i = 0; i < LIMITS.account - 1; i++) await login(s.email, WRONG, freshIp());
      const moved = `moved.${s.email}`;
      expect((await putUser(s, { password: s.password, newEmail: moved })).statusCode).toBe(200);
      expect((await login(moved, WRONG, freshIp())).statusCode).toBe(401);
      expectThrottled(await login(s.username, s.password, freshIp()), 'Too many failed sign-in attempts.');
    });
  });

  describe('client address and TRUST_PROXY', () => {
    /** An app on the same database whose requests all come from one proxy at 127.0.0.1. */
    async function behindProxy(trustProxy: false | string[], run: (app: FastifyInstance) => Promise<void>) {
      const app = await secondProcess(t, { trustProxy });
      try {
        await run(app);
      } finally {
        await app.close();
      }
    }
    const viaProxy = (app: FastifyInstance, username: string, password: string, client: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { username, password },
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': client },
      });

    it.each([
      [false, '127.0.0.1'],
      [['127.0.0.1'], '198.51.100.7'],
      [['10.0.0.0/8', 'loopback'], '198.51.100.7'],
      [1, '198.51.100.7'],
      [2, '203.0.113.9'],
      [true, '203.0.113.9'],
    ] as const)('TRUST_PROXY %j takes the client address to be %s', async (trustProxy, expected) => {
      const lines: string[] = [];
      const app = await buildApp(
        testConfig(t.database.config, {
          // A successful health check is logged at debug level (lib/logger.ts, `quietRoutes`).
          logLevel: 'debug',
          trustProxy: typeof trustProxy === 'object' ? [...trustProxy] : trustProxy,
        }),
        { logStream: { write: (line: string) => lines.push(line) } as unknown as NodeJS.WritableStream },
      );
      try {
        const res = await app.inject({
          method: 'GET',
          url: '/api/v1/health',
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': '203.0.113.9, 198.51.100.7' },
        });
        expect(res.statusCode).toBe(200);
        const incoming = lines.map((line) => JSON.parse(line)).find((entry) => entry.req?.url === '/api/v1/health');
        expect(incoming?.req.ip).toBe(expected);
      } finally {
        await app.close();
      }
    });

    it('with the proxy trusted, one guessing client is throttled and everyone else behind the proxy signs in', async () => {
      t.clock.advance(16 * MINUTE); // earlier tests' failures from 127.0.0.1 leave the window
      await behindProxy(['127.0.0.1'], async (app) => {
        const attacker = freshIp();
        for (let i = 0; i < LIMITS.loginAddress; i++) {
          expect((await viaProxy(app, `nobody${i}_${dialect}`, WRONG, attacker)).statusCode).toBe(401);
        }
        const s = await signUp(t.app);
        expectThrottled(await viaProxy(app, s.username, s.password, attacker), 'Too many failed sign-in attempts.');
        expect((await viaProxy(app, s.username, s.password, freshIp())).statusCode).toBe(200);
        // The address the proxy appends is the one counted, not one the client wrote in front of it.
        const spoofed = await viaProxy(app, s.username, s.password, `${freshIp()}, ${attacker}`);
        expectThrottled(spoofed, 'Too many failed sign-in attempts.');
      });
    });

    it('without TRUST_PROXY, X-Forwarded-For is ignored: a client cannot escape its counter by forging it', async () => {
      t.clock.advance(16 * MINUTE);
      const s = await signUp(t.app);
      await behindProxy(false, async (app) => {
        for (let i = 0; i < LIMITS.loginAddress; i++) {
          expect((await viaProxy(app, `nobody${i}_${dialect}`, WRONG, freshIp())).statusCode).toBe(401);
        }
        expectThrottled(await viaProxy(app, s.username, s.password, freshIp()), 'Too many failed sign-in attempts.');
      });
      t.clock.advance(16 * MINUTE); // 127.0.0.1 is free again for the tests that follow
    });
  });

  describe('sign-up and refresh are limited per address', () => {
    it(`allows ${LIMITS.signUpAddress} sign-ups per address in 15 minutes, then 429 saying when`, async () => {
      const ip = freshIp();
      const create = (address: string) =>
        t.app.inject({ method: 'POST', url: '/api/v1/auth/create', payload: userData(), remoteAddress: address });
      for (let i = 0; i < LIMITS.signUpAddress; i++) expect((await create(ip)).statusCode).toBe(201);
      const refused = await create(ip);
      expectThrottled(refused, 'Too many accounts created from this address.');
      expect((await create(freshIp())).statusCode).toBe(201);
      t.clock.advance(Number(refused.headers['retry-after']) * 1000);
      expect((await create(ip)).statusCode).toBe(201);
    });

    it(`allows ${LIMITS.refreshAddress} refreshes per address in 15 minutes, then 429 saying when`, async () => {
      const s = await signUp(t.app);
      const ip = freshIp();
      const bogus = 'x'.repeat(43);
      for (let i = 0; i < LIMITS.refreshAddress; i++) {
        const res = await refreshByQuery(i % 2 === 0 ? t.app : other, bogus, ip);
        expect(res.statusCode).toBe(401);
      }
      expectThrottled(await refreshByQuery(other, s.refreshToken, ip), 'Too many session refreshes from this address.');
      // The refused attempt did not spend the token.
      expect((await refreshByQuery(t.app, s.refreshToken, freshIp())).statusCode).toBe(200);
    });
  });
});
