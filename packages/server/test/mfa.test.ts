import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { totpCode } from '../src/lib/totp.ts';
import { createTestApp, dialects, type TestApp, testConfig } from './helpers/app.ts';
import { type Session, signUp } from './helpers/factories.ts';
import { enrolMfa } from './helpers/mfa.ts';

const STEP = 30_000;

describe.each(dialects)('two-factor sign-in (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  /** Each test signs in from its own address, so one test's failures never throttle another's. */
  const newIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  const post = (url: string, payload: object, opts: { s?: Session; ip?: string } = {}) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1${url}`,
      payload,
      ...(opts.s ? { headers: opts.s.headers } : {}),
      ...(opts.ip ? { remoteAddress: opts.ip } : {}),
    });
  const putUser = (s: Session, payload: object, ip?: string) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/v1/user',
      headers: s.headers,
      payload,
      ...(ip ? { remoteAddress: ip } : {}),
    });
  const getUser = (s: Session) =>
    t.app.inject({ method: 'GET', url: `/api/v1/user?userName=${s.username}`, headers: s.headers });
  const status = (s: Session) => t.app.inject({ method: 'GET', url: '/api/v1/user/mfa', headers: s.headers });
  const login = (s: Session, ip?: string) =>
    post('/auth/login', { username: s.username, password: s.password }, { ...(ip ? { ip } : {}) });
  const challengeOf = async (s: Session, ip?: string) => {
    const res = await login(s, ip);
    expect(res.statusCode).toBe(200);
    return res.json<{ challenge: string }>().challenge;
  };
  const code = (secret: string) => totpCode(secret, t.clock.now());
  /** A signed-in account with MFA on; the clock is moved past the step its confirmation code used. */
  const enrolled = async () => {
    const s = await signUp(t.app);
    const enrolment = await enrolMfa(t.app, s, t.clock.now());
    t.clock.advance(STEP);
    return { s, ...enrolment };
  };
  const userRow = (s: Session) =>
    t.app.db
      .selectFrom('users')
      .selectAll()
      .where('username_key', '=', s.username.toLowerCase())
      .executeTakeFirstOrThrow();

  describe('enrolment', () => {
    it('set-up needs the password and gives a secret and its otpauth URI; MFA stays off until confirmed', async () => {
      const s = await signUp(t.app);
      const wrong = await post('/user/mfa/setup', { password: 'Wrong!Passw0rd' }, { s });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toMatchObject({ code: 'WRONG_PASSWORD', message: 'Current password is incorrect' });
      expect((await post('/user/mfa/setup', {}, { s })).statusCode).toBe(400);
      const res = await post('/user/mfa/setup', { password: s.password }, { s });
      expect(res.statusCode).toBe(200);
      const { secret, otpauthUri } = res.json();
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(otpauthUri).toBe(
        `otpauth://totp/Billfold:${s.username}?issuer=Billfold&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
      );
      expect((await getUser(s)).json().mfaEnabled).toBe(false);
      expect((await login(s)).json()).toHaveProperty('accessToken');
      // Stored encrypted, never as the secret itself.
      const row = await userRow(s);
      expect(row.mfa_pending_secret).toMatch(/^v1:/);
      expect(JSON.stringify(row)).not.toContain(secret);
    });

    it('confirming needs a set-up and a valid code of its secret; then MFA is on with ten recovery codes', async () => {
      const s = await signUp(t.app);
      const ip = newIp();
      const early = await post('/user/mfa/enable', { code: '123456' }, { s, ip });
      expect(early.statusCode).toBe(409);
      const { secret } = (await post('/user/mfa/setup', { password: s.password }, { s })).json();
      const wrong = await post('/user/mfa/enable', { code: totpCode(secret, t.clock.now() + 5 * STEP) }, { s, ip });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json().message).toBe('Invalid authentication code');
      expect((await getUser(s)).json().mfaEnabled).toBe(false);
      const res = await post('/user/mfa/enable', { code: code(secret) }, { s, ip });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.user).toMatchObject({ username: s.username, mfaEnabled: true });
      expect(body.recoveryCodes).toHaveLength(10);
      expect(new Set(body.recoveryCodes).size).toBe(10);
      expect((await getUser(s)).json().mfaEnabled).toBe(true);
      expect((await status(s)).json()).toEqual({ mfaEnabled: true, recoveryCodesLeft: 10 });
      // Recovery codes are stored hashed, the secret encrypted; neither is ever returned again.
      const codes = await t.app.db.selectFrom('mfa_recovery_codes').selectAll().execute();
      const stored = JSON.stringify(codes);
      for (const c of body.recoveryCodes) expect(stored).not.toContain(c.replace('-', ''));
      const row = await userRow(s);
      expect(row.mfa_secret).toMatch(/^v1:/);
      expect(row.mfa_pending_secret).toBeNull();
      for (const res2 of [await getUser(s), await status(s)]) expect(res2.body).not.toContain(secret);
    });

    it('a second set-up replaces the first secret; once on, set-up and confirmation are refused', async () => {
      const s = await signUp(t.app);
      const first = (await post('/user/mfa/setup', { password: s.password }, { s })).json().secret;
      const second = (await post('/user/mfa/setup', { password: s.password }, { s })).json().secret;
      expect(second).not.toBe(first);
      expect((await post('/user/mfa/enable', { code: code(first) }, { s })).statusCode).toBe(403);
      expect((await post('/user/mfa/enable', { code: code(second) }, { s })).statusCode).toBe(200);
      const again = await post('/user/mfa/setup', { password: s.password }, { s });
      expect(again.statusCode).toBe(409);
      expect((await post('/user/mfa/enable', { code: code(second) }, { s })).statusCode).toBe(409);
    });

    it('the enrolment calls need a signed-in caller', async () => {
      for (const [url, payload] of [
        ['/user/mfa/setup', { password: 'x' }],
        ['/user/mfa/enable', { code: '123456' }],
        ['/user/mfa/recovery-codes', { password: 'x', code: '123456' }],
      ] as const) {
        expect((await post(url, payload)).statusCode).toBe(401);
      }
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/user/mfa' })).statusCode).toBe(401);
    });
  });

  describe('sign-in', () => {
    it('an account without MFA gets its tokens from the password alone, as before', async () => {
      const s = await signUp(t.app);
      const res = await login(s);
      expect(Object.keys(res.json()).sort()).toEqual(['accessToken', 'refreshToken', 'username']);
    });

    it('with MFA the password gives a challenge, and the challenge with a code gives the tokens', async () => {
      const { s, secret } = await enrolled();
      const lastLogin = (await getUser(s)).json().lastLogin;
      t.clock.advance(60_000);
      const res = await login(s);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toEqual({ mfaRequired: true, challenge: expect.any(String), expiresIn: 300 });
      expect(body.challenge.length).toBeGreaterThanOrEqual(43);
      // Not signed in yet: no tokens, and no new "last login".
      expect((await getUser(s)).json().lastLogin).toBe(lastLogin);
      const done = await post('/auth/login/mfa', { challenge: body.challenge, code: code(secret) });
      expect(done.statusCode).toBe(200);
      const tokens = done.json();
      expect(Object.keys(tokens).sort()).toEqual(['accessToken', 'refreshToken', 'username']);
      expect(tokens.username).toBe(s.username);
      const signedIn = { ...s, headers: { authorization: `Bearer ${tokens.accessToken}` } };
      expect((await getUser(signedIn)).json().lastLogin).not.toBe(lastLogin);
      const refreshed = await post('/auth/refresh', { refreshToken: tokens.refreshToken });
      expect(refreshed.statusCode).toBe(200);
    });

    it('a wrong password is refused as before, without a challenge', async () => {
      const { s } = await enrolled();
      const res = await post('/auth/login', { username: s.username, password: 'Wrong!Passw0rd' });
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toContain('Unauthorized');
      expect(res.body).not.toContain('challenge');
    });

    it('a wrong code is 401 and leaves the challenge usable; a used, unknown or expired challenge is 401', async () => {
      const { s, secret } = await enrolled();
      const ip = newIp();
      const challenge = await challengeOf(s, ip);
      const wrong = await post(
        '/auth/login/mfa',
        { challenge, code: totpCode(secret, t.clock.now() + 10 * STEP) },
        { ip },
      );
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().message).toBe('Unauthorized: invalid authentication code');
      expect(wrong.json().code).toBe('INVALID_MFA_CODE');
      expect((await post('/auth/login/mfa', { challenge, code: 'not a code' }, { ip })).statusCode).toBe(401);
      expect((await post('/auth/login/mfa', { challenge, code: code(secret) }, { ip })).statusCode).toBe(200);
      t.clock.advance(STEP);
      const used = await post('/auth/login/mfa', { challenge, code: code(secret) }, { ip });
      expect(used.statusCode).toBe(401);
      expect(used.json().message).toBe('Unauthorized: sign-in expired or invalid, log in again');
      expect(used.json().code).toBe('MFA_CHALLENGE_EXPIRED');
      expect((await post('/auth/login/mfa', { challenge: 'made-up', code: code(secret) }, { ip })).statusCode).toBe(
        401,
      );
      const late = await challengeOf(s, ip);
      t.clock.advance(5 * 60_000 + 1);
      expect((await post('/auth/login/mfa', { challenge: late, code: code(secret) }, { ip })).statusCode).toBe(401);
      expect((await post('/auth/login/mfa', { challenge: late }, { ip })).statusCode).toBe(400);
    });

    it('a code is accepted once: no replay within its window, nor of an earlier code after a later one', async () => {
      const { s, secret } = await enrolled();
      const now = code(secret);
      expect((await post('/auth/login/mfa', { challenge: await challengeOf(s), code: now })).statusCode).toBe(200);
      const replay = await post('/auth/login/mfa', { challenge: await challengeOf(s), code: now });
      expect(replay.statusCode).toBe(401);
      // The previous step's code is within the drift window, but older than the one already used.
      const previous = totpCode(secret, t.clock.now() - STEP);
      expect((await post('/auth/login/mfa', { challenge: await challengeOf(s), code: previous })).statusCode).toBe(401);
      t.clock.advance(STEP);
      expect((await post('/auth/login/mfa', { challenge: await challengeOf(s), code: code(secret) })).statusCode).toBe(
        200,
      );
    });

    it('tolerates a phone clock one step off either way, not two', async () => {
      const { s, secret } = await enrolled();
      const ahead = totpCode(secret, t.clock.now() + STEP);
      expect((await post('/auth/login/mfa', { challenge: await challengeOf(s), code: ahead })).statusCode).toBe(200);
      t.clock.advance(4 * STEP);
      const behind = totpCode(secret, t.clock.now() - STEP);
      expect((await post('/auth/login/mfa', { challenge: await challengeOf(s), code: behind })).statusCode).toBe(200);
      t.clock.advance(4 * STEP);
      const tooFar = totpCode(secret, t.clock.now() - 2 * STEP);
      expect((await post('/auth/login/mfa', { challenge: await challengeOf(s), code: tooFar })).statusCode).toBe(401);
    });

    it('a recovery code signs in once, in any case and with or without its hyphen', async () => {
      const { s, recoveryCodes } = await enrolled();
      const [first = '', second = ''] = recoveryCodes;
      const one = await post('/auth/login/mfa', { challenge: await challengeOf(s), code: first });
      expect(one.statusCode).toBe(200);
      expect((await post('/auth/login/mfa', { challenge: await challengeOf(s), code: first })).statusCode).toBe(401);
      const loose = ` ${second.replace('-', '').toUpperCase()} `;
      expect((await post('/auth/login/mfa', { challenge: await challengeOf(s), code: loose })).statusCode).toBe(200);
      const signedIn = { ...s, headers: { authorization: `Bearer ${one.json().accessToken}` } };
      expect((await status(signedIn)).json()).toEqual({ mfaEnabled: true, recoveryCodesLeft: 8 });
    });

    it('throttles failed codes per account: 10 in 15 minutes, then 429 even for the right code', async () => {
      const { s, secret } = await enrolled();
      const wrongCode = () => totpCode(secret, t.clock.now() + 20 * STEP);
      const challenge = await challengeOf(s, newIp());
      for (let i = 0; i < 10; i++) {
        // From changing addresses: the limit is the account's, not one client's.
        const res = await post('/auth/login/mfa', { challenge, code: wrongCode() }, { ip: newIp() });
        expect(res.statusCode).toBe(401);
      }
      const refused = await post('/auth/login/mfa', { challenge, code: code(secret) }, { ip: newIp() });
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // A right password does not reset the count of wrong codes.
      const fresh = await challengeOf(s, newIp());
      expect(
        (await post('/auth/login/mfa', { challenge: fresh, code: code(secret) }, { ip: newIp() })).statusCode,
      ).toBe(429);
      // Nor do the account's other calls let codes be guessed past it.
      const off = await putUser(s, { password: s.password, mfaEnabled: false, code: code(secret) }, newIp());
      expect(off.statusCode).toBe(429);
      t.clock.advance(15 * 60_000);
      const later = await challengeOf(s, newIp());
      expect(
        (await post('/auth/login/mfa', { challenge: later, code: code(secret) }, { ip: newIp() })).statusCode,
      ).toBe(200);
    });

    it('one code used in two server processes at the same moment signs in only once', async () => {
      const { s, secret } = await enrolled();
      const other = await buildApp(testConfig(t.database.config, { now: t.clock.now }));
      try {
        const c = code(secret);
        const [a, b] = [await challengeOf(s), await challengeOf(s)];
        const results = await Promise.all([
          t.app.inject({ method: 'POST', url: '/api/v1/auth/login/mfa', payload: { challenge: a, code: c } }),
          other.inject({ method: 'POST', url: '/api/v1/auth/login/mfa', payload: { challenge: b, code: c } }),
        ]);
        expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401]);
      } finally {
        await other.close();
      }
    });
  });

  it('a server with another MFA key cannot read the secrets: a generic 500, the reason in its log', async () => {
    const { s, secret } = await enrolled();
    const lines: string[] = [];
    const other = await buildApp(
      testConfig(t.database.config, {
        now: t.clock.now,
        mfaKey: 'another-key-another-key-another-key',
        logLevel: 'error',
      }),
      { logStream: { write: (line: string) => lines.push(line) } as unknown as NodeJS.WritableStream },
    );
    try {
      const login = await other.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { username: s.username, password: s.password },
      });
      const { challenge } = login.json();
      const res = await other.inject({
        method: 'POST',
        url: '/api/v1/auth/login/mfa',
        payload: { challenge, code: code(secret) },
      });
      expect(res.statusCode).toBe(500);
      expect(res.json().message).toBe('Something went wrong on our side. Please try again.');
      expect(lines.join('')).toContain('MFA_KEY (or DATA_DIR/mfa-key) is not the key it was stored with');
    } finally {
      await other.close();
    }
  });

  describe('recovery codes', () => {
    it('new codes need the password and a code; the old ones stop working', async () => {
      const { s, secret, recoveryCodes } = await enrolled();
      const ip = newIp();
      const wrongPassword = await post(
        '/user/mfa/recovery-codes',
        { password: 'Wrong!Passw0rd', code: code(secret) },
        { s, ip },
      );
      expect(wrongPassword.statusCode).toBe(403);
      const wrongCode = await post('/user/mfa/recovery-codes', { password: s.password, code: '000000' }, { s, ip });
      expect(wrongCode.statusCode).toBe(403);
      expect(wrongCode.json().message).toBe('Invalid authentication code');
      expect((await post('/user/mfa/recovery-codes', { password: s.password }, { s, ip })).statusCode).toBe(400);
      const res = await post('/user/mfa/recovery-codes', { password: s.password, code: code(secret) }, { s, ip });
      expect(res.statusCode).toBe(200);
      const fresh: string[] = res.json().recoveryCodes;
      expect(fresh).toHaveLength(10);
      expect(fresh.filter((c) => recoveryCodes.includes(c))).toEqual([]);
      expect(
        (await post('/auth/login/mfa', { challenge: await challengeOf(s), code: recoveryCodes[0] })).statusCode,
      ).toBe(401);
      expect((await post('/auth/login/mfa', { challenge: await challengeOf(s), code: fresh[0] })).statusCode).toBe(200);
    });

    it('are refused for an account without MFA', async () => {
      const s = await signUp(t.app);
      const res = await post('/user/mfa/recovery-codes', { password: s.password, code: '123456' }, { s });
      expect(res.statusCode).toBe(409);
      expect((await status(s)).json()).toEqual({ mfaEnabled: false, recoveryCodesLeft: 0 });
    });
  });

  describe('PUT /user {password, mfaEnabled}', () => {
    it('switching on with the password alone is refused: it is the set-up that turns MFA on', async () => {
      const s = await signUp(t.app);
      const res = await putUser(s, { password: s.password, mfaEnabled: true });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toContain('/user/mfa/setup');
      expect((await getUser(s)).json().mfaEnabled).toBe(false);
      // The state it already has is a no-op, as a client that re-sends the whole user object expects.
      const same = await putUser(s, { password: s.password, mfaEnabled: false });
      expect(same.statusCode).toBe(200);
      expect(same.json().mfaEnabled).toBe(false);
    });

    it('switching off needs the password and a code, and leaves nothing behind', async () => {
      const { s, secret, recoveryCodes } = await enrolled();
      const ip = newIp();
      expect((await putUser(s, { password: s.password, mfaEnabled: true }, ip)).json().mfaEnabled).toBe(true);
      const noCode = await putUser(s, { password: s.password, mfaEnabled: false }, ip);
      expect(noCode.statusCode).toBe(400);
      expect(noCode.json().message).toContain('code');
      const wrongCode = await putUser(s, { password: s.password, mfaEnabled: false, code: '000000' }, ip);
      expect(wrongCode.statusCode).toBe(403);
      const wrongPassword = await putUser(s, { password: 'Wrong!Passw0rd', mfaEnabled: false, code: code(secret) }, ip);
      expect(wrongPassword.statusCode).toBe(403);
      expect((await getUser(s)).json().mfaEnabled).toBe(true);
      const off = await putUser(s, { password: s.password, mfaEnabled: 'false', code: recoveryCodes[3] }, ip);
      expect(off.statusCode).toBe(200);
      expect(off.json().mfaEnabled).toBe(false);
      expect((await login(s)).json()).toHaveProperty('accessToken');
      const row = await userRow(s);
      expect([row.mfa_secret, row.mfa_pending_secret]).toEqual([null, null]);
      const left = await t.app.db.selectFrom('mfa_recovery_codes').select('id').where('user_id', '=', row.id).execute();
      expect(left).toEqual([]);
    });

    it('a pending sign-in challenge dies with MFA', async () => {
      const { s, secret } = await enrolled();
      const challenge = await challengeOf(s);
      t.clock.advance(STEP);
      expect((await putUser(s, { password: s.password, mfaEnabled: false, code: code(secret) })).statusCode).toBe(200);
      t.clock.advance(STEP);
      expect((await post('/auth/login/mfa', { challenge, code: code(secret) })).statusCode).toBe(401);
    });
  });
});
