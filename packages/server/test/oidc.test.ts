import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.ts';
import { createTestApp, dialects, secondProcess, type TestApp } from './helpers/app.ts';
import { type Session, signUp, userData } from './helpers/factories.ts';
import { enrolMfa } from './helpers/mfa.ts';
import { type ProviderAccount, signInAtProvider, startProvider, type TestProvider } from './helpers/oidc-provider.ts';
import { startSmtp } from './helpers/smtp.ts';

const PUBLIC_URL = 'http://billfold.test';
const CALLBACK = `${PUBLIC_URL}/api/v1/auth/oidc/callback`;

describe.each(dialects)('sign-in with an OpenID Connect provider (%s)', (dialect) => {
  let provider: TestProvider;
  let t: TestApp;
  /** Instances of the app on the same database with other settings, as a restart with them would be. */
  const others: FastifyInstance[] = [];
  const oidc = (overrides: Partial<NonNullable<Config['oidc']>> = {}): Config['oidc'] => ({
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    name: 'Authelia',
    signup: false,
    matchEmail: false,
    redirectUri: CALLBACK,
    appUrl: PUBLIC_URL,
    ...overrides,
  });
  const withSettings = async (overrides: Partial<Config>) => {
    const app = await secondProcess(t, { publicUrl: PUBLIC_URL, oidc: oidc(), ...overrides });
    others.push(app);
    return app;
  };

  beforeAll(async () => {
    provider = await startProvider(CALLBACK);
    t = await createTestApp(dialect, { publicUrl: PUBLIC_URL, oidc: oidc() });
  });
  afterAll(async () => {
    for (const app of others) await app.close();
    await t?.close();
    await provider?.close();
  });

  const newIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  const person = (overrides: Partial<ProviderAccount> = {}): ProviderAccount => ({
    sub: `sub-${randomInt(1e9)}`,
    email: `person${randomInt(1e9)}@example.com`,
    email_verified: true,
    preferred_username: `person${randomInt(1e6)}`,
    ...overrides,
  });

  /**
   * The whole browser trip: the app's start (a 302 to the provider, with the state cookie), the provider's pages
   * as `account`, the callback with the cookie; answers where the app sends the browser in the end.
   */
  const providerTrip = async (
    app: FastifyInstance,
    account: ProviderAccount | 'refuse',
    start?: { url: string; cookie: string },
  ) => {
    let url: string;
    let cookie: string;
    if (start) ({ url, cookie } = start);
    else {
      const res = await app.inject({ method: 'GET', url: '/api/v1/auth/oidc/start' });
      expect(res.statusCode).toBe(302);
      url = String(res.headers.location);
      cookie = String(res.headers['set-cookie']).split(';')[0] ?? '';
    }
    expect(url.startsWith(`${provider.issuer}/`)).toBe(true);
    const authorization = new URL(url);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('redirect_uri')).toBe(CALLBACK);
    provider.signInAs(account);
    const back = await signInAtProvider(url, CALLBACK);
    const res = await app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie },
    });
    expect(res.statusCode).toBe(302);
    expect(String(res.headers['set-cookie'])).toMatch(/^billfold_oidc=; Max-Age=0/);
    return new URL(String(res.headers.location));
  };
  const ticketOf = (location: URL) => {
    expect(`${location.origin}${location.pathname}`).toBe(`${PUBLIC_URL}/login/oidc`);
    const fragment = new URLSearchParams(location.hash.slice(1));
    return { ticket: fragment.get('ticket'), error: fragment.get('error') };
  };
  const exchange = (app: FastifyInstance, ticket: string) =>
    app.inject({ method: 'POST', url: '/api/v1/auth/oidc/exchange', payload: { ticket } });
  /** A provider sign-in through to the app's tokens. */
  const signInWith = async (app: FastifyInstance, account: ProviderAccount) => {
    const { ticket, error } = ticketOf(await providerTrip(app, account));
    expect(error).toBeNull();
    const res = await exchange(app, ticket ?? '');
    expect(res.statusCode).toBe(200);
    return res.json<{ accessToken?: string; refreshToken?: string; username?: string; mfaRequired?: boolean }>();
  };
  const link = async (app: FastifyInstance, s: Session, account: ProviderAccount) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/account/oidc/link',
      headers: s.headers,
      payload: { password: s.password },
      remoteAddress: newIp(),
    });
    expect(res.statusCode).toBe(200);
    const cookie = String(res.headers['set-cookie']).split(';')[0] ?? '';
    return providerTrip(app, account, { url: res.json<{ url: string }>().url, cookie });
  };
  const linkStatus = async (app: FastifyInstance, s: { headers: { authorization: string } }) => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/account/oidc', headers: s.headers });
    expect(res.statusCode).toBe(200);
    return res.json<{ provider: string; linked: boolean; email: string | null; canUnlink: boolean }>();
  };
  const whoAmI = async (app: FastifyInstance, accessToken: string, username: string) =>
    app.inject({
      method: 'GET',
      url: `/api/v1/user?userName=${username}`,
      headers: { authorization: `Bearer ${accessToken}` },
    });

  it('tells the login page the provider by name and that passwords work', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/auth/methods' });
    expect(res.json()).toEqual({ password: true, oidc: { name: 'Authelia', signup: false }, passwordReset: false });
    const bare = await withSettings({ oidc: null });
    expect((await bare.inject({ method: 'GET', url: '/api/v1/auth/methods' })).json()).toEqual({
      password: true,
      oidc: null,
      passwordReset: false,
    });
    const start = await bare.inject({ method: 'GET', url: '/api/v1/auth/oidc/start' });
    expect(start.statusCode).toBe(404);
    expect(start.json().code).toBe('OIDC_NOT_CONFIGURED');
  });

  it('links a signed-in account from the Account page, then signs it in through the provider with the usual tokens', async () => {
    const s = await signUp(t.app);
    const account = person();
    expect((await linkStatus(t.app, s)).linked).toBe(false);
    const after = await link(t.app, s, account);
    expect(after.href).toBe(`${PUBLIC_URL}/account#oidc=linked`);
    expect(await linkStatus(t.app, s)).toMatchObject({
      provider: 'Authelia',
      linked: true,
      email: account.email,
      canUnlink: true,
    });

    const tokens = await signInWith(t.app, account);
    expect(tokens.username).toBe(s.username);
    expect((await whoAmI(t.app, tokens.accessToken ?? '', s.username)).statusCode).toBe(200);
    // The refresh token is the usual one: it rotates.
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      payload: { refreshToken: tokens.refreshToken },
    });
    expect(refreshed.statusCode).toBe(200);
    const user = await t.app.db
      .selectFrom('users')
      .select('last_login')
      .where('username', '=', s.username)
      .executeTakeFirstOrThrow();
    expect(user.last_login).toBe(t.clock.now());
  });

  it('spends the one-time ticket once', async () => {
    const s = await signUp(t.app);
    const account = person();
    await link(t.app, s, account);
    const { ticket } = ticketOf(await providerTrip(t.app, account));
    expect((await exchange(t.app, ticket ?? '')).statusCode).toBe(200);
    const again = await exchange(t.app, ticket ?? '');
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('SIGN_IN_TICKET_INVALID');
    const unknown = await exchange(t.app, 'x'.repeat(43));
    expect(unknown.json().code).toBe('SIGN_IN_TICKET_INVALID');
  });

  it('expires an unspent ticket after a minute', async () => {
    const s = await signUp(t.app);
    const account = person();
    await link(t.app, s, account);
    const { ticket } = ticketOf(await providerTrip(t.app, account));
    t.clock.advance(61_000);
    expect((await exchange(t.app, ticket ?? '')).json().code).toBe('SIGN_IN_TICKET_INVALID');
  });

  it('refuses a provider account linked to no account while sign-up through the provider is off', async () => {
    const before = await t.app.db.selectFrom('users').select('id').execute();
    const { ticket, error } = ticketOf(await providerTrip(t.app, person()));
    expect(ticket).toBeNull();
    expect(error).toBe('OIDC_NOT_LINKED');
    expect(await t.app.db.selectFrom('users').select('id').execute()).toHaveLength(before.length);
  });

  it('never matches an existing account by e-mail unless the admin turned it on, and then only a verified address', async () => {
    const s = await signUp(t.app);
    // Off (the default): a verified address of an existing account is not enough.
    expect(ticketOf(await providerTrip(t.app, person({ email: s.email }))).error).toBe('OIDC_NOT_LINKED');
    const matching = await withSettings({ oidc: oidc({ matchEmail: true }) });
    // On, but the provider does not vouch for the address: anyone could have typed it there.
    expect(ticketOf(await providerTrip(matching, person({ email: s.email, email_verified: false }))).error).toBe(
      'OIDC_NOT_LINKED',
    );
    expect(ticketOf(await providerTrip(matching, person({ email: s.email.toUpperCase() }))).error).toBeNull();
    expect((await linkStatus(t.app, s)).linked).toBe(true);
  });

  it('makes an account through the provider when sign-up is on: no password, so it cannot unlink', async () => {
    const signing = await withSettings({ oidc: oidc({ signup: true }) });
    const account = person({ preferred_username: 'jane doe!' });
    const tokens = await signInWith(signing, account);
    expect(tokens.username).toMatch(/^janedoe/);
    const row = await t.app.db
      .selectFrom('users')
      .select(['has_password', 'email', 'email_verified_at', 'id'])
      .where('username', '=', tokens.username ?? '')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ has_password: 0, email: account.email, email_verified_at: t.clock.now() });
    const personal = await t.app.db.selectFrom('ledgers').select('id').where('personal_user_id', '=', row.id).execute();
    expect(personal).toHaveLength(1);
    const headers = { authorization: `Bearer ${tokens.accessToken}` };
    expect(await linkStatus(signing, { headers })).toMatchObject({ linked: true, canUnlink: false });
    const unlink = await signing.inject({
      method: 'POST',
      url: '/api/v1/account/oidc/unlink',
      headers,
      payload: { password: 'anything at all' },
    });
    expect(unlink.statusCode).toBe(409);
    expect(unlink.json().code).toBe('OIDC_LAST_SIGN_IN');
    // No password of its own, so a password sign-in as it fails.
    const login = await signing.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { username: tokens.username, password: '' },
      remoteAddress: newIp(),
    });
    expect(login.statusCode).toBe(400);
    // The same person again: the same account.
    expect((await signInWith(signing, account)).username).toBe(tokens.username);
  });

  it('refuses sign-up through the provider for an address that has an account as any failed sign-in, naming nothing', async () => {
    const s = await signUp(t.app);
    const signing = await withSettings({ oidc: oidc({ signup: true }) });
    const users = async () => (await t.app.db.selectFrom('users').select('id').execute()).length;
    const before = await users();
    // Verified by the provider or not, in any letter case: the answer is the one a declined sign-in gets.
    const taken = [person({ email: s.email }), person({ email: s.email.toUpperCase(), email_verified: false })];
    const declined = await providerTrip(signing, 'refuse');
    for (const account of taken) {
      const back = await providerTrip(signing, account);
      expect(back.href).toBe(declined.href);
      expect(back.href).toBe(`${PUBLIC_URL}/login/oidc#error=OIDC_FAILED`);
    }
    expect(await users()).toBe(before);
    const identities = await t.app.db
      .selectFrom('user_identities')
      .select('id')
      .where(
        'subject',
        'in',
        taken.map((a) => a.sub),
      )
      .execute();
    expect(identities).toEqual([]);
    // The address's owner still links from the Account page, and then signs in through the provider.
    const mine = person({ email: s.email });
    expect((await link(signing, s, mine)).hash).toBe('#oidc=linked');
    expect((await signInWith(signing, mine)).username).toBe(s.username);
  });

  it('mails the verified owner of a taken address, at most three times in 15 minutes, and the answer stays the same', async () => {
    const smtp = await startSmtp();
    try {
      const mail = { smtpUrl: smtp.url, from: 'Billfold <billfold@example.test>' };
      const signing = await withSettings({ mail, oidc: oidc({ signup: true }) });
      const owner = await signUp(signing);
      const unverified = await signUp(signing);
      await t.app.db
        .updateTable('users')
        .set({ email_verified_at: t.clock.now() })
        .where('username', '=', owner.username)
        .execute();
      const notices = async (address: string) => {
        await signing.outbox.settled();
        return smtp.to(address).filter((m) => m.subject?.startsWith('Billfold: someone tried to sign up'));
      };
      for (let i = 0; i < 4; i++) {
        const back = await providerTrip(signing, person({ email: owner.email, email_verified: i % 2 === 0 }));
        expect(back.hash).toBe('#error=OIDC_FAILED');
      }
      const sent = await notices(owner.email);
      expect(sent).toHaveLength(3);
      expect(sent[0]?.subject).toBe('Billfold: someone tried to sign up with your address through Authelia');
      expect(sent[0]?.text).toContain(
        `through Authelia with this email address. It\nalready belongs to your account, "${owner.username}"`,
      );
      expect(sent[0]?.text).toContain(`choose "Link Authelia" on the Account\npage (${PUBLIC_URL}/account)`);
      // An address never proven here is not mailed (it may not be the owner's); the answer is the same.
      expect((await providerTrip(signing, person({ email: unverified.email }))).hash).toBe('#error=OIDC_FAILED');
      expect(await notices(unverified.email)).toEqual([]);
      // Without password sign-in the owner cannot link alone: the mail says to ask the admin.
      t.clock.advance(15 * 60_000 + 1);
      const providerOnly = await withSettings({ mail, passwordLogin: false, oidc: oidc({ signup: true }) });
      expect((await providerTrip(providerOnly, person({ email: owner.email }))).hash).toBe('#error=OIDC_FAILED');
      await providerOnly.outbox.settled();
      const last = (await notices(owner.email)).at(-1);
      expect(last?.text).toContain("ask the server's admin to link your Authelia account");
      expect(last?.text).not.toContain('sign in with your password');
    } finally {
      await smtp.close();
    }
  });

  it('stores no provider address the email schema refuses: sign-up is refused, a link keeps working without it', async () => {
    const signing = await withSettings({ oidc: oidc({ signup: true }) });
    const users = async () => (await t.app.db.selectFrom('users').select('email').execute()).map((u) => u.email);
    const before = await users();
    const refused: [string, string][] = [
      ['a right-to-left override', 'moc.elpmaxe@\u202Eperson'],
      ['a zero-width space', 'per\u200Bson@example.com'],
      ['NUL', 'per\u0000son@example.com'],
      ['a line break', 'person@example.com\nBcc: all@example.com'],
      ['over 254 characters', `${'p'.repeat(250)}@example.com`],
      ['not an address', 'person at example.com'],
    ];
    for (const [what, email] of refused) {
      const { ticket, error } = ticketOf(await providerTrip(signing, person({ email })));
      expect({ what, ticket, error }).toEqual({ what, ticket: null, error: 'OIDC_EMAIL_INVALID' });
    }
    expect(await users()).toEqual(before);
    // A sign-up with an address the rule takes stores it as sign-up would: trimmed.
    const fine = person();
    const made = await signInWith(signing, { ...fine, email: `  ${fine.email} ` });
    const row = await t.app.db
      .selectFrom('users')
      .select('email')
      .where('username', '=', made.username ?? '')
      .executeTakeFirstOrThrow();
    expect(row.email).toBe(fine.email);

    // Linking from a signed-in account: the link is made, the refused address is not kept with it.
    const s = await signUp(t.app);
    const account = person({ email: 'per\u202Eson@example.com' });
    expect((await link(t.app, s, account)).hash).toBe('#oidc=linked');
    expect(await linkStatus(t.app, s)).toMatchObject({ linked: true, email: null });
    const stored = await t.app.db
      .selectFrom('user_identities')
      .select('email')
      .where('subject', '=', account.sub)
      .execute();
    expect(stored).toEqual([{ email: null }]);
    expect((await signInWith(t.app, account)).username).toBe(s.username);
  });

  it('unlinks with the current password, and the provider account then signs nobody in', async () => {
    const s = await signUp(t.app);
    const account = person();
    await link(t.app, s, account);
    const unlink = (password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/account/oidc/unlink',
        headers: s.headers,
        payload: { password },
        remoteAddress: newIp(),
      });
    expect((await unlink('wrong password')).statusCode).toBe(403);
    expect((await linkStatus(t.app, s)).linked).toBe(true);
    const done = await unlink(s.password);
    expect(done.statusCode).toBe(200);
    expect(done.json().linked).toBe(false);
    expect(ticketOf(await providerTrip(t.app, account)).error).toBe('OIDC_NOT_LINKED');
  });

  it('refuses to link a provider account that another account holds, and a second provider account', async () => {
    const first = await signUp(t.app);
    const second = await signUp(t.app);
    const account = person();
    await link(t.app, first, account);
    expect((await link(t.app, second, account)).hash).toBe('#oidc=OIDC_ALREADY_LINKED');
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/account/oidc/link',
      headers: first.headers,
      payload: { password: first.password },
      remoteAddress: newIp(),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('OIDC_ALREADY_LINKED');
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/v1/account/oidc/link',
      headers: second.headers,
      payload: { password: 'not the password' },
      remoteAddress: newIp(),
    });
    expect(wrong.statusCode).toBe(403);
  });

  it('still asks an account with MFA on for its code after the provider', async () => {
    const s = await signUp(t.app);
    await enrolMfa(t.app, s, t.clock.now());
    t.clock.advance(30_000);
    const account = person();
    await link(t.app, s, account);
    const answer = await signInWith(t.app, account);
    expect(answer.mfaRequired).toBe(true);
    expect(answer.accessToken).toBeUndefined();
  });

  it('ends on the login page with OIDC_FAILED when the person declines, the cookie is missing, or it belongs to another sign-in', async () => {
    expect(ticketOf(await providerTrip(t.app, 'refuse')).error).toBe('OIDC_FAILED');

    const s = await signUp(t.app);
    const account = person();
    await link(t.app, s, account);
    // Another browser's callback (login CSRF): without this browser's state cookie it signs nobody in.
    const start = await t.app.inject({ method: 'GET', url: '/api/v1/auth/oidc/start' });
    provider.signInAs(account);
    const back = await signInAtProvider(String(start.headers.location), CALLBACK);
    const noCookie = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(ticketOf(new URL(String(noCookie.headers.location))).error).toBe('OIDC_FAILED');
    const otherStart = await t.app.inject({ method: 'GET', url: '/api/v1/auth/oidc/start' });
    const otherCookie = String(otherStart.headers['set-cookie']).split(';')[0];
    const wrongCookie = await t.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: otherCookie },
    });
    expect(ticketOf(new URL(String(wrongCookie.headers.location))).error).toBe('OIDC_FAILED');
    // A cookie whose signature does not check out.
    const ownCookie = String(start.headers['set-cookie']).split(';')[0] ?? '';
    const forged = await t.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: `${ownCookie.slice(0, -4)}AAAA` },
    });
    expect(ticketOf(new URL(String(forged.headers.location))).error).toBe('OIDC_FAILED');
    // The right cookie still works once (the code was not spent by the refused tries).
    const good = await t.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: ownCookie },
    });
    expect(ticketOf(new URL(String(good.headers.location))).ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('with PASSWORD_LOGIN=false refuses password sign-in and sign-up, signs in through the provider, and keeps the link', async () => {
    const s = await signUp(t.app);
    const account = person();
    await link(t.app, s, account);
    const closed = await withSettings({ passwordLogin: false });
    expect((await closed.inject({ method: 'GET', url: '/api/v1/auth/methods' })).json().password).toBe(false);
    const login = await closed.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { username: s.username, password: s.password },
      remoteAddress: newIp(),
    });
    expect(login.statusCode).toBe(403);
    expect(login.json().code).toBe('PASSWORD_LOGIN_DISABLED');
    const create = await closed.inject({ method: 'POST', url: '/api/v1/auth/create', payload: userData() });
    expect(create.json().code).toBe('PASSWORD_LOGIN_DISABLED');
    const tokens = await signInWith(closed, account);
    const headers = { authorization: `Bearer ${tokens.accessToken}` };
    expect((await linkStatus(closed, { headers })).canUnlink).toBe(false);
    const unlink = await closed.inject({
      method: 'POST',
      url: '/api/v1/account/oidc/unlink',
      headers,
      payload: { password: s.password },
    });
    expect(unlink.json().code).toBe('OIDC_LAST_SIGN_IN');
  });
});
