import type { Ledger, LedgerMember, LedgerRole } from '@billfold/contract/ledgers';
import { conflict, notFound } from '../../lib/http-error.ts';
import type { AuthRepository } from '../auth/auth.repository.ts';
import { checkCurrentPassword } from '../auth/throttle.ts';
import type { CalendarService } from '../calendar/calendar.service.ts';
import { roleIn } from './ledger-access.ts';
import { toLedger, toMember } from './ledgers.mapper.ts';
import { LEDGER_MESSAGES } from './ledgers.messages.ts';
import type { LedgersRepository } from './ledgers.repository.ts';

/**
 * Ledgers and their members (docs/decisions/0107-ledgers.md): a user's ledgers, creating, renaming and deleting
 * one, and who belongs to it as what. Every change of membership locks the ledger first and checks the rules
 * under that lock: a ledger keeps an owner, and a personal ledger keeps the person it belongs to, as its owner.
 */
export class LedgersService {
  constructor(
    private readonly repo: LedgersRepository,
    private readonly accounts: AuthRepository,
    private readonly calendar: CalendarService,
    private readonly now: () => number,
  ) {}

  /** The caller's ledgers: their personal ledger first, then the others by name. */
  async list(userId: number): Promise<Ledger[]> {
    const rows = await this.repo.listFor(userId);
    const personal = (row: { personal_user_id: number | null }) => (row.personal_user_id === userId ? 0 : 1);
    rows.sort(
      (a, b) => personal(a) - personal(b) || a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.id - b.id,
    );
    return rows.map((row) => toLedger(row, userId));
  }

  async get(userId: number, ledgerId: number): Promise<Ledger> {
    const row = await this.repo.findFor(userId, ledgerId);
    if (!row) throw notFound(LEDGER_MESSAGES.notFound);
    return toLedger(row, userId);
  }

  /** A new shared ledger with the caller as its one owner. */
  async create(userId: number, name: string): Promise<Ledger> {
    const now = this.now();
    const ledgerId = await this.repo.transaction(async (repo) => {
      const id = await repo.insertLedger(name, now);
      await repo.addMember(id, userId, 'owner', now);
      return id;
    });
    return this.get(userId, ledgerId);
  }

  async rename(userId: number, ledgerId: number, name: string): Promise<Ledger> {
    await roleIn(this.repo, ledgerId, userId, 'owner');
    await this.repo.transaction(async (repo) => {
      if (!(await repo.lock(ledgerId))) throw notFound(LEDGER_MESSAGES.notFound);
      await roleIn(repo, ledgerId, userId, 'owner');
      await repo.rename(ledgerId, name);
    });
    return this.get(userId, ledgerId);
  }

  /**
   * Deletes a ledger with everything in it, confirmed with the owner's current password (checked with the
   * sign-in throttle, docs/decisions/1130-current-password-throttle.md). A personal ledger goes only with its
   * account (409 `PERSONAL_LEDGER`).
   */
  async delete(userId: number, ledgerId: number, password: string, ip: string): Promise<{ message: string }> {
    await roleIn(this.repo, ledgerId, userId, 'owner');
    const ledger = await this.repo.findFor(userId, ledgerId);
    if (ledger?.personal_user_id != null) throw conflict(LEDGER_MESSAGES.personalDelete, 'PERSONAL_LEDGER');
    const account = await this.accounts.findUserById(userId);
    if (!account) throw notFound('User not found');
    await checkCurrentPassword(this.accounts, account, password, ip, this.now());
    await this.repo.transaction(async (repo) => {
      if (!(await repo.lock(ledgerId))) throw notFound(LEDGER_MESSAGES.notFound);
      // Still an owner once the ledger is locked: a demotion or removal that came first wins.
      await roleIn(repo, ledgerId, userId, 'owner');
      await repo.deleteLedger(ledgerId);
    });
    return { message: LEDGER_MESSAGES.deleted };
  }

  /** Every member of the ledger, for any of its members. */
  async members(userId: number, ledgerId: number): Promise<LedgerMember[]> {
    await roleIn(this.repo, ledgerId, userId, 'member');
    const rows = await this.repo.members(ledgerId);
    return rows.map((row) => toMember(row, userId));
  }

  /**
   * An owner changes a member's role (their own too, while another owner remains). A member who stops being an
   * owner loses the invitations they made that are still pending (their links stop working).
   */
  async changeRole(userId: number, ledgerId: number, memberId: number, role: LedgerRole): Promise<LedgerMember> {
    await roleIn(this.repo, ledgerId, userId, 'owner');
    const now = this.now();
    await this.repo.transaction(async (repo) => {
      const ledger = await repo.lock(ledgerId);
      if (!ledger) throw notFound(LEDGER_MESSAGES.notFound);
      await roleIn(repo, ledgerId, userId, 'owner');
      const current = await repo.roleOf(ledgerId, memberId);
      if (current === undefined) throw notFound(LEDGER_MESSAGES.memberNotFound);
      if (current === role) return;
      if (current === 'owner') {
        if (ledger.personal_user_id === memberId) throw conflict(LEDGER_MESSAGES.personalOwner, 'PERSONAL_LEDGER');
        if ((await repo.countOwners(ledgerId)) <= 1) throw conflict(LEDGER_MESSAGES.lastOwner, 'LAST_OWNER');
        await repo.revokeInvitationsBy(ledgerId, memberId, now);
      }
      await repo.setRole(ledgerId, memberId, role);
    });
    const member = (await this.repo.members(ledgerId)).find((m) => m.user_id === memberId);
    if (!member) throw notFound(LEDGER_MESSAGES.memberNotFound);
    return toMember(member, userId);
  }

  /**
   * An owner removes any member; any member removes themselves (leaves). Access ends at once: every route reads
   * membership on each request. The removed member's pending invitations are revoked with them, and their
   * calendar feed is ended (issue 26), so no address or link they kept outlives their access. Leaving keeps
   * one's own feed: the feed follows the ledgers one is a member of.
   */
  async remove(userId: number, ledgerId: number, memberId: number): Promise<{ message: string }> {
    const leaving = memberId === userId;
    await roleIn(this.repo, ledgerId, userId, leaving ? 'member' : 'owner');
    const now = this.now();
    await this.repo.transaction(async (repo) => {
      const ledger = await repo.lock(ledgerId);
      if (!ledger) throw notFound(LEDGER_MESSAGES.notFound);
      await roleIn(repo, ledgerId, userId, leaving ? 'member' : 'owner');
      const current = await repo.roleOf(ledgerId, memberId);
      if (current === undefined) throw notFound(LEDGER_MESSAGES.memberNotFound);
      if (ledger.personal_user_id === memberId) {
        throw conflict(leaving ? LEDGER_MESSAGES.personalLeave : LEDGER_MESSAGES.personalOwner, 'PERSONAL_LEDGER');
      }
      if (current === 'owner' && (await repo.countOwners(ledgerId)) <= 1) {
        throw conflict(LEDGER_MESSAGES.lastOwner, 'LAST_OWNER');
      }
      await repo.revokeInvitationsBy(ledgerId, memberId, now);
      await repo.removeMember(ledgerId, memberId);
    });
    if (leaving) return { message: LEDGER_MESSAGES.left };
    // After the commit, as a password change does (modules/users): the membership is already gone.
    await this.calendar.revoke(memberId);
    return { message: LEDGER_MESSAGES.removed };
  }
}
