import {
  type AcceptInvitationResult,
  INVITATION_TTL_DAYS,
  type Invitation,
  type InvitationPreview,
  type InvitationRole,
} from '@billfold/contract/ledgers';
import { notFound } from '../../lib/http-error.ts';
import { newOpaqueToken, sha256 } from '../../lib/tokens.ts';
import type { AuthRepository } from '../auth/auth.repository.ts';
import { reserveAttempt, type ThrottleKey } from '../auth/throttle.ts';
import { roleIn } from './ledger-access.ts';
import { toInvitation, toLedger } from './ledgers.mapper.ts';
import { LEDGER_MESSAGES } from './ledgers.messages.ts';
import type { LedgersRepository } from './ledgers.repository.ts';

const DAY = 24 * 60 * 60 * 1000;

/** The app's page that opens an invitation; the token rides in the fragment, which browsers never send. */
export const INVITE_PAGE = '/invite';

/** A path as the log may show it: an invitation's token is a secret, so it is never written down. */
export const maskInvitationToken = (path: string) => path.replace(/(\/api\/v1\/invitations\/)[^/]+/, '$1…');

export interface InvitationLimits {
  /** Invitations one user may make in the throttle window. */
  invitations: number;
  /** Unusable links one user, and one client address, may try in the throttle window. */
  invitationAttempts: number;
}

/** Who opens a link: the signed-in user and their client address (both throttled). */
export interface Opener {
  userId: number;
  ip: string;
}

/**
 * Invitation links into a ledger (docs/decisions/0107-ledgers.md): an owner makes one for a role (editor or
 * viewer); the link carries a random single-use token, stored only as its hash, usable for
 * `INVITATION_TTL_DAYS` days until accepted or revoked. A link is addressed to nobody: whoever signs in with it
 * may join, and nothing about it tells whether an address has an account.
 */
export class InvitationsService {
  constructor(
    private readonly repo: LedgersRepository,
    private readonly throttle: AuthRepository,
    private readonly limits: InvitationLimits,
    private readonly now: () => number,
  ) {}

  /** A new link (`<appUrl>/invite#<token>`), shown this once. Throttled per user. */
  async create(userId: number, ledgerId: number, role: InvitationRole, appUrl: string): Promise<Invitation> {
    await roleIn(this.repo, ledgerId, userId, 'owner');
    const now = this.now();
    // Every invitation made counts, kept for the window (nothing to withdraw: the work always happens).
    await reserveAttempt(
      this.throttle,
      [{ key: `invite:${userId}`, limit: this.limits.invitations }],
      now,
      LEDGER_MESSAGES.tooManyInvitations,
      'INVITATIONS_THROTTLED',
    );
    const token = newOpaqueToken();
    const id = await this.repo.transaction(async (repo) => {
      if (!(await repo.lock(ledgerId))) throw notFound(LEDGER_MESSAGES.notFound);
      await roleIn(repo, ledgerId, userId, 'owner');
      return repo.insertInvitation({
        ledger_id: ledgerId,
        token_hash: sha256(token),
        role,
        created_by: userId,
        created_at: now,
        expires_at: now + INVITATION_TTL_DAYS * DAY,
      });
    });
    const row = await this.repo.invitation(id);
    if (!row) throw notFound(LEDGER_MESSAGES.invitationNotFound);
    return toInvitation(row, `${appUrl}${INVITE_PAGE}#${token}`);
  }

  /** The ledger's invitations still usable, newest first (owners only). */
  async pending(userId: number, ledgerId: number): Promise<Invitation[]> {
    await roleIn(this.repo, ledgerId, userId, 'owner');
    const rows = await this.repo.pendingInvitations(ledgerId, this.now());
    return rows.map((row) => toInvitation(row));
  }

  /** Revokes a pending invitation: its link stops working at once. */
  async revoke(userId: number, ledgerId: number, invitationId: number): Promise<{ message: string }> {
    await roleIn(this.repo, ledgerId, userId, 'owner');
    const revoked = await this.repo.transaction(async (repo) => {
      if (!(await repo.lock(ledgerId))) throw notFound(LEDGER_MESSAGES.notFound);
      await roleIn(repo, ledgerId, userId, 'owner');
      return repo.revokeInvitation(ledgerId, invitationId, this.now());
    });
    if (!revoked) throw notFound(LEDGER_MESSAGES.invitationNotFound);
    return { message: LEDGER_MESSAGES.revoked };
  }

