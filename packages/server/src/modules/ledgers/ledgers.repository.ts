import type { LedgerRole } from '@billfold/contract/ledgers';
import { NotificationEvents } from '../../db/notification-events.ts';
import { Repository } from '../../db/repository.ts';

/** A ledger as one member sees it: the ledger's row, the member's role and how many members it has. */
export interface MemberLedgerRow {
  id: number;
  name: string;
  personal_user_id: number | null;
  created_at: number;
  role: string;
  member_count: number;
}

/**
 * Ledgers, their members and their invitations (docs/decisions/0107-ledgers.md). Every change of who belongs
 * to a ledger, and as what, first locks the ledger's row (`lock`), so such changes of one ledger run one after
 * the other in any number of processes: the last-owner rule and single-use links hold under concurrency.
 */
export class LedgersRepository extends Repository {
  /** The notification outbox, in this repository's transaction (docs/decisions/1150-notification-outbox.md). */
  notifications(): NotificationEvents {
    return new NotificationEvents(this.db);
  }

  private memberLedgers(userId: number) {
    return this.db
      .selectFrom('ledger_members as m')
      .innerJoin('ledgers as l', 'l.id', 'm.ledger_id')
      .select((eb) => [
        'l.id',
        'l.name',
        'l.personal_user_id',
        'l.created_at',
        'm.role',
        eb
          .selectFrom('ledger_members as c')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('c.ledger_id', '=', 'l.id')
          .as('member_count'),
      ])
      .where('m.user_id', '=', userId);
  }

  /** Every ledger the user is a member of. */
  async listFor(userId: number): Promise<MemberLedgerRow[]> {
    const rows = await this.memberLedgers(userId).execute();
    return rows.map(numbered);
  }

  /** One ledger as the user sees it, if they are a member. */
  async findFor(userId: number, ledgerId: number): Promise<MemberLedgerRow | undefined> {
    const row = await this.memberLedgers(userId).where('l.id', '=', ledgerId).executeTakeFirst();
    return row ? numbered(row) : undefined;
  }

