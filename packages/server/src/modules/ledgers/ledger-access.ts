import type { LedgerRole } from '@billfold/contract/ledgers';
import { forbidden, notFound } from '../../lib/http-error.ts';
import { LEDGER_MESSAGES } from './ledgers.messages.ts';
import type { LedgersRepository } from './ledgers.repository.ts';

/**
 * The caller's role in the ledger a `/ledgers/{id}…` route names, read on every request: 404 when they are not a
 * member (unknown, deleted, or one they were removed from: its existence is never revealed), and with
 * `owner`, 403 `LEDGER_OWNER_ONLY` for an editor or viewer (docs/decisions/0107-ledgers.md).
 */
export async function roleIn(
  repo: LedgersRepository,
  ledgerId: number,
  userId: number,
  need: 'member' | 'owner',
): Promise<LedgerRole> {
  const role = await repo.roleOf(ledgerId, userId);
  if (role === undefined) throw notFound(LEDGER_MESSAGES.notFound);
  if (need === 'owner' && role !== 'owner') throw forbidden(LEDGER_MESSAGES.ownerOnly, 'LEDGER_OWNER_ONLY');
  return role;
}
