import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeAccounts } from '../../src/jobs/purge.ts';
import { DAY, MINUTE } from '../../src/lib/time.ts';
import { createTestApp, dialects, type TestApp, testConfig } from '../helpers/app.ts';
import { type Session, signIn, signUp } from '../helpers/factories.ts';

/**
 * Token cases beyond `auth.test.ts` (expired, tampered payload, alg none, another key, refresh token as access
 * token, reuse revoking the family, 14-day expiry) and `user.test.ts` (revocation on password change and
 * deactivation): well-signed tokens with the wrong claims, headers altered after signing, other HMAC algorithms,
 * an access token as a refresh token, families staying separate, and the tokens of a purged account.
 */

const SECRET = testConfig({ dialect: 'sqlite', file: ':memory:' }).jwtSecret;
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const parts = (token: string) => token.split('.') as [string, string, string];
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>;

/** A JWT signed by hand with the server's key, so claims no library would sign can be tried. */
function forge(claims: object, alg: 'HS256' | 'HS384' | 'HS512' = 'HS256'): string {
  const signingInput = `${b64({ alg, typ: 'JWT' })}.${b64(claims)}`;
  const hmac = createHmac(`sha${alg.slice(2)}`, SECRET)
    .update(signingInput)
    .digest('base64url');
  return `${signingInput}.${hmac}`;
}

describe.each(dialects)('tokens on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const me = (s: Session, token: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/user?userName=${s.username}`,
      headers: { authorization: `Bearer ${token}` },
    });
  const refresh = (refreshToken: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken } });
  const userId = async (s: Session) =>
    (
      await t.app.db
        .selectFrom('users')
        .select('id')
        .where('username_key', '=', s.username.toLowerCase())
        .executeTakeFirstOrThrow()
    ).id;
  const nowSeconds = () => Math.floor(t.clock.now() / 1000);

  it('refuses a token signed with the server key whose claims are not an unexpired access token of a user', async () => {
    const s = await signUp(t.app);
    const sub = String(await userId(s));
    const iat = nowSeconds();
    const valid = { sub, typ: 'access', iat, exp: iat + 900 };
    // The signer is the server's own: the untouched claims pass, so each refusal below is the claim's doing.
    expect((await me(s, forge(valid))).statusCode).toBe(200);
    const bad: Record<string, unknown>[] = [
      { ...valid, typ: 'refresh' },
      { ...valid, typ: 'ACCESS' },
      { ...valid, typ: undefined },
      { ...valid, sub: undefined },
      { ...valid, sub: 'abc' },
      { ...valid, sub: `${sub}.5` },
      { ...valid, sub: '-1' },
      { ...valid, sub: '0' },
      { ...valid, sub: '99999999' },
      { ...valid, exp: undefined },
      { ...valid, exp: String(iat + 900) },
      { ...valid, exp: iat },
      { ...valid, exp: iat - 1 },
      { ...valid, exp: null },
    ];
    for (const claims of bad) {
      const res = await me(s, forge(claims));
      expect({ claims, status: res.statusCode }).toEqual({ claims, status: 401 });
      expect(res.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    }
  });

  it('refuses a header altered after signing (typ, alg, kid) and other HMAC algorithms with the same key', async () => {
    const s = await signUp(t.app);
    const [header, payload, signature] = parts(s.accessToken);
    const claims = decode(payload);
    for (const changed of [
      { ...decode(header), typ: 'refresh' },
      { ...decode(header), alg: 'HS512' },
      { ...decode(header), alg: 'none' },
      { ...decode(header), kid: '../../jwt-secret' },
    ]) {
      expect((await me(s, `${b64(changed)}.${payload}.${signature}`)).statusCode).toBe(401);
    }
    // The payload's `typ` altered without the key.
    expect((await me(s, `${header}.${b64({ ...claims, typ: 'admin' })}.${signature}`)).statusCode).toBe(401);
    expect((await me(s, forge(claims))).statusCode).toBe(200);
    for (const algorithm of ['HS384', 'HS512'] as const) {
      expect((await me(s, forge(claims, algorithm))).statusCode).toBe(401);
    }
    // Only the Authorization header carries a token: not a query parameter, not a cookie, not another scheme.
    const viaQuery = await t.app.inject({
      method: 'GET',
      url: `/api/v1/user?userName=${s.username}&access_token=${s.accessToken}`,
    });
    expect(viaQuery.statusCode).toBe(401);
    const viaCookie = await t.app.inject({
      method: 'GET',
      url: `/api/v1/user?userName=${s.username}`,
      headers: { cookie: `accessToken=${s.accessToken}` },
    });
    expect(viaCookie.statusCode).toBe(401);
    const untouched = await me(s, s.accessToken);
    expect(untouched.statusCode).toBe(200);
  });

  it('refuses an access token presented as a refresh token, and does not spend the real one', async () => {
    const s = await signUp(t.app);
    expect((await refresh(s.accessToken)).statusCode).toBe(401);
    expect((await refresh(`${s.refreshToken}x`)).statusCode).toBe(401);
    expect((await refresh(s.refreshToken)).statusCode).toBe(200);
  });

  it("reuse revokes only the leaked family: the user's other sessions live on", async () => {
    const s = await signUp(t.app);
    const laptop = await signIn(t.app, s);
    const rotated = await refresh(s.refreshToken);
    expect(rotated.statusCode).toBe(200);
    t.clock.advance(31_000); // past the reuse interval
    expect((await refresh(s.refreshToken)).statusCode).toBe(401); // reuse: this family dies
    expect((await refresh(rotated.json().refreshToken)).statusCode).toBe(401);
    expect((await refresh(laptop.refreshToken)).statusCode).toBe(200);
  });

  it("refuses a purged account's tokens, even freshly signed ones, and never gives its id to a new account", async () => {
    const s = await signUp(t.app);
    const id = await userId(s);
    const deactivate = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/user',
      headers: s.headers,
      payload: { password: s.password, recycle: true },
    });
    expect(deactivate.statusCode).toBe(200);
    t.clock.advance(30 * DAY + MINUTE);
    expect((await purgeAccounts(t.app.db, t.clock.now())).users).toBeGreaterThanOrEqual(1);
    expect(await t.app.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();

    // A token the server itself would sign for that id, unexpired: the account is gone, so it is refused.
    const stale = t.app.signAccessToken({ id, token_version: 0 });
    expect((await me(s, stale)).statusCode).toBe(401);
    expect((await refresh(s.refreshToken)).statusCode).toBe(401);
    // A stale token can never come to name someone else: ids are not reused after a purge.
    const next = await signUp(t.app);
    expect(await userId(next)).toBeGreaterThan(id);
    expect((await me(next, stale)).statusCode).toBe(401);
  });
});
