import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../src/lib/totp.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { signUp } from './helpers/factories.ts';
import { enrolMfa } from './helpers/mfa.ts';
import { type Smtp, startSmtp, verificationToken } from './helpers/smtp.ts';

/**
 * No log line carries a secret (docs/decisions/0905-logs.md): every line the server writes at `trace`, its most
 * talkative level, while a user signs up, verifies their address from the mailed link, signs in, refreshes, sets up
 * two-factor sign-in and signs in with a code and a recovery code, turns the calendar feed on and a calendar app
 * reads it, is searched for each of those secrets and for the server's own keys.
 */
describe.each(dialects)('log lines on %s', (dialect) => {
  let t: TestApp;
  let smtp: Smtp;
  const lines: string[] = [];
  const jwtSecret = 'log-test-jwt-secret-log-test-jwt-secret-0123';
  const mfaKey = 'log-test-mfa-key-log-test-mfa-key-log-test-01';

  beforeAll(async () => {
    smtp = await startSmtp();
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    t = await createTestApp(
      dialect,
      { logLevel: 'trace', jwtSecret, mfaKey, mail: { smtpUrl: smtp.url, from: 'Billfold <billfold@example.test>' } },
      { logStream },
    );
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `/api/v1${url}`, payload: payload as object, headers });

  it('hold no password, token, code or key, while each request still gets its one line with its id', async () => {
    const secrets: Record<string, string> = { jwtSecret, mfaKey };
    const s = await signUp(t.app);
    Object.assign(secrets, { password: s.password, accessToken: s.accessToken, refreshToken: s.refreshToken });

    // The verification link from the mail (the sign-up sent it).
    await t.app.outbox.settled();
    const token = verificationToken(smtp.to(s.email));
    secrets.verificationToken = token;
    expect((await post('/account/email/verify', { token })).statusCode).toBe(200);

    // Refresh, in the body and (as old clients do) in the query string.
    const refreshed = await post('/auth/refresh', { refreshToken: s.refreshToken });
    expect(refreshed.statusCode).toBe(200);
    secrets.refreshed = refreshed.json().refreshToken;
    secrets.refreshedAccess = refreshed.json().accessToken;
    const byQuery = await t.app.inject({
      method: 'POST',
      url: `/api/v1/auth/refresh?refreshToken=${encodeURIComponent(secrets.refreshed ?? '')}`,
    });
    expect(byQuery.statusCode).toBe(200);
    const session = { ...s, headers: { authorization: `Bearer ${byQuery.json().accessToken}` } };

    // Two-factor sign-in: its secret, a code and the recovery codes.
    const now = t.clock.now();
    const { secret, recoveryCodes } = await enrolMfa(t.app, session, now);
    secrets.totpSecret = secret;
    recoveryCodes.forEach((code, i) => {
      secrets[`recoveryCode${i}`] = code;
    });
    t.clock.advance(60_000);
    const login = await post('/auth/login', { username: s.username, password: s.password });
    const { challenge } = login.json();
    secrets.challenge = challenge;
    const code = totpCode(secret, t.clock.now());
    const withCode = await post('/auth/login/mfa', { challenge, code });
    expect(withCode.statusCode).toBe(200);
    secrets.mfaAccess = withCode.json().accessToken;
    const second = (await post('/auth/login', { username: s.username, password: s.password })).json().challenge;
    const withRecovery = await post('/auth/login/mfa', { challenge: second, code: recoveryCodes[0] });
    expect(withRecovery.statusCode).toBe(200);
    secrets.recoveryAccess = withRecovery.json().accessToken;
    const headers = { authorization: `Bearer ${withRecovery.json().accessToken}` };

    // The calendar feed: its address carries the token; a calendar app fetches it without a session.
    const feed = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/account/calendar-feed',
      headers,
      payload: { enabled: true, password: s.password },
    });
    expect(feed.statusCode).toBe(200);
    const feedPath = new URL(feed.json().url).pathname;
    secrets.calendarToken =
      feedPath
        .split('/')
        .pop()
        ?.replace(/\.ics$/, '') ?? '';
    expect((await t.app.inject({ method: 'GET', url: feedPath })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `${feedPath}x` })).statusCode).toBe(404);

    await t.app.outbox.settled();
    expect(lines.length).toBeGreaterThan(10);
    for (const [name, value] of Object.entries(secrets)) {
      expect(value.length, name).toBeGreaterThanOrEqual(6);
      const leaks = lines.filter((line) => line.includes(value));
      expect(leaks, `${name} in the log`).toEqual([]);
    }
    // The feed's line is there, its token masked; every request line has an id; one line per request.
    const requests = lines.map((line) => JSON.parse(line)).filter((l) => l.req && l.res);
    expect(requests.some((l) => l.req.url === '/api/v1/calendar/…')).toBe(true);
    expect(requests.every((l) => typeof l.reqId === 'string' && l.reqId.length > 0)).toBe(true);
    expect(new Set(requests.map((l) => l.reqId)).size).toBe(requests.length);
    expect(lines.some((line) => line.includes('incoming request'))).toBe(false);
  });
});
