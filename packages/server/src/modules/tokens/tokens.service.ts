import { toApiTimestamp } from '@billfold/contract/dates';
import {
  API_TOKEN_PREFIX,
  type ApiToken,
  type CreatedToken,
  MAX_API_TOKENS,
  type NewToken,
} from '@billfold/contract/tokens';
import type { Selectable } from 'kysely';
import type { ApiTokensTable } from '../../db/schema.ts';
import { badRequest, conflict, notFound } from '../../lib/http-error.ts';
import { DAY } from '../../lib/time.ts';
import { newOpaqueToken, sha256 } from '../../lib/tokens.ts';
import type { TokensRepository } from './tokens.repository.ts';

/** Characters of the secret kept in clear as its hint: the prefix and four more (2^24 guesses short of nothing). */
const HINT_LENGTH = API_TOKEN_PREFIX.length + 4;

function toApiToken(row: Selectable<ApiTokensTable>): ApiToken {
  const time = (at: number | null) => (at === null ? null : toApiTimestamp(new Date(Number(at))));
  return {
    id: Number(row.id),
    name: row.name,
    scope: row.scope === 'read-write' ? 'read-write' : 'read',
    ledgerId: row.ledger_id === null ? null : Number(row.ledger_id),
    hint: `${row.hint}…`,
    createdAt: toApiTimestamp(new Date(Number(row.created_at))),
    expiresAt: time(row.expires_at),
    lastUsedAt: time(row.last_used_at),
  };
}

/**
 * Personal API tokens (docs/decisions/0721-api-tokens.md): `bf_` and 256 random bits, shown once when made, kept
 * as their SHA-256 only (a high-entropy secret needs no slow hash), listed with their last use, revoked by deletion.
 * `plugins/auth.ts` checks them on each request.
 */
export class TokensService {
  constructor(
    private readonly repo: TokensRepository,
    private readonly now: () => number,
  ) {}

  async list(userId: number): Promise<ApiToken[]> {
    return (await this.repo.list(userId)).map(toApiToken);
  }

  async create(userId: number, body: NewToken): Promise<CreatedToken> {
    const now = this.now();
    let expiresAt: number | null = null;
    if (body.expiresOn) {
      // The token works through the whole of its last day (UTC).
      expiresAt = Date.parse(`${body.expiresOn}T00:00:00Z`) + DAY;
      if (expiresAt <= now) throw badRequest('expiresOn: must be today or a later day', 'VALIDATION_FAILED');
    }
    const ledgerId = body.ledgerId ?? null;
    if (ledgerId !== null && !(await this.repo.isMember(userId, ledgerId))) throw notFound('Ledger not found');
    const token = `${API_TOKEN_PREFIX}${newOpaqueToken()}`;
    const row = await this.repo.transaction(async (repo) => {
      if ((await repo.count(userId)) >= MAX_API_TOKENS)
        throw conflict(
          `You already have ${MAX_API_TOKENS} API tokens, the most allowed: revoke one first.`,
          'TOO_MANY_TOKENS',
        );
      return repo.insert({
        user_id: userId,
        name: body.name,
        token_hash: sha256(token),
        hint: token.slice(0, HINT_LENGTH),
        scope: body.scope,
        ledger_id: ledgerId,
        created_at: now,
        expires_at: expiresAt,
      });
    });
    return { ...toApiToken(row), token };
  }

  async revoke(userId: number, id: number): Promise<void> {
    if (!(await this.repo.delete(userId, id))) throw notFound('Token not found');
  }
}
