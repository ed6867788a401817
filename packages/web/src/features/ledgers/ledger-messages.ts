/**
 * The sentences of the ledger screens (docs/decisions/0303-web-ledgers.md). A refusal is named from its `code`
 * (API Rev 3), never from the server's text; a refusal without a code of its own reads like every other failed
 * write (`failureMessage`).
 */
import type { ErrorCode } from '@billfold/contract/error-codes';
import { LEDGER_READ_ONLY_MESSAGE } from '@billfold/contract/ledger-basics';
import { INVITATION_TTL_DAYS, type LedgerRole } from '@billfold/contract/ledgers';
import { type Failure, failureMessage } from '../../api/outcome.ts';

export const ROLE_NAMES: Record<LedgerRole, string> = { owner: 'Owner', editor: 'Editor', viewer: 'Viewer' };
/** `an owner`, `an editor`, `a viewer`: a role inside a sentence. */
export const A_ROLE: Record<LedgerRole, string> = { owner: 'an owner', editor: 'an editor', viewer: 'a viewer' };

/** What each role may do, where a role is chosen or offered. */
export const ROLE_DESCRIPTIONS: Record<LedgerRole, string> = {
  owner: 'Owners do everything, including members, invitations, renaming and deleting the ledger.',
  editor: 'Editors add and change invoices, payments, entities and everything else in the ledger.',
  viewer: 'Viewers see everything and export, but change nothing.',
};

export const CODE_MESSAGES: Partial<Record<ErrorCode, string>> = {
  LAST_OWNER: 'A ledger always keeps at least one owner. Make another member an owner first.',
  PERSONAL_LEDGER: 'Your personal ledger cannot be left or deleted; it goes with your account.',
  LEDGER_OWNER_ONLY: 'Only an owner of this ledger can do that.',
  LEDGER_READ_ONLY: LEDGER_READ_ONLY_MESSAGE,
  WRONG_PASSWORD: 'The password is not correct.',
  INVITATION_INVALID:
    'This invitation link is not valid: it may have expired, been revoked or already been used. Ask for a new one.',
};

/** `Failed to remove member. A ledger always keeps at least one owner. …`: the action, then the reason by code. */
export function ledgerFailure(failure: Failure, messages: { failed: string; error: string }): string {
  const byCode = failure.code ? CODE_MESSAGES[failure.code] : undefined;
  return byCode ? `${messages.failed} ${byCode}` : failureMessage(failure, messages);
}

/** What the dialog holding a new link says about it. */
export function invitationTerms(role: LedgerRole): string {
  return `Whoever opens this link first can join as ${A_ROLE[role]}. It works once, within ${INVITATION_TTL_DAYS} days, and stops working if you revoke it.`;
}
