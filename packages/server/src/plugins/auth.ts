import { createSigner, createVerifier } from 'fast-jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import { unauthorized } from '../lib/http-error.ts';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

interface AccessClaims {
  sub: string;
  typ: 'access';
  iat: number;
  exp: number;
  /** The user's `token_version` when the token was issued; tokens from before this claim existed count as 0. */
  ver?: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user's id, set by `authenticate`. */
    userId: number;
  }
  interface FastifyInstance {
    authenticate: (request: FastifyRequest) => Promise<void>;
    signAccessToken: (user: { id: number; token_version: number }) => string;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/;

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
  // The account check runs on every authenticated request: compiled once, run with the id as its parameter.
  const activeUser = opts.db
    .selectFrom('users')
    .select(['id', 'token_version'])
    .where('id', '=', 0)
    .where('deactivated_at', 'is', null)
    .compile();
  if (activeUser.parameters.length !== 1)
    throw new Error('the account check must have the user id as its only parameter');

  app.decorateRequest('userId', 0);
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
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const match = BEARER.exec(request.headers.authorization ?? '');
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
    const [user] = (await opts.db.executeQuery({ ...activeUser, parameters: [userId] } as typeof activeUser)).rows;
    if (!user) throw unauthorized('Unauthorized: account not active');
    if (Number(user.token_version) !== version) throw unauthorized('Unauthorized: access token revoked');
    opts.onUser?.(userId);
    request.userId = userId;
  });
}
