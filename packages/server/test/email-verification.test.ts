import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { type Api, request } from './helpers/domain.ts';
import { type Session, signIn, signUp, userData } from './helpers/factories.ts';
import { type Smtp, startSmtp, verificationToken } from './helpers/smtp.ts';

const LINK_INVALID =
  'This verification link does not work: it has expired, was already used, or is for an address the account no longer has.';
const HOUR = 3_600_000;

describe.each(dialects)('verified addresses on %s', (dialect) => {
  describe('with an SMTP server', () => {
    let t: TestApp;
    let smtp: Smtp;

    beforeAll(async () => {
      smtp = await startSmtp();
      t = await createTestApp(dialect, { mail: { smtpUrl: smtp.url, from: 'Billfold <billfold@example.test>' } });
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });

    const verify = (token: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/account/email/verify', payload: { token } });
    const status = (api: Api) => request(api, 'GET', '/account/email');
    const mailedTo = async (address: string) => {
      await t.app.outbox.settled();
      return smtp.to(address);
    };
    const newUser = async (overrides: Parameters<typeof signUp>[1] = {}): Promise<Api> => ({
      app: t.app,
      session: await signUp(t.app, overrides),
    });

    it('sign-up mails a link to the new address; it verifies once, and only its hash is stored', async () => {
      const api = await newUser();
      expect((await status(api)).json()).toEqual({
        email: api.session.email,
        verified: false,
        mailConfigured: true,
        sentAt: '2026-11-22T12:00:00',
      });
      const mails = await mailedTo(api.session.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.subject).toBe('Billfold: confirm your email address');
      expect(mails[0]?.text).toMatch(/^http:\/\/localhost(:\d+)?\/verify-email#[A-Za-z0-9_-]{43}$/m);
      const token = verificationToken(mails);
      const stored = await t.app.db.selectFrom('email_verifications').select('token_hash').execute();
      expect(stored.some((r) => r.token_hash.includes(token))).toBe(false);

      const ok = await verify(token);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ email: api.session.email, verified: true });
      expect((await status(api)).json().verified).toBe(true);
      const again = await verify(token);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ code: 'EMAIL_LINK_INVALID', message: LINK_INVALID });
      expect((await verify('not-a-token')).json().code).toBe('EMAIL_LINK_INVALID');
    });

    it('a link works for 24 hours', async () => {
      const late = await newUser();
      const onTime = await newUser();
      const lateToken = verificationToken(await mailedTo(late.session.email));
      const onTimeToken = verificationToken(await mailedTo(onTime.session.email));
      t.clock.advance(24 * HOUR - 1000);
      try {
        expect((await verify(onTimeToken)).statusCode).toBe(200);
        t.clock.advance(1000);
        const expired = await verify(lateToken);
        expect(expired.statusCode).toBe(400);
        expect(expired.json().code).toBe('EMAIL_LINK_INVALID');
        // The access token has expired meanwhile: sign in again to look.
        const lateAgain: Api = { app: t.app, session: await signIn(t.app, late.session) };
        expect((await status(lateAgain)).json().verified).toBe(false);
      } finally {
        t.clock.advance(-24 * HOUR);
      }
    });

    it('a changed address is unverified and gets its own link; the old address’s link no longer verifies', async () => {
      const api = await newUser();
      const oldToken = verificationToken(await mailedTo(api.session.email));
      const newEmail = `moved.${api.session.username}@example.org`;
      const res = await request(api, 'PUT', '/user', { password: api.session.password, newEmail });
      expect(res.statusCode).toBe(200);
      expect((await status(api)).json()).toMatchObject({ email: newEmail, verified: false });
      const mails = await mailedTo(newEmail);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.text).toContain('Your Billfold account now uses this email address');
      expect((await verify(oldToken)).statusCode).toBe(400);
      expect((await verify(verificationToken(mails))).statusCode).toBe(200);
      expect((await status(api)).json()).toMatchObject({ email: newEmail, verified: true });

      // Only the letter case changed: still the proven address, nothing sent.
      const upper = newEmail.toUpperCase();
      expect((await request(api, 'PUT', '/user', { password: api.session.password, newEmail: upper })).statusCode).toBe(
        200,
      );
      expect((await status(api)).json()).toMatchObject({ email: upper, verified: true });
      expect(await mailedTo(newEmail)).toHaveLength(1);
    });

    it('"Send again" mails a new link, three times in 15 minutes, then 429 with Retry-After; a verified address gets none', async () => {
      const api = await newUser();
      for (let i = 0; i < 3; i++) {
        const res = await request(api, 'POST', '/account/email/verification');
        expect(res.statusCode).toBe(202);
        expect(res.json()).toMatchObject({ verified: false, sentAt: '2026-11-22T12:00:00' });
      }
      const throttled = await request(api, 'POST', '/account/email/verification');
      expect(throttled.statusCode).toBe(429);
      expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
      expect(throttled.json().message).toMatch(/^Too many verification emails\. Try again in \d+ minutes?\.$/);
      const mails = await mailedTo(api.session.email);
      expect(mails).toHaveLength(4); // sign-up's and three more
      expect(mails[3]?.text).toContain('Here is a new link');
      // Every link sent stays good for its 24 hours (a user may open an earlier mail), once.
      expect((await verify(verificationToken(mails.slice(0, 1)))).statusCode).toBe(200);
      t.clock.advance(15 * 60_000);
      try {
        const again: Api = { app: t.app, session: await signIn(t.app, api.session) };
        const done = await request(again, 'POST', '/account/email/verification');
        expect(done.statusCode).toBe(409);
        expect(done.json().message).toBe('This address is already verified.');
      } finally {
        t.clock.advance(-15 * 60_000);
      }
    });

    it('sign-up with a taken address answers as for a new one, makes no account, and tells a verified owner by mail', async () => {
      const owner = await newUser();
      await verify(verificationToken(await mailedTo(owner.session.email)));
      const before = (await mailedTo(owner.session.email)).length;

      const intruder = userData({ email: owner.session.email.toUpperCase() });
      const taken = await t.app.inject({ method: 'POST', url: '/api/v1/auth/create', payload: intruder });
      const freshData = userData();
      const fresh = await t.app.inject({ method: 'POST', url: '/api/v1/auth/create', payload: freshData });
      expect(taken.statusCode).toBe(201);
      expect(fresh.statusCode).toBe(201);
      expect(taken.json()).toEqual({ username: intruder.username, email: intruder.email });
      expect(fresh.json()).toEqual({ username: freshData.username, email: freshData.email });
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { username: intruder.username, password: intruder.password },
      });
      expect(login.statusCode).toBe(401);
      const notices = (await mailedTo(owner.session.email)).slice(before);
      expect(notices).toHaveLength(1);
      expect(notices[0]?.subject).toBe('Billfold: someone tried to sign up with your address');
      expect(notices[0]?.text).toContain(`your\naccount, "${owner.session.username}"`);
      // The owner's address keeps its state; the fresh account got its link as usual.
      expect((await status(owner)).json().verified).toBe(true);
      expect(await mailedTo(freshData.email)).toHaveLength(1);
    });

    it('an unverified owner is not mailed about a sign-up with its address (notifications go to verified addresses only)', async () => {
      const owner = await newUser();
      const before = (await mailedTo(owner.session.email)).length;
      const taken = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/create',
        payload: userData({ email: owner.session.email }),
      });
      expect(taken.statusCode).toBe(201);
      expect(await mailedTo(owner.session.email)).toHaveLength(before);
    });

    it('address changes are throttled like sign-ups: ten in 15 minutes, then 429', async () => {
      const api = await newUser();
      let session: Session = api.session;
      for (let i = 0; i < 10; i++) {
        const res = await request({ app: t.app, session }, 'PUT', '/user', {
          password: session.password,
          newEmail: `try${i}.${session.username}@example.net`,
        });
        expect(res.statusCode).toBe(200);
      }
      const over = await request({ app: t.app, session }, 'PUT', '/user', {
        password: session.password,
        newEmail: `over.${session.username}@example.net`,
      });
      expect(over.statusCode).toBe(429);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      session = await signIn(t.app, session);
      expect((await status({ app: t.app, session })).json().email).toBe(`try9.${session.username}@example.net`);
      t.clock.advance(15 * 60_000);
    });
  });

  describe('without mail settings', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(dialect);
    });
    afterAll(() => t.close());

    it('say the server cannot send mail, and "Send again" is 409 MAIL_NOT_CONFIGURED', async () => {
      const api: Api = { app: t.app, session: await signUp(t.app) };
      expect((await request(api, 'GET', '/account/email')).json()).toEqual({
        email: api.session.email,
        verified: false,
        mailConfigured: false,
        sentAt: null,
      });
      const res = await request(api, 'POST', '/account/email/verification');
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'MAIL_NOT_CONFIGURED',
        message: 'This server cannot send email, so addresses cannot be verified.',
      });
    });
  });
});
