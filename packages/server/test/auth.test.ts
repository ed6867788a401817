import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../src/lib/time.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { STRONG_PASSWORD, signUp, userData } from './helpers/factories.ts';

describe.each(dialects)('auth (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const post = (url: string, payload?: unknown, remoteAddress = '127.0.0.1') =>
    t.app.inject({ method: 'POST', url: `/api/v1${url}`, payload: payload as object, remoteAddress });
  const userCount = async () =>
    Number(
      (
        await t.app.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  describe('POST /auth/create', () => {
    it('creates an account and answers 201 with username and email', async () => {
      const data = userData();
      const res = await post('/auth/create', data);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ username: data.username, email: data.email });
      expect(res.body).not.toContain('password');
    });

    it('refuses a taken username case-insensitively with 409; a taken email is answered like a new account, but none is made', async () => {
      const data = userData();
      await post('/auth/create', data);
      const before = await userCount();
      const sameName = await post('/auth/create', userData({ username: data.username.toUpperCase() }));
      expect(sameName.statusCode).toBe(409);
      expect(sameName.json()).toMatchObject({ statusCode: 409, error: 'Conflict', message: 'Username already exists' });
      // Sign-up does not reveal whether an address has an account (docs/decisions/1131-verified-addresses.md).
      const other = userData({ email: data.email.toUpperCase() });
      const sameEmail = await post('/auth/create', other);
      const fresh = userData();
      const freshEmail = await post('/auth/create', fresh);
      expect(sameEmail.statusCode).toBe(freshEmail.statusCode);
      expect(sameEmail.json()).toEqual({ username: other.username, email: other.email });
      expect(Object.keys(sameEmail.headers).sort()).toEqual(Object.keys(freshEmail.headers).sort());
      expect(await userCount()).toBe(before + 1);
      const login = await post('/auth/login', { username: other.username, password: other.password });
      expect(login.statusCode).toBe(401);
    });

    it.each([
      [
        { password: 'weakpass' },
        'Password must be at least 8 characters, include uppercase, lowercase, a number, and a special character.',
      ],
      [{ email: 'not-an-email' }, 'Please enter a valid email address.'],
      [{ username: 'a' }, 'Username must be 3 to 50'],
      [{ username: 'bad name!' }, 'Username must be 3 to 50'],
    ])('refuses %j with 400 and the rule text', async (override, message) => {
      const before = await userCount();
      const res = await post('/auth/create', userData(override));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(res.json().message).toContain(message);
      expect(await userCount()).toBe(before);
    });

    it('refuses missing fields and non-JSON bodies with 400', async () => {
      expect((await post('/auth/create', { username: 'only' })).statusCode).toBe(400);
      const malformed = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/create',
        headers: { 'content-type': 'application/json' },
        payload: '{"username":',
      });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().error).toBe('Bad Request');
    });

    it('stores an argon2id hash at OWASP parameters, never the password', async () => {
      const data = userData();
      await post('/auth/create', data);
      const row = await t.app.db
        .selectFrom('users')
        .select('password_hash')
        .where('username_key', '=', data.username.toLowerCase())
        .executeTakeFirstOrThrow();
      expect(row.password_hash).not.toContain(data.password);
      const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(row.password_hash);
      expect(match).not.toBeNull();
      const [m, tCost] = [Number(match?.[1]), Number(match?.[2])];
      expect(m).toBeGreaterThanOrEqual(19 * 1024);
      expect(tCost).toBeGreaterThanOrEqual(2);
    });
  });

  describe('POST /auth/login', () => {
    it('accepts the username or the email, in any case', async () => {
      const data = userData();
      await post('/auth/create', data);
      for (const login of [data.username, data.username.toUpperCase(), data.email, data.email.toUpperCase()]) {
        const res = await post('/auth/login', { username: login, password: data.password });
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body.username).toBe(data.username);
        expect(body.accessToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
        expect(body.refreshToken.length).toBeGreaterThanOrEqual(43); // 256 bits, base64url
      }
    });

    it('answers 401 with a message containing Unauthorized for a wrong password or unknown user', async () => {
      const data = userData();
      await post('/auth/create', data);
      for (const payload of [
        { username: data.username, password: 'Wrong!Passw0rd' },
        { username: 'nobody-here', password: STRONG_PASSWORD },
      ]) {
        const res = await post('/auth/login', payload, '10.1.0.1');
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({
          statusCode: 401,
          error: 'Unauthorized',
          code: 'INVALID_CREDENTIALS',
          message: 'Unauthorized: invalid username or password',
        });
      }
    });

    it('answers 400 when a field is missing', async () => {
      expect((await post('/auth/login', { username: 'x' })).statusCode).toBe(400);
      expect((await post('/auth/login', { password: 'x' })).statusCode).toBe(400);
      expect((await post('/auth/login', { username: '', password: 'x' })).statusCode).toBe(400);
    });
  });

  describe('failed-login throttling', () => {
    it('throttles a username after 10 failures with 429 and Retry-After, even with the right password', async () => {
      const s = await signUp(t.app);
      for (let i = 0; i < 10; i++) {
        const res = await post('/auth/login', { username: s.username, password: 'Wrong!1aa' }, `10.2.0.${i}`);
        expect(res.statusCode).toBe(401);
      }
      const blocked = await post('/auth/login', { username: s.username, password: s.password }, '10.2.1.1');
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
      expect(blocked.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });

      // The throttle expires: it cannot lock the user out for good.
      t.clock.advance(15 * MINUTE + 1000);
      const after = await post('/auth/login', { username: s.username, password: s.password }, '10.2.1.1');
      expect(after.statusCode).toBe(200);
    });

    it('a success resets the username counter', async () => {
      const s = await signUp(t.app);
      for (let i = 0; i < 9; i++)
        await post('/auth/login', { username: s.username, password: 'Wrong!1aa' }, '10.3.0.1');
      expect((await post('/auth/login', { username: s.username, password: s.password }, '10.3.0.1')).statusCode).toBe(
        200,
      );
      for (let i = 0; i < 9; i++) {
        expect(
          (await post('/auth/login', { username: s.username, password: 'Wrong!1aa' }, '10.3.0.2')).statusCode,
        ).toBe(401);
      }
      expect((await post('/auth/login', { username: s.username, password: s.password }, '10.3.0.2')).statusCode).toBe(
        200,
      );
    });

    it('throttles one IP that tries many usernames', async () => {
      const ip = '10.4.0.1';
      for (let i = 0; i < 50; i++) {
        expect((await post('/auth/login', { username: `ghost${i}`, password: 'Wrong!1aa' }, ip)).statusCode).toBe(401);
      }
      const s = await signUp(t.app);
      expect((await post('/auth/login', { username: s.username, password: s.password }, ip)).statusCode).toBe(429);
      expect((await post('/auth/login', { username: s.username, password: s.password }, '10.4.0.2')).statusCode).toBe(
        200,
      );
    });
  });

  describe('POST /auth/refresh', () => {
    it('accepts the token as a query parameter (with an empty JSON body) and as a JSON body', async () => {
      const s = await signUp(t.app);
      const viaQuery = await t.app.inject({
        method: 'POST',
        url: `/api/v1/auth/refresh?refreshToken=${s.refreshToken}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(viaQuery.statusCode).toBe(200);
      const rotated = viaQuery.json();
      expect(rotated.username).toBe(s.username);
      expect(rotated.refreshToken).not.toBe(s.refreshToken);
      const viaBody = await post('/auth/refresh', { refreshToken: rotated.refreshToken });
      expect(viaBody.statusCode).toBe(200);
      const me = await t.app.inject({
        method: 'GET',
        url: `/api/v1/user?userName=${s.username}`,
        headers: { authorization: `Bearer ${viaBody.json().accessToken}` },
      });
      expect(me.statusCode).toBe(200);
    });

    it('answers 400 without a token and 401 for an unknown one', async () => {
      expect((await post('/auth/refresh')).statusCode).toBe(400);
      expect((await post('/auth/refresh', { refreshToken: 'x'.repeat(43) })).statusCode).toBe(401);
    });

    it('a refresh token reused after the reuse interval revokes its whole family', async () => {
      const s = await signUp(t.app);
      const first = await post('/auth/refresh', { refreshToken: s.refreshToken });
      expect(first.statusCode).toBe(200);
      t.clock.advance(31_000);
      const reuse = await post('/auth/refresh', { refreshToken: s.refreshToken });
      expect(reuse.statusCode).toBe(401);
      // The legitimate successor dies with the family.
      expect((await post('/auth/refresh', { refreshToken: first.json().refreshToken })).statusCode).toBe(401);
    });

    it('two concurrent uses of one token both get pairs within the reuse interval; later the token is spent', async () => {
      const s = await signUp(t.app);
      const results = await Promise.all([
        post('/auth/refresh', { refreshToken: s.refreshToken }),
        post('/auth/refresh', { refreshToken: s.refreshToken }),
      ]);
      expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
      t.clock.advance(31_000);
      expect((await post('/auth/refresh', { refreshToken: s.refreshToken })).statusCode).toBe(401);
    });

    it('expires after 14 days', async () => {
      const s = await signUp(t.app);
      t.clock.advance(14 * 24 * 60 * MINUTE + 1000);
      expect((await post('/auth/refresh', { refreshToken: s.refreshToken })).statusCode).toBe(401);
    });

    it('never writes the refresh token to the logs', async () => {
      const lines: string[] = [];
      const logged = await createTestApp(
        dialect,
        { logLevel: 'trace' },
        { logStream: { write: (line: string) => lines.push(line) } as unknown as NodeJS.WritableStream },
      );
      try {
        const s = await signUp(logged.app);
        const res = await logged.app.inject({
          method: 'POST',
          url: `/api/v1/auth/refresh?refreshToken=${encodeURIComponent(s.refreshToken)}`,
        });
        expect(res.statusCode).toBe(200);
        const log = lines.join('\n');
        expect(log).toContain('/api/v1/auth/refresh');
        expect(log).not.toContain(s.refreshToken);
        expect(log).not.toContain(res.json().refreshToken);
        expect(log).not.toContain(s.password);
      } finally {
        await logged.close();
      }
    });
  });

  describe('access tokens', () => {
    const me = (s: { username: string }, authorization?: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/v1/user?userName=${s.username}`,
        headers: authorization ? { authorization } : {},
      });

    it('a missing or malformed token is 401', async () => {
      const s = await signUp(t.app);
      expect((await me(s)).statusCode).toBe(401);
      expect((await me(s, 'Bearer')).statusCode).toBe(401);
      expect((await me(s, `Basic ${s.accessToken}`)).statusCode).toBe(401);
      expect((await me(s, 'Bearer not.a.jwt')).json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    });

    it('expires after 15 minutes', async () => {
      const s = await signUp(t.app);
      t.clock.advance(14 * MINUTE);
      expect((await me(s, `Bearer ${s.accessToken}`)).statusCode).toBe(200);
      t.clock.advance(2 * MINUTE);
      expect((await me(s, `Bearer ${s.accessToken}`)).statusCode).toBe(401);
    });

    it('refuses tampered, alg:none, foreign-key and refresh tokens', async () => {
      const s = await signUp(t.app);
      const [header, payload, signature] = s.accessToken.split('.') as [string, string, string];
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const forged = Buffer.from(JSON.stringify({ ...claims, sub: '999999' })).toString('base64url');
      expect((await me(s, `Bearer ${header}.${forged}.${signature}`)).statusCode).toBe(401);

      const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      expect((await me(s, `Bearer ${none}.${payload}.`)).statusCode).toBe(401);

      const otherKey = createSigner({ key: 'another-secret-another-secret-0123456789', algorithm: 'HS256' });
      expect((await me(s, `Bearer ${otherKey(claims)}`)).statusCode).toBe(401);

      expect((await me(s, `Bearer ${s.refreshToken}`)).statusCode).toBe(401);
    });
  });
});
