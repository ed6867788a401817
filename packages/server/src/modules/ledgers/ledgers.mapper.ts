import { toApiTimestamp } from '@billfold/contract/dates';
import type { Invitation, InvitationRole, Ledger, LedgerMember, LedgerRole } from '@billfold/contract/ledgers';
import type { MemberLedgerRow } from './ledgers.repository.ts';

const timestampOf = (ms: number) => toApiTimestamp(new Date(ms));

/** A ledger as the member `userId` sees it. */
export function toLedger(row: MemberLedgerRow, userId: number): Ledger {
  return {
    id: row.id,
    name: row.name,
    role: row.role as LedgerRole,
    personal: row.personal_user_id === userId,
    memberCount: row.member_count,
    createdAt: timestampOf(row.created_at),
  };
}

export function toMember(
  row: { user_id: number; username: string; role: string; joined_at: number },
  callerId: number,
): LedgerMember {
  return {
    userId: row.user_id,
    username: row.username,
    role: row.role as LedgerRole,
    joinedAt: timestampOf(row.joined_at),
    you: row.user_id === callerId,
  };
}

export function toInvitation(
  row: { id: number; ledger_id: number; role: string; created_at: number; expires_at: number; created_by_name: string },
  link?: string,
): Invitation {
  return {
    id: row.id,
    ledgerId: row.ledger_id,
    role: row.role as InvitationRole,
    createdAt: timestampOf(row.created_at),
    expiresAt: timestampOf(row.expires_at),
    createdBy: row.created_by_name,
    ...(link === undefined ? {} : { link }),
  };
}
