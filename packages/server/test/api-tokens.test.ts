import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ledgerForApiToken } from '../src/plugins/auth.ts';
import { createTestDatabase, dialects, type TestDatabase, testClock, testConfig } from './helpers/app.ts';
import { type Session, signUp } from './helpers/factories.ts';

const DAY = 24 * 60 * 60 * 1000;

describe.each(dialects)('API tokens (%s)', (dialect) => {
  let app: FastifyInstance;
  let database: TestDatabase;
  const clock = testClock();
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    app = await buildApp(testConfig(database.config, { now: clock.now }));
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  const make = async (s: Session, body: object) => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/tokens', headers: s.headers, payload: body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: number; token: string; hint: string; scope: string; ledgerId: number | null }>();
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const newBill = (name: string) => ({ name, status: 1, category: 'Utilities', internal: false });
  const row = (id: number) =>
    app.db.selectFrom('api_tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const personalLedger = async (s: Session) => {
    const ledger = await app.db
      .selectFrom('ledgers')
      .innerJoin('users', 'users.id', 'ledgers.personal_user_id')
      .select('ledgers.id')
      .where('users.username', '=', s.username)
      .executeTakeFirstOrThrow();
    return Number(ledger.id);
  };

  it('shows a token once, stores only its hash, and lists it without the secret', async () => {
    const s = await signUp(app);
    const made = await make(s, { name: 'Home Assistant', scope: 'read' });
    expect(made.token).toMatch(/^bf_[A-Za-z0-9_-]{43}$/);
    expect(made.hint).toBe(`${made.token.slice(0, 7)}…`);
    const stored = await row(made.id);
    expect(stored.token_hash).toBe(createHash('sha256').update(made.token).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(made.token.slice(3));
    const list = await app.inject({ method: 'GET', url: '/api/v1/tokens', headers: s.headers });
    expect(list.json().tokens).toEqual([
      {
        id: made.id,
        name: 'Home Assistant',
        scope: 'read',
        ledgerId: null,
        hint: made.hint,
        createdAt: '2026-11-22T12:00:00',
        expiresAt: null,
        lastUsedAt: null,
      },
    ]);
    expect(list.body).not.toContain(made.token);
  });

  it('a read token reads and is refused every write with 403 TOKEN_READ_ONLY, storing nothing', async () => {
    const s = await signUp(app);
    const { token } = await make(s, { name: 'dashboard', scope: 'read' });
    expect((await app.inject({ method: 'GET', url: '/api/v1/bills', headers: bearer(token) })).statusCode).toBe(200);
    expect((await app.inject({ method: 'HEAD', url: '/api/v1/bills', headers: bearer(token) })).statusCode).toBe(200);
    const write = await app.inject({
      method: 'POST',
      url: '/api/v1/bills',
      headers: bearer(token),
      payload: newBill('Power'),
    });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toMatchObject({
      code: 'TOKEN_READ_ONLY',
      message: 'This API token can only read: its scope is read.',
    });
    const bills = await app.inject({ method: 'GET', url: '/api/v1/bills', headers: s.headers });
    expect(bills.json().billDTOList).toEqual([]);
  });

  it('a read-write token writes, as its user', async () => {
    const s = await signUp(app);
    const { token } = await make(s, { name: 'script', scope: 'read-write' });
    const write = await app.inject({
      method: 'POST',
      url: '/api/v1/bills',
      headers: bearer(token),
      payload: newBill('Water'),
    });
    expect(write.statusCode).toBe(201);
    const bills = await app.inject({ method: 'GET', url: '/api/v1/bills', headers: s.headers });
    expect(bills.json().billDTOList.map((b: { name: string }) => b.name)).toEqual(['Water']);
  });

  it('no token manages tokens or changes the password, the address, MFA, the calendar feed or the provider link', async () => {
    const s = await signUp(app);
    const { token, id } = await make(s, { name: 'all', scope: 'read-write' });
    const calls = [
      { method: 'GET', url: '/api/v1/tokens' },
      { method: 'POST', url: '/api/v1/tokens', payload: { name: 'more', scope: 'read-write' } },
      { method: 'DELETE', url: `/api/v1/tokens/${id}` },
      { method: 'PUT', url: '/api/v1/user', payload: { password: s.password, newPassword: 'An0ther!Passw0rd' } },
      { method: 'GET', url: '/api/v1/user/mfa' },
      { method: 'POST', url: '/api/v1/user/mfa/setup', payload: { password: s.password } },
      { method: 'POST', url: '/api/v1/account/email/verification' },
      { method: 'PUT', url: '/api/v1/account/calendar-feed', payload: { enabled: true, password: s.password } },
      { method: 'GET', url: '/api/v1/account/oidc' },
      { method: 'POST', url: '/api/v1/account/oidc/link', payload: { password: s.password } },
      { method: 'GET', url: '/api/v1/notification-channels' },
      { method: 'POST', url: '/api/v1/notification-channels', payload: { kind: 'email', name: 'x', events: [] } },
      { method: 'GET', url: '/api/v1/notification-deliveries' },
    ] as const;
    for (const call of calls) {
      const res = await app.inject({ ...call, headers: bearer(token) });
      expect([call.url, res.statusCode, res.json().code]).toEqual([call.url, 403, 'TOKEN_NOT_ALLOWED']);
    }
    expect(await row(id)).toBeDefined();
    // Reading the account is a read, and allowed.
    const user = await app.inject({
      method: 'GET',
      url: `/api/v1/user?userName=${s.username}`,
      headers: bearer(token),
    });
    expect(user.statusCode).toBe(200);
  });

  it('writes the last use at most once a minute', async () => {
    const s = await signUp(app);
    const made = await make(s, { name: 'poller', scope: 'read' });
    const use = () => app.inject({ method: 'GET', url: '/api/v1/bills', headers: bearer(made.token) });
    const first = clock.now();
    await use();
    expect(Number((await row(made.id)).last_used_at)).toBe(first);
    clock.advance(59_000);
    await use();
    expect(Number((await row(made.id)).last_used_at)).toBe(first);
    clock.advance(1_000);
    await use();
    expect(Number((await row(made.id)).last_used_at)).toBe(first + 60_000);
    const list = await app.inject({ method: 'GET', url: '/api/v1/tokens', headers: s.headers });
    expect(list.json().tokens[0].lastUsedAt).toBe(new Date(first + 60_000).toISOString().slice(0, 19));
  });

  it('works through its last day and stops after it; an expiry in the past is refused', async () => {
    const s = await signUp(app);
    const today = new Date(clock.now()).toISOString().slice(0, 10);
    const made = await make(s, { name: 'short', scope: 'read', expiresOn: today });
    const use = () => app.inject({ method: 'GET', url: '/api/v1/bills', headers: bearer(made.token) });
    expect((await use()).statusCode).toBe(200);
    const startOfTomorrow = Date.parse(`${today}T00:00:00Z`) + DAY;
    const saved = clock.now();
    clock.set(startOfTomorrow - 1);
    expect((await use()).statusCode).toBe(200);
    clock.set(startOfTomorrow);
    const late = await use();
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toBe('Unauthorized: API token expired');
    clock.set(saved);
    const yesterday = new Date(clock.now() - DAY).toISOString().slice(0, 10);
    const past = await app.inject({
      method: 'POST',
      url: '/api/v1/tokens',
      headers: s.headers,
      payload: { name: 'past', scope: 'read', expiresOn: yesterday },
    });
    expect(past.statusCode).toBe(400);
  });

  it('revoking stops a token at once; another user’s token id is 404', async () => {
    const s = await signUp(app);
    const other = await signUp(app);
    const made = await make(s, { name: 'old', scope: 'read' });
    const foreign = await app.inject({ method: 'DELETE', url: `/api/v1/tokens/${made.id}`, headers: other.headers });
    expect(foreign.statusCode).toBe(404);
    const revoked = await app.inject({ method: 'DELETE', url: `/api/v1/tokens/${made.id}`, headers: s.headers });
    expect(revoked.statusCode).toBe(200);
    const use = await app.inject({ method: 'GET', url: '/api/v1/bills', headers: bearer(made.token) });
    expect(use.statusCode).toBe(401);
    expect(use.json().message).toBe('Unauthorized: invalid API token');
  });

  it('refuses malformed, unknown and deactivated accounts’ tokens; a password change leaves tokens working', async () => {
    const s = await signUp(app);
    const made = await make(s, { name: 'cron', scope: 'read' });
    for (const bad of ['bf_short', `bf_${'A'.repeat(43)}`, `${made.token}x`]) {
      const res = await app.inject({ method: 'GET', url: '/api/v1/bills', headers: bearer(bad) });
      expect(res.statusCode).toBe(401);
    }
    const changed = await app.inject({
      method: 'PUT',
      url: '/api/v1/user',
      headers: s.headers,
      payload: { password: s.password, newPassword: 'An0ther!Passw0rd' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/v1/bills', headers: bearer(made.token) })).statusCode).toBe(
      200,
    );
    await app.db.updateTable('users').set({ deactivated_at: clock.now() }).where('username', '=', s.username).execute();
    expect((await app.inject({ method: 'GET', url: '/api/v1/bills', headers: bearer(made.token) })).statusCode).toBe(
      401,
    );
  });

  it('binds a token only to a ledger its user is a member of; the bound ledger is the default and any other is 404', async () => {
    const s = await signUp(app);
    const other = await signUp(app);
    const personal = await personalLedger(s);
    const othersLedger = await personalLedger(other);
    const refused = await app.inject({
      method: 'POST',
      url: '/api/v1/tokens',
      headers: s.headers,
      payload: { name: 'sneaky', scope: 'read', ledgerId: othersLedger },
    });
    expect(refused.statusCode).toBe(404);

    // A shared ledger the user is a member of.
    const userId = Number(
      (await app.db.selectFrom('users').select('id').where('username', '=', s.username).executeTakeFirstOrThrow()).id,
    );
    const shared = await app.db
      .insertInto('ledgers')
      .values({ name: 'Household', personal_user_id: null, created_at: clock.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const sharedId = Number(shared.id);
    await app.db
      .insertInto('ledger_members')
      .values({ ledger_id: sharedId, user_id: userId, role: 'editor', joined_at: clock.now() })
      .execute();

    // One entity in each ledger, so a real ledger route (`GET /bills`) shows which ledger a request worked in.
    for (const [ledger, name] of [
      [personal, 'Mine'],
      [sharedId, 'Ours'],
    ] as const) {
      const made = await app.inject({
        method: 'POST',
        url: '/api/v1/bills',
        headers: { ...s.headers, 'billfold-ledger': String(ledger) },
        payload: { name, status: 1 },
      });
      expect(made.statusCode).toBe(201);
    }
    const ledgerOf = async (token: string | null, header?: number) => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/v1/bills?status=all',
        headers: {
          ...(token ? bearer(token) : s.headers),
          ...(header === undefined ? {} : { 'billfold-ledger': String(header) }),
        },
      });
      if (res.statusCode !== 200) return res.statusCode;
      const names = res.json<{ billDTOList: { name: string }[] }>().billDTOList.map((bill) => bill.name);
      return names.includes('Ours') ? sharedId : names.includes('Mine') ? personal : names;
    };
    const toShared = await make(s, { name: 'household', scope: 'read', ledgerId: sharedId });
    expect(toShared.ledgerId).toBe(sharedId);
    expect(await ledgerOf(toShared.token)).toBe(sharedId);
    expect(await ledgerOf(toShared.token, sharedId)).toBe(sharedId);
    expect(await ledgerOf(toShared.token, personal)).toBe(404);

    const toPersonal = await make(s, { name: 'mine', scope: 'read', ledgerId: personal });
    expect(await ledgerOf(toPersonal.token)).toBe(personal);
    expect(await ledgerOf(toPersonal.token, personal)).toBe(personal);
    expect(await ledgerOf(toPersonal.token, sharedId)).toBe(404);

    // Unbound, and a session: the request's own choice (null: the personal ledger).
    const unbound = await make(s, { name: 'any', scope: 'read' });
    expect(await ledgerOf(unbound.token)).toBe(personal);
    expect(await ledgerOf(unbound.token, sharedId)).toBe(sharedId);
    expect(await ledgerOf(null, sharedId)).toBe(sharedId);
    expect(ledgerForApiToken(null, null)).toBeNull();

    // A deleted ledger takes its tokens with it: they never fall back to another ledger.
    await app.db.deleteFrom('ledger_members').where('ledger_id', '=', sharedId).execute();
    await app.db.deleteFrom('ledgers').where('id', '=', sharedId).execute();
    expect(
      (await app.inject({ method: 'GET', url: '/api/v1/bills', headers: bearer(toShared.token) })).statusCode,
    ).toBe(401);
  });

  it('holds at most 50 tokens per account (409 TOO_MANY_TOKENS)', async () => {
    const s = await signUp(app);
    for (let i = 0; i < 50; i++) await make(s, { name: `t${i}`, scope: 'read' });
    const more = await app.inject({
      method: 'POST',
      url: '/api/v1/tokens',
      headers: s.headers,
      payload: { name: 'one more', scope: 'read' },
    });
    expect(more.statusCode).toBe(409);
    expect(more.json().code).toBe('TOO_MANY_TOKENS');
  });

  it('checks the name and scope', async () => {
    const s = await signUp(app);
    for (const payload of [{ name: '', scope: 'read' }, { name: 'x', scope: 'write' }, { name: 'x' }]) {
      const res = await app.inject({ method: 'POST', url: '/api/v1/tokens', headers: s.headers, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
  });
});