  /** The user's role in the ledger, or undefined when they are not a member (or it does not exist). */
  async roleOf(ledgerId: number, userId: number): Promise<LedgerRole | undefined> {
    const row = await this.db
      .selectFrom('ledger_members')
      .select('role')
      .where('ledger_id', '=', ledgerId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.role as LedgerRole | undefined;
  }

  /**
   * Reads the ledger with a no-op update, which takes its row lock (PostgreSQL) or the write lock (SQLite) until
   * the transaction ends.
   */
  lock(ledgerId: number) {
    return this.db
      .updateTable('ledgers')
      .set((eb) => ({ name: eb.ref('name') }))
      .where('id', '=', ledgerId)
      .returning(['id', 'name', 'personal_user_id'])
      .executeTakeFirst();
  }

  async insertLedger(name: string, at: number): Promise<number> {
    const row = await this.db
      .insertInto('ledgers')
      .values({ name, personal_user_id: null, created_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  rename(ledgerId: number, name: string) {
    return this.db.updateTable('ledgers').set({ name }).where('id', '=', ledgerId).execute();
  }

  /** Deletes the ledger; its members, invitations and data go with it (foreign keys, `on delete cascade`). */
  deleteLedger(ledgerId: number) {
    return this.db.deleteFrom('ledgers').where('id', '=', ledgerId).execute();
  }

  /** Adds the member unless they already are one; true when added. */
  async addMember(ledgerId: number, userId: number, role: LedgerRole, at: number): Promise<boolean> {
    const rows = await this.db
      .insertInto('ledger_members')
      .values({ ledger_id: ledgerId, user_id: userId, role, joined_at: at })
      .onConflict((oc) => oc.columns(['ledger_id', 'user_id']).doNothing())
      .returning('user_id')
      .execute();
    return rows.length === 1;
  }

  /** The members with their usernames, in the order they joined. */
  async members(ledgerId: number) {
    const rows = await this.db
      .selectFrom('ledger_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.user_id', 'u.username', 'm.role', 'm.joined_at'])
      .where('m.ledger_id', '=', ledgerId)
      .orderBy('m.joined_at')
      .orderBy('m.user_id')
      .execute();
    return rows.map((r) => ({ ...r, user_id: Number(r.user_id), joined_at: Number(r.joined_at) }));
  }

  async countOwners(ledgerId: number): Promise<number> {
    const row = await this.db
      .selectFrom('ledger_members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ledger_id', '=', ledgerId)
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  setRole(ledgerId: number, userId: number, role: LedgerRole) {
    return this.db
      .updateTable('ledger_members')
      .set({ role })
      .where('ledger_id', '=', ledgerId)
      .where('user_id', '=', userId)
      .execute();
  }

  removeMember(ledgerId: number, userId: number) {
    return this.db
      .deleteFrom('ledger_members')
      .where('ledger_id', '=', ledgerId)
      .where('user_id', '=', userId)
      .execute();
  }

  // ---- invitations ----

  async insertInvitation(invitation: {
    ledger_id: number;
    token_hash: string;
    role: string;
    created_by: number;
    created_at: number;
    expires_at: number;
  }): Promise<number> {
    const row = await this.db
      .insertInto('ledger_invitations')
      .values(invitation)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  private invitations() {
    return this.db
      .selectFrom('ledger_invitations as i')
      .innerJoin('users as u', 'u.id', 'i.created_by')
      .select(['i.id', 'i.ledger_id', 'i.role', 'i.created_at', 'i.expires_at', 'u.username as created_by_name']);
  }

  /** Invitations not yet accepted, revoked or expired at `now`, newest first. */
  async pendingInvitations(ledgerId: number, now: number) {
    const rows = await this.invitations()
      .where('i.ledger_id', '=', ledgerId)
      .where('i.accepted_at', 'is', null)
      .where('i.revoked_at', 'is', null)
      .where('i.expires_at', '>', now)
      .orderBy('i.created_at', 'desc')
      .orderBy('i.id', 'desc')
      .execute();
    return rows.map(numberedInvitation);
  }

  async invitation(id: number) {
    const row = await this.invitations().where('i.id', '=', id).executeTakeFirst();
    return row ? numberedInvitation(row) : undefined;
  }

  /** The invitation of a token hash while it can still be used at `now`, with its ledger's name. */
  async usableInvitation(tokenHash: string, now: number) {
    const row = await this.invitations()
      .innerJoin('ledgers as l', 'l.id', 'i.ledger_id')
      .select('l.name as ledger_name')
      .where('i.token_hash', '=', tokenHash)
      .where('i.accepted_at', 'is', null)
      .where('i.revoked_at', 'is', null)
      .where('i.expires_at', '>', now)
      .executeTakeFirst();
    return row ? { ...numberedInvitation(row), ledger_name: row.ledger_name } : undefined;
  }

  /** The ledger of the invitation `userId` accepted with this token, if they did. */
  async ledgerOfInvitationAcceptedBy(tokenHash: string, userId: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('ledger_invitations')
      .select('ledger_id')
      .where('token_hash', '=', tokenHash)
      .where('accepted_by', '=', userId)
      .executeTakeFirst();
    return row ? Number(row.ledger_id) : undefined;
  }

  /** Marks the invitation used by `userId` only if it is still usable; false when it no longer was. */
  async consumeInvitation(id: number, userId: number, now: number): Promise<boolean> {
    const rows = await this.db
      .updateTable('ledger_invitations')
      .set({ accepted_by: userId, accepted_at: now })
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('id')
      .execute();
    return rows.length === 1;
  }

  /** Revokes one pending invitation of the ledger; false when there was none to revoke. */
  async revokeInvitation(ledgerId: number, id: number, now: number): Promise<boolean> {
    const rows = await this.db
      .updateTable('ledger_invitations')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('ledger_id', '=', ledgerId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('id')
      .execute();
    return rows.length === 1;
  }

  /** Revokes every pending invitation `userId` made in the ledger (they stop being an owner of it). */
  revokeInvitationsBy(ledgerId: number, userId: number, now: number) {
    return this.db
      .updateTable('ledger_invitations')
      .set({ revoked_at: now })
      .where('ledger_id', '=', ledgerId)
      .where('created_by', '=', userId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
  }
}

function numbered<T extends { id: number; personal_user_id: number | null; created_at: number; member_count: unknown }>(
  row: T,
) {
  return {
    ...row,
    id: Number(row.id),
    personal_user_id: row.personal_user_id === null ? null : Number(row.personal_user_id),
    created_at: Number(row.created_at),
    member_count: Number(row.member_count),
  };
}

function numberedInvitation<T extends { id: number; ledger_id: number; created_at: number; expires_at: number }>(
  row: T,
) {
  return {
    ...row,
    id: Number(row.id),
    ledger_id: Number(row.ledger_id),
    created_at: Number(row.created_at),
    expires_at: Number(row.expires_at),
  };
}
