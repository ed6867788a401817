import type { User, UserChange } from '@billfold/contract/users';
import type { Updateable } from 'kysely';
import type { UserRow, UsersTable } from '../../db/schema.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/http-error.ts';
import { MESSAGES } from '../../lib/messages.ts';
import { hashPassword } from '../../lib/passwords.ts';
import type { AuthRepository } from '../auth/auth.repository.ts';
import { checkCurrentPassword, emailChangeKey, reserveAttempt } from '../auth/throttle.ts';
import type { CalendarService } from '../calendar/calendar.service.ts';
import type { EmailVerificationService } from '../email-verification/email-verification.service.ts';
import type { MfaService } from '../mfa/mfa.service.ts';
import { toUser } from './user.mapper.ts';
import type { UsersRepository } from './users.repository.ts';

export class UsersService {
  constructor(
    private readonly repo: UsersRepository,
    private readonly mfa: MfaService,
    private readonly throttle: AuthRepository,
    private readonly addresses: EmailVerificationService,
    private readonly calendar: CalendarService,
    private readonly now: () => number,
  ) {}

  async get(userId: number, userName: string): Promise<User> {
    const row = await this.repo.findById(userId);
    if (!row) throw notFound('User not found');
    if (row.username_key !== userName.toLowerCase()) throw forbidden('You can only read your own account');
    return toUser(row);
  }

  /**
   * Every change needs the current password; all of one request's changes land together or not at all. A new
   * address starts unverified and is sent a link (at `appUrl`); a new password or deactivation ends every
   * session and the calendar feed.
   */
  async update(userId: number, change: UserChange, ip: string, appUrl: string): Promise<User> {
    const current = await this.repo.findById(userId);
    if (!current) throw notFound('User not found');
    await checkCurrentPassword(this.throttle, current, change.password, ip, this.now());
    const wantsChange =
      change.recycle === true ||
      change.newEmail !== undefined ||
      change.newPassword !== undefined ||
      change.mfaEnabled !== undefined;
    if (!wantsChange) throw badRequest('Nothing to change: send newEmail, newPassword, mfaEnabled or recycle');
    const turnMfaOff = await this.mfaChange(current, change, ip);
    const newHash = change.newPassword === undefined ? undefined : await hashPassword(change.newPassword);
    const now = this.now();
    const newAddress = change.newEmail !== undefined && change.newEmail.toLowerCase() !== current.email_key;
    // A taken address is refused, so each change asks whether an address has an account: as slowly as sign-up.
    if (newAddress) await reserveAttempt(this.throttle, [emailChangeKey(userId)], now, 'Too many email changes.');

    // A new password or deactivation ends every session and the calendar feed.
    const revokeTokens = newHash !== undefined || change.recycle === true;
    const updated = await this.repo.transaction(async (repo) => {
      const changes: Updateable<UsersTable> = {};
      if (change.newEmail !== undefined) {
        const emailKey = change.newEmail.toLowerCase();
        if (await repo.emailTakenByOther(emailKey, userId)) throw conflict('Email already registered');
        Object.assign(changes, { email: change.newEmail, email_key: emailKey });
        // Another address (not merely other letter case) is unproven until its link is followed.
        if (newAddress) changes.email_verified_at = null;
      }
      if (newHash !== undefined) changes.password_hash = newHash;
      if (turnMfaOff) await repo.turnOffMfa(userId);
      if (change.recycle === true) {
        changes.deactivated_at = now;
        // The shared ledgers it owns alone pass to their longest-standing member at once (ADR 0107).
        await repo.handOverLedgers(userId);
      }
      if (revokeTokens) {
        // Every refresh token dies, and every access token issued so far stops at its next request.
        changes.token_version = current.token_version + 1;
        await repo.revokeRefreshTokens(userId, now);
      }
      if (Object.keys(changes).length > 0) await repo.update(userId, changes);
      const row = await repo.findById(userId);
      if (!row) throw notFound('User not found');
      return row;
    });
    // After the commit: the token version raised above has already ended the feed; this drops its row.
    if (revokeTokens) await this.calendar.revoke(userId);
    if (newAddress) await this.addresses.sendLinkTo(updated, appUrl, 'changed');
    return toUser(updated);
  }

  /**
   * `mfaEnabled` keeps its meaning for clients written before two-factor sign-in, such as the original client
   * (docs/api/README.md, User (/user)), within what MFA now requires (ADR 0720): the state it already has is a
   * no-op; switching on goes through the set-up calls, which show the QR code (409 here); switching off needs a
   * TOTP or recovery code besides the password.
   */
  private async mfaChange(current: UserRow, change: UserChange, ip: string): Promise<boolean> {
    if (change.mfaEnabled === undefined || change.mfaEnabled === (current.mfa_enabled === 1)) return false;
    if (change.mfaEnabled) {
      throw conflict('MFA is switched on by its set-up: POST /api/v1/user/mfa/setup, then /api/v1/user/mfa/enable');
    }
    if (change.code === undefined) throw badRequest('code: a current authentication code is required to disable MFA');
    if (!(await this.mfa.checkCode(current, change.code, ip))) throw forbidden(MESSAGES.invalidCode);
    return true;
  }
}
