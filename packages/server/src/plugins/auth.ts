import { API_TOKEN_PREFIX, type TokenScope } from '@billfold/contract/tokens';
import { createSigner, createVerifier } from 'fast-jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import { forbidden, notFound, unauthorized } from '../lib/http-error.ts';
import { sha256 } from '../lib/tokens.ts';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

interface AccessClaims {
  sub: string;
  typ: 'access';
  iat: number;
  exp: number;
  /** The user's `token_version` when the token was issued; tokens from before this claim existed count as 0. */
  ver?: number;
}

/** What an API token allows (docs/decisions/0721-api-tokens.md); a session allows everything its user may do. */
export interface ApiTokenGrant {
  id: number;
  scope: TokenScope;
  /** The one ledger the token works in; null: every ledger of its user, as a session. */
  ledgerId: number | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user's id, set by `authenticate`. */
    userId: number;
    /** Set by `authenticate` when the caller sent an API token instead of a session's access token. */
    apiToken: ApiTokenGrant | null;
  }
  interface FastifyContextConfig {
    /**
     * Only a session may call this route, never an API token (403 `TOKEN_NOT_ALLOWED`): managing tokens, the
     * password, the address, MFA, the calendar feed and the identity-provider link.
     */
    sessionOnly?: boolean;
  }
  interface FastifyInstance {
    authenticate: (request: FastifyRequest) => Promise<void>;
    /**
     * `authenticate` whose account check is `check`: one statement that reads the account's `token_version` (of an
     * active account, else no row) and whatever else the route group needs with it (the ledger group's member
     * check, plugins/ledger.ts), given what the group found in the request (`arg`). Resolves to that row.
     */
    authenticateWith: <T extends AccountRow, A>(
      check: AccountCheck<T, A>,
    ) => (request: FastifyRequest, arg: A) => Promise<T>;
    signAccessToken: (user: { id: number; token_version: number }) => string;
  }
}

/** What an account check reads: the account's `token_version`, when it is active. */
export interface AccountRow {
  token_version: number | string;
}

