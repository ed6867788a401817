/**
 * Personal API tokens (`/tokens`): for scripts and home dashboards, sent as `Authorization: Bearer bf_…`
 * (docs/decisions/0721-api-tokens.md). A token is shown once, when it is made; only its hash is stored.
 */
import { z } from 'zod';
import { isoDate, nameText, timestamp } from './primitives.ts';

/** Every API token starts with this, so the server tells it from a session's JWT and secret scanners find it. */
export const API_TOKEN_PREFIX = 'bf_';

/** `read`: GET and HEAD only · `read-write`: every data call (never tokens, password or account changes). */
export const TOKEN_SCOPES = ['read', 'read-write'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];
export const tokenScope = z.enum(TOKEN_SCOPES);

/** The most tokens one account may hold at once. */
export const MAX_API_TOKENS = 50;

/** The longest token name, in characters. */
export const MAX_TOKEN_NAME = 100;
export const tokenName = nameText(MAX_TOKEN_NAME).pipe(z.string().min(1, 'is required'));

export const createTokenBody = z.object({
  name: tokenName,
  scope: tokenScope,
  /** A ledger the caller is a member of: the token works in it only (and uses it without the header). */
  ledgerId: z.number().int().positive().nullish(),
  /** The last day the token works (UTC, inclusive); none: until revoked. */
  expiresOn: isoDate.nullish(),
});

/** A token as listed: never its secret. */
export const apiToken = z.object({
  id: z.number().int(),
  name: z.string(),
  scope: tokenScope,
  ledgerId: z.number().int().nullable(),
  /** The first characters of the secret (`bf_AbC1…`), to tell tokens apart. */
  hint: z.string(),
  createdAt: timestamp,
  expiresAt: timestamp.nullable(),
  /** The last request made with it, to the minute; null when never used. */
  lastUsedAt: timestamp.nullable(),
});
export const tokenList = z.object({ tokens: z.array(apiToken) });
/** The answer to making a token: the listing plus the secret, shown this once. */
export const createdToken = apiToken.extend({ token: z.string() });

export type CreateTokenBody = z.input<typeof createTokenBody>;
export type NewToken = z.output<typeof createTokenBody>;
export type ApiToken = z.infer<typeof apiToken>;
export type TokenList = z.infer<typeof tokenList>;
export type CreatedToken = z.infer<typeof createdToken>;
