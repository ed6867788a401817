import { RESET_MESSAGES } from '@billfold/contract/password-reset';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { type Api, request } from './helpers/domain.ts';
import { signIn, signUp } from './helpers/factories.ts';
import { type Smtp, startSmtp, verificationToken } from './helpers/smtp.ts';

const PUBLIC_URL = 'https://bills.example.test';
const NEW_PASSWORD = 'N3w!Passw0rd-long';
const MINUTE = 60_000;

/** The token of the latest password link in `mails` (`/reset-password#<token>`). */
function resetToken(mails: { text?: string | false }[]): string {
  const links = mails.flatMap((m) =>
    [...(m.text || '').matchAll(/\/reset-password#([A-Za-z0-9_-]+)/g)].map((x) => x[1]),
  );
  const token = links.at(-1);
  if (!token) throw new Error('no password link was mailed');
  return token;
}

describe.each(dialects)('password links on %s', (dialect) => {
  let t: TestApp;
  let smtp: Smtp;
  let ip = 0;
  /** Each case asks from its own client address, so the per-address throttle counts only its own asks. */
  const nextIp = () => `10.9.0.${++ip}`;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(dialect, {
      mail: { smtpUrl: smtp.url, from: 'Billfold <billfold@example.test>' },
      publicUrl: PUBLIC_URL,
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const ask = (email: string, remoteAddress = nextIp()) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/password-reset', payload: { email }, remoteAddress });
  const confirm = (token: string, newPassword = NEW_PASSWORD) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/password-reset/confirm', payload: { token, newPassword } });
  const resetMails = async (address: string) => {
    await t.app.outbox.settled();
    return smtp.to(address).filter((m) => m.subject === 'Billfold: choose a new password');
  };
  /** A new account whose address is confirmed by following its verification link. */
  const confirmedUser = async (): Promise<Api> => {
    const session = await signUp(t.app);
    await t.app.outbox.settled();
    const token = verificationToken(smtp.to(session.email));
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/account/email/verify', payload: { token } });
    expect(res.statusCode).toBe(200);
    return { app: t.app, session };
  };
  const login = (username: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { username, password },
      remoteAddress: nextIp(),
    });

  it('mails a link to the confirmed address; following it sets the password once and ends every session', async () => {
    const api = await confirmedUser();
    const res = await ask(api.session.email.toUpperCase());
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: RESET_MESSAGES.requested });
    const mails = await resetMails(api.session.email);
    expect(mails).toHaveLength(1);
    // Made from PUBLIC_URL only: the request's Host never reaches the link.
    expect(mails[0]?.text).toMatch(/^https:\/\/bills\.example\.test\/reset-password#[A-Za-z0-9_-]{43}$/m);
    const token = resetToken(mails);
    const stored = await t.app.db.selectFrom('password_resets').select('token_hash').execute();
    expect(stored.some((r) => r.token_hash.includes(token))).toBe(false);

    const weak = await confirm(token, 'short');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().code).toBe('VALIDATION_FAILED');
    const done = await confirm(token);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ username: api.session.username });
    const again = await confirm(token, 'An0ther!Passw0rd');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'RESET_LINK_INVALID', message: RESET_MESSAGES.linkInvalid });

    // The open session ended (access and refresh token); the old password is gone, the new one signs in.
    expect((await request(api, 'GET', '/user')).statusCode).toBe(401);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      payload: { refreshToken: api.session.refreshToken },
    });
    expect(refresh.statusCode).toBe(401);
    expect((await login(api.session.username, api.session.password)).statusCode).toBe(401);
    expect((await login(api.session.username, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('following a link ends the calendar feed; turning it on again needs the new password', async () => {
    const api = await confirmedUser();
    const on = await request(api, 'PUT', '/account/calendar-feed', { enabled: true, password: api.session.password });
    expect(on.statusCode).toBe(200);
    // The feed as a calendar app fetches it: no session, the address alone.
    const feed = () => t.app.inject({ method: 'GET', url: new URL(on.json<{ url: string }>().url).pathname });
    expect((await feed()).statusCode).toBe(200);
    expect((await ask(api.session.email)).statusCode).toBe(202);
    expect((await confirm(resetToken(await resetMails(api.session.email)))).statusCode).toBe(200);
    const gone = await feed();
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toMatch(/^No calendar feed has this address/);
    const fresh: Api = { app: t.app, session: await signIn(t.app, { ...api.session, password: NEW_PASSWORD }) };
    expect((await request(fresh, 'GET', '/account/calendar-feed')).json()).toEqual({ enabled: false, createdAt: null });
    const old = await request(fresh, 'PUT', '/account/calendar-feed', {
      enabled: true,
      password: api.session.password,
    });
    expect(old.json()).toMatchObject({ statusCode: 403, code: 'WRONG_PASSWORD' });
    const again = await request(fresh, 'PUT', '/account/calendar-feed', { enabled: true, password: NEW_PASSWORD });
    expect(again.statusCode).toBe(200);
    expect(again.json<{ url: string }>().url).not.toBe(on.json<{ url: string }>().url);
    expect((await feed()).statusCode).toBe(404);
  });

  it('answers the same for an unknown, unconfirmed or deactivated address, and mails nothing there', async () => {
    const unconfirmed = await signUp(t.app);
    const gone = await confirmedUser();
    expect((await request(gone, 'PUT', '/user', { password: gone.session.password, recycle: true })).statusCode).toBe(
      200,
    );
    for (const email of ['nobody.here@example.org', unconfirmed.email, gone.session.email]) {
      const res = await ask(email);
      expect(res.statusCode, email).toBe(202);
      expect(res.json()).toEqual({ message: RESET_MESSAGES.requested });
    }
    expect(await resetMails(unconfirmed.email)).toEqual([]);
    expect(await resetMails(gone.session.email)).toEqual([]);
    expect(
      await t.app.db
        .selectFrom('password_resets')
        .selectAll()
        .where('email_key', '=', 'nobody.here@example.org')
        .execute(),
    ).toEqual([]);
  });

  it('a link works for an hour, and a newer link ends the older one', async () => {
    const api = await confirmedUser();
    await ask(api.session.email);
    const first = resetToken(await resetMails(api.session.email));
    await ask(api.session.email);
    const second = resetToken(await resetMails(api.session.email));
    expect(second).not.toBe(first);
    expect((await confirm(first)).json().code).toBe('RESET_LINK_INVALID');
    t.clock.advance(60 * MINUTE);
    try {
      expect((await confirm(second)).json().code).toBe('RESET_LINK_INVALID');
    } finally {
      t.clock.advance(-60 * MINUTE);
    }
    expect((await login(api.session.username, api.session.password)).statusCode).toBe(200);
  });

  it('a link for an address the account no longer has does not work', async () => {
    const api = await confirmedUser();
    await ask(api.session.email);
    const token = resetToken(await resetMails(api.session.email));
    const moved = `moved.${api.session.username}@example.org`;
    expect((await request(api, 'PUT', '/user', { password: api.session.password, newEmail: moved })).statusCode).toBe(
      200,
    );
    expect((await confirm(token)).json().code).toBe('RESET_LINK_INVALID');
  });

  it('gives an account made through the identity provider a password of its own', async () => {
    const api = await confirmedUser();
    // As the provider's sign-up leaves it (modules/auth/oidc.service.ts): no password of its own.
    await t.app.db.updateTable('users').set({ has_password: 0 }).where('email', '=', api.session.email).execute();
    expect((await request(api, 'GET', `/user?userName=${api.session.username}`)).json().hasPassword).toBe(false);
    await ask(api.session.email);
    expect((await confirm(resetToken(await resetMails(api.session.email)))).statusCode).toBe(200);
    const again: Api = { app: t.app, session: await signIn(t.app, { ...api.session, password: NEW_PASSWORD }) };
    expect((await request(again, 'GET', `/user?userName=${api.session.username}`)).json().hasPassword).toBe(true);
  });

  it('throttles asks per address typed and per client address, whether an account has the address or not', async () => {
    const address = 'throttled.nobody@example.org';
    for (let i = 0; i < 3; i++) expect((await ask(address)).statusCode).toBe(202);
    const fourth = await ask(address);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.headers['retry-after']).toBeDefined();
    expect(fourth.json().message).toContain(RESET_MESSAGES.throttled);
    const from = nextIp();
    for (let i = 0; i < 10; i++) expect((await ask(`many.${i}@example.org`, from)).statusCode).toBe(202);
    expect((await ask('many.last@example.org', from)).statusCode).toBe(429);
  });

  it('the sign-in methods say a password link can be asked for', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/auth/methods' });
    expect(res.json()).toMatchObject({ passwordReset: true });
  });
});

describe.each(dialects)('password links without mail settings on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { publicUrl: PUBLIC_URL });
  });
  afterAll(() => t.close());

  it('are refused with MAIL_NOT_CONFIGURED, and the sign-in methods do not offer them', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset',
      payload: { email: 'someone@example.org' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'MAIL_NOT_CONFIGURED', message: RESET_MESSAGES.unavailable });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/auth/methods' })).json().passwordReset).toBe(false);
  });
});