/** Reads the signed-in user's account row, and more in the same statement; undefined when it is not active. */
export type AccountCheck<T extends AccountRow, A> = (
  request: FastifyRequest,
  userId: number,
  arg: A,
) => Promise<T | undefined>;

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/;
/** `bf_` and 256 random bits in base64url (`modules/tokens/tokens.service.ts`): never confused with a JWT. */
export const API_TOKEN_PATTERN = new RegExp(`^${API_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`);
const BEARER_API_TOKEN = /^Bearer (\S+)$/;
/** A token's last use is written at most once a minute: a dashboard polling every few seconds costs no write each. */
export const TOKEN_LAST_USE_STEP = 60_000;
/** The methods a `read` token may use. */
const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * The ledger a request made with `apiToken` works in, given the ledger it names (the `Billfold-Ledger` header,
 * docs/decisions/0107-ledgers.md) or null when it names none. A token bound to a ledger uses that ledger when the
 * request names none and answers 404 for any other, like a ledger the caller is not a member of; a token without
 * a ledger, and a session, leave the choice as it was (null: the caller's personal ledger). The ledger
 * resolution calls this before it checks membership, so a bound token still needs its user to be a member.
 */
export function ledgerForApiToken(apiToken: ApiTokenGrant | null, requested: number | null): number | null {
  if (apiToken?.ledgerId == null) return requested;
  if (requested !== null && requested !== apiToken.ledgerId) throw notFound('Ledger not found');
  return apiToken.ledgerId;
}

/**
 * HS256 access tokens of 15 minutes, timed by the app's clock. `authenticate` also checks that the account
 * still exists and is active and that the token carries the account's current `token_version` (a password
 * change or deactivation increments it), so a deactivated or purged user's token, and every token issued
 * before a password change, stops working at once. It is the same one-row read either way.
 */
export function registerAuth(
  app: FastifyInstance,
  opts: {
    secret: string;
    db: Db;
    now: () => number;
    /** Called with each authenticated request's user; may throw (the request rate, plugins/fairness.ts). */
    onUser?: (userId: number) => void;
  },
): void {
  const sign = createSigner({ key: opts.secret, algorithm: 'HS256' });
  // Expiry is checked below against the injected clock; the algorithm list refuses `none` and key confusion.
  const verify = createVerifier({
    key: opts.secret,
    algorithms: ['HS256'],
    ignoreExpiration: true,
    ignoreNotBefore: true,
    // Verified tokens (never failures) are remembered, keyed by a hash of the token: a client repeats its
    // token on every call for 15 minutes. The expiry check below still runs on every request.
    cache: 1000,
  });
  // The account group's check, on every request of it: compiled once, run with the id as its parameter.
  const activeUser = opts.db
    .selectFrom('users')
    .select(['id', 'token_version'])
    .where('id', '=', 0)
    .where('deactivated_at', 'is', null)
    .compile();
  if (activeUser.parameters.length !== 1)
    throw new Error('the account check must have the user id as its only parameter');
  // An API token's own query has found its account active: the account group needs nothing more of it.
  const accountOnly: AccountCheck<AccountRow, undefined> = async (request, userId) =>
    request.apiToken
      ? { token_version: 0 }
      : (await opts.db.executeQuery({ ...activeUser, parameters: [userId] } as typeof activeUser)).rows[0];

  // The API token check: the token's row and whether its user is active, one indexed read by the token's hash.
  const tokenQuery = opts.db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .select([
      'api_tokens.id',
      'api_tokens.user_id',
      'api_tokens.scope',
      'api_tokens.ledger_id',
      'api_tokens.expires_at',
      'api_tokens.last_used_at',
    ])
    .where('api_tokens.token_hash', '=', '')
    .where('users.deactivated_at', 'is', null)
    .compile();

  const authenticateApiToken = async (request: FastifyRequest, token: string) => {
    const [row] = (await opts.db.executeQuery({ ...tokenQuery, parameters: [sha256(token)] } as typeof tokenQuery))
      .rows;
    const now = opts.now();
    if (!row) throw unauthorized('Unauthorized: invalid API token');
    if (row.expires_at !== null && Number(row.expires_at) <= now) throw unauthorized('Unauthorized: API token expired');
    if (request.routeOptions.config.sessionOnly)
      throw forbidden('API tokens cannot do this: sign in to the app instead.', 'TOKEN_NOT_ALLOWED');
    const scope = row.scope === 'read-write' ? 'read-write' : 'read';
    if (scope === 'read' && !READ_METHODS.has(request.method))
      throw forbidden('This API token can only read: its scope is read.', 'TOKEN_READ_ONLY');
    const lastUsed = row.last_used_at === null ? null : Number(row.last_used_at);
    if (lastUsed === null || now - lastUsed >= TOKEN_LAST_USE_STEP) {
      // Conditional, so of concurrent requests (on any process) one writes and the rest find it fresh.
      await opts.db
        .updateTable('api_tokens')
        .set({ last_used_at: now })
        .where('id', '=', Number(row.id))
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', now - TOKEN_LAST_USE_STEP)]))
        .execute();
    }
    const userId = Number(row.user_id);
    opts.onUser?.(userId);
    request.userId = userId;
    request.apiToken = { id: Number(row.id), scope, ledgerId: row.ledger_id === null ? null : Number(row.ledger_id) };
  };

  app.decorateRequest('userId', 0);
  app.decorateRequest('apiToken', null);
  app.decorate('signAccessToken', (user: { id: number; token_version: number }) => {
    const iat = Math.floor(opts.now() / 1000);
    const claims: AccessClaims = {
      sub: String(user.id),
      typ: 'access',
      iat,
      exp: iat + ACCESS_TOKEN_TTL_SECONDS,
      ver: user.token_version,
    };
    return sign(claims);
  });
  const authenticateWith =
    <T extends AccountRow, A>(check: AccountCheck<T, A>) =>
    async (request: FastifyRequest, arg: A): Promise<T> => {
      const header = request.headers.authorization ?? '';
      const apiToken = BEARER_API_TOKEN.exec(header)?.[1];
      if (apiToken?.startsWith(API_TOKEN_PREFIX)) {
        if (!API_TOKEN_PATTERN.test(apiToken)) throw unauthorized('Unauthorized: invalid API token');
        await authenticateApiToken(request, apiToken);
        // The token's query found its user active; the check still reads what the group needs with the account.
        const row = await check(request, request.userId, arg);
        if (!row) throw unauthorized('Unauthorized: account not active');
        return row;
      }
      const match = BEARER.exec(header);
      if (!match?.[1]) throw unauthorized('Unauthorized: missing or malformed access token');
      let claims: AccessClaims;
      try {
        claims = verify(match[1]) as AccessClaims;
      } catch {
        throw unauthorized('Unauthorized: invalid access token');
      }
      const userId = Number(claims.sub);
      const version = claims.ver ?? 0;
      if (
        claims.typ !== 'access' ||
        !Number.isSafeInteger(userId) ||
        typeof claims.exp !== 'number' ||
        !Number.isSafeInteger(version)
      ) {
        throw unauthorized('Unauthorized: invalid access token');
      }
      if (claims.exp * 1000 <= opts.now()) throw unauthorized('Unauthorized: access token expired');
      const row = await check(request, userId, arg);
      if (!row) throw unauthorized('Unauthorized: account not active');
      if (Number(row.token_version) !== version) throw unauthorized('Unauthorized: access token revoked');
      opts.onUser?.(userId);
      request.userId = userId;
      return row;
    };
  app.decorate('authenticateWith', authenticateWith);
  const authenticate = authenticateWith(accountOnly);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    await authenticate(request, undefined);
  });
}
