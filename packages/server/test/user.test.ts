import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { type Session, signIn, signUp, userData } from './helpers/factories.ts';

describe.each(dialects)('user account (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const getUser = (s: Session, userName = s.username) =>
    t.app.inject({ method: 'GET', url: `/api/v1/user?userName=${encodeURIComponent(userName)}`, headers: s.headers });
  const putUser = (s: Session, payload: object) =>
    t.app.inject({ method: 'PUT', url: '/api/v1/user', headers: s.headers, payload });
  const refresh = (token: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: token } });
  const login = (username: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username, password } });

  describe('GET /user', () => {
    it('returns the caller with UTC timestamps without offset', async () => {
      const s = await signUp(t.app);
      const res = await getUser(s, s.username.toUpperCase());
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toEqual({
        username: s.username,
        email: s.email,
        roles: 'ROLE_USER',
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
        lastLogin: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
        mfaEnabled: false,
        hasPassword: true,
      });
      expect(new Date(`${body.createdAt}Z`).getTime()).toBe(Math.floor(t.clock.now() / 1000) * 1000);
      expect(res.body).not.toMatch(/hash|argon/i);
    });

    it("refuses another user's name with 403 and a missing name with 400", async () => {
      const a = await signUp(t.app);
      const b = await signUp(t.app);
      const res = await getUser(a, b.username);
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain(b.email);
      const missing = await t.app.inject({ method: 'GET', url: '/api/v1/user', headers: a.headers });
      expect(missing.statusCode).toBe(400);
    });
  });

  describe('PUT /user', () => {
    it('a wrong current password is 403 with error and message, and changes nothing', async () => {
      const s = await signUp(t.app);
      const res = await putUser(s, { password: 'Wrong!Passw0rd', newEmail: 'changed@example.com' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'Forbidden', code: 'WRONG_PASSWORD', message: expect.any(String) });
      expect((await getUser(s)).json().email).toBe(s.email);
    });

    it('wrong current passwords count with failed sign-ins: after 10, every password check of the account is 429 until the window passes', async () => {
      const s = await signUp(t.app);
      let ip = 0;
      /** Each check from its own address, so only the account's counter can hold it back. */
      const from = () => `10.77.${dialect === 'sqlite' ? 1 : 2}.${++ip}`;
      const checks = {
        putUser: (password: string) =>
          t.app.inject({
            method: 'PUT',
            url: '/api/v1/user',
            headers: s.headers,
            payload: { password, newEmail: `${s.username}.new@example.com` },
            remoteAddress: from(),
          }),
        setup: (password: string) =>
          t.app.inject({
            method: 'POST',
            url: '/api/v1/user/mfa/setup',
            headers: s.headers,
            payload: { password },
            remoteAddress: from(),
          }),
        recoveryCodes: (password: string) =>
          t.app.inject({
            method: 'POST',
            url: '/api/v1/user/mfa/recovery-codes',
            headers: s.headers,
            payload: { password, code: '123456' },
            remoteAddress: from(),
          }),
        login: (password: string) =>
          t.app.inject({
            method: 'POST',
            url: '/api/v1/auth/login',
            payload: { username: s.username, password },
            remoteAddress: from(),
          }),
      };
      const WRONG = 'Wrong!Passw0rd';

      // Nine wrong, through every check that asks for the current password, sign-in included.
      const wrong = [checks.putUser, checks.setup, checks.recoveryCodes, checks.login];
      for (let i = 0; i < 9; i++) {
        const res = await (wrong[i % wrong.length] as typeof checks.login)(WRONG);
        expect(res.statusCode).toBe(i % wrong.length === 3 ? 401 : 403);
      }
      // A right one in between is let through, and wipes out none of them: the tenth wrong is the last checked.
      expect((await checks.setup(s.password)).statusCode).toBe(200);
      expect((await checks.putUser(WRONG)).statusCode).toBe(403);
      // Now even the right password is refused everywhere, with when to try again.
      for (const check of Object.values(checks)) {
        const res = await check(s.password);
        expect(res.statusCode).toBe(429);
        expect(res.json().message).toMatch(
          /^Too many (wrong passwords|failed sign-in attempts)\. Try again in \d+ minutes?\.$/,
        );
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect((await getUser(s)).json().email).toBe(s.email);

      t.clock.advance(15 * 60 * 1000 + 1000);
      const again = await signIn(t.app, s);
      const changed = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/user',
        headers: again.headers,
        payload: { password: s.password, newEmail: `${s.username}.new@example.com` },
        remoteAddress: from(),
      });
      expect(changed.statusCode).toBe(200);
    });

    it('changes the email (ignoring the user object sent along) and refuses a taken one', async () => {
      const s = await signUp(t.app);
      const other = await signUp(t.app);
      const res = await putUser(s, {
        username: 'someone-else',
        email: s.email,
        roles: 'ROLE_ADMIN',
        newEmail: `  New.${s.email}  `,
        password: s.password,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ username: s.username, email: `New.${s.email}`, roles: 'ROLE_USER' });
      const taken = await putUser(s, { newEmail: other.email.toUpperCase(), password: s.password });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().message).toBe('Email already registered');
      const invalid = await putUser(s, { newEmail: 'nope', password: s.password });
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json().message).toContain('Please enter a valid email address.');
      // The new email signs in.
      expect((await login(`new.${s.email}`, s.password)).statusCode).toBe(200);
    });

    it('changes the password, enforces strength and revokes refresh tokens', async () => {
      const s = await signUp(t.app);
      const weak = await putUser(s, { password: s.password, newPassword: 'weak' });
      expect(weak.statusCode).toBe(400);
      const res = await putUser(s, { password: s.password, newPassword: 'N3w!Password' });
      expect(res.statusCode).toBe(200);
      expect((await refresh(s.refreshToken)).statusCode).toBe(401);
      expect((await login(s.username, s.password)).statusCode).toBe(401);
      expect((await login(s.username, 'N3w!Password')).statusCode).toBe(200);
    });

    it('deactivates: revokes tokens, locks out the access token; a login reactivates', async () => {
      const s = await signUp(t.app);
      const res = await putUser(s, { password: s.password, recycle: true });
      expect(res.statusCode).toBe(200);
      expect((await refresh(s.refreshToken)).statusCode).toBe(401);
      expect((await getUser(s)).statusCode).toBe(401);
      const again = await signIn(t.app, s);
      expect((await getUser(again)).statusCode).toBe(200);
      const row = await t.app.db
        .selectFrom('users')
        .select('deactivated_at')
        .where('username_key', '=', s.username.toLowerCase())
        .executeTakeFirstOrThrow();
      expect(row.deactivated_at).toBeNull();
    });

    it('needs a password and something to change', async () => {
      const s = await signUp(t.app);
      expect((await putUser(s, { newEmail: 'x@y.zz' })).statusCode).toBe(400);
      const nothing = await putUser(s, { password: s.password });
      expect(nothing.statusCode).toBe(400);
    });

    it('refuses an unauthenticated call', async () => {
      const res = await t.app.inject({ method: 'PUT', url: '/api/v1/user', payload: userData() });
      expect(res.statusCode).toBe(401);
    });
  });
});