  /** What the link offers, before accepting: the ledger's name, the role, who invited, until when. */
  async preview(who: Opener, token: string): Promise<InvitationPreview> {
    return this.throttled(who, async () => {
      const invitation = await this.repo.usableInvitation(sha256(token), this.now());
      if (!invitation) return null;
      const role = await this.repo.roleOf(invitation.ledger_id, who.userId);
      return {
        ledgerName: invitation.ledger_name,
        role: invitation.role as InvitationRole,
        invitedBy: invitation.created_by_name,
        expiresAt: toInvitation(invitation).expiresAt,
        alreadyMember: role !== undefined,
      };
    });
  }

  /**
   * Joins the ledger with the invitation's role, marking the token used in the same transaction, under the
   * ledger's lock: of two accepts of one link only one joins. A member already changes nothing (the link stays
   * usable for the person it was meant for).
   */
  /**
   * A link this very user accepted and whose ledger they are still in: a second accept (a double click, two tabs,
   * a retry racing the first answer) changes nothing rather than calling the link spent.
   */
  private async acceptedAlready(tokenHash: string, userId: number) {
    const ledgerId = await this.repo.ledgerOfInvitationAcceptedBy(tokenHash, userId);
    if (ledgerId === undefined || (await this.repo.roleOf(ledgerId, userId)) === undefined) return null;
    return { ledgerId, joined: false };
  }

  async accept(who: Opener, token: string): Promise<AcceptInvitationResult> {
    const tokenHash = sha256(token);
    const outcome = await this.throttled(who, async () => {
      const now = this.now();
      const found = await this.repo.usableInvitation(tokenHash, now);
      if (!found) return this.acceptedAlready(tokenHash, who.userId);
      return this.repo.transaction(async (repo) => {
        if (!(await repo.lock(found.ledger_id))) return null;
        if ((await repo.roleOf(found.ledger_id, who.userId)) !== undefined) {
          return { ledgerId: found.ledger_id, joined: false };
        }
        if (!(await repo.consumeInvitation(found.id, who.userId, now))) return null;
        await repo.addMember(found.ledger_id, who.userId, found.role as InvitationRole, now);
        const events = repo.notifications();
        await events.record(
          { ledgerId: found.ledger_id, except: who.userId },
          'member_joined',
          async () => {
            const [ledger, name] = [await events.ledgerName(found.ledger_id), await events.username(who.userId)];
            return {
              key: `member_joined:${found.ledger_id}:${who.userId}:${now}`,
              title: `${name} joined ${ledger}`,
              body: `${name} accepted an invitation and joined the ledger ${ledger} as ${found.role}.`,
              data: {
                ledgerId: found.ledger_id,
                ledgerName: ledger,
                userId: who.userId,
                username: name,
                role: found.role,
              },
            };
          },
          now,
        );
        return { ledgerId: found.ledger_id, joined: true };
      });
    });
    const ledger = await this.repo.findFor(who.userId, outcome.ledgerId);
    if (!ledger) throw notFound(LEDGER_MESSAGES.notFound);
    return { ledger: toLedger(ledger, who.userId), joined: outcome.joined };
  }

  /**
   * Runs a look-up of a link under the attempts throttle: counted (per user and per client address) before the
   * work, the count withdrawn when the link was usable, kept when not; 404 `INVITATION_INVALID` for a link that
   * is unknown, expired, used or revoked, alike.
   */
  private async throttled<T>(who: Opener, work: () => Promise<T | null>): Promise<T> {
    const limit = this.limits.invitationAttempts;
    const keys: ThrottleKey[] = [
      { key: `invite-try:${who.userId}`, limit },
      { key: `invite-try-ip:${who.ip}`, limit },
    ];
    const reservation = await reserveAttempt(
      this.throttle,
      keys,
      this.now(),
      LEDGER_MESSAGES.tooManyInvitationAttempts,
      'INVITATIONS_THROTTLED',
    );
    const result = await work();
    if (result === null) throw notFound(LEDGER_MESSAGES.invitationInvalid, 'INVITATION_INVALID');
    await this.throttle.deleteFailures(reservation);
    return result;
  }
}
