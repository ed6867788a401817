import {
  type PasswordResetRequested,
  type PasswordResetResult,
  RESET_LINK_MINUTES,
  RESET_MESSAGES,
} from '@billfold/contract/password-reset';
import { badRequest, conflict } from '../../lib/http-error.ts';
import type { Outbox } from '../../lib/outbox.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { MINUTE } from '../../lib/time.ts';
import { newOpaqueToken, sha256 } from '../../lib/tokens.ts';
import type { AuthRepository } from '../auth/auth.repository.ts';
import { reserveAttempt, resetAddressKey, resetMailKey } from '../auth/throttle.ts';
import type { CalendarService } from '../calendar/calendar.service.ts';
import type { PasswordResetRepository } from './password-reset.repository.ts';
import { resetMail } from './reset-mail.ts';

export const RESET_TTL = RESET_LINK_MINUTES * MINUTE;

/**
 * A forgotten password (docs/decisions/0723-password-reset.md): a link to the account's confirmed address, single
 * use, for an hour, its token stored as a hash; following it sets the new password and ends every session. It is
 * also how an account made through the identity provider gets a password of its own. The request answers the
 * same for any address, whether an account has it, whether it is confirmed, or whether the account is deactivated.
 */
export class PasswordResetService {
  constructor(
    private readonly repo: PasswordResetRepository,
    private readonly throttle: AuthRepository,
    private readonly calendar: CalendarService,
    private readonly outbox: Outbox,
    /** `PUBLIC_URL`: the only address links are made with; without it (or mail) no link can be sent. */
    private readonly publicUrl: string | null,
    private readonly now: () => number,
  ) {}

  /** Links can be sent: mail settings and `PUBLIC_URL` are both there. */
  get available(): boolean {
    return this.outbox.configured && this.publicUrl !== null;
  }

  async request(email: string, ip: string): Promise<PasswordResetRequested> {
    if (!this.available) throw conflict(RESET_MESSAGES.unavailable, 'MAIL_NOT_CONFIGURED');
    const emailKey = email.toLowerCase();
    const now = this.now();
    // Counted per address typed and per client address, known or not, so the throttle reveals nothing either.
    await reserveAttempt(this.throttle, [resetMailKey(emailKey), resetAddressKey(ip)], now, RESET_MESSAGES.throttled);
    const user = await this.repo.userByEmail(emailKey);
    if (user && user.email_verified_at !== null && user.deactivated_at === null) {
      const token = newOpaqueToken();
      await this.repo.replaceLinks({
        user_id: user.id,
        token_hash: sha256(token),
        email_key: user.email_key,
        created_at: now,
        expires_at: now + RESET_TTL,
      });
      const link = `${this.publicUrl}/reset-password#${token}`;
      this.outbox.post(resetMail({ to: user.email, username: user.username, link }), 'password link');
    }
    return { message: RESET_MESSAGES.requested };
  }

  /** Follows a link: once, within the hour, for the address the account still has; then ends every session. */
  async reset(token: string, newPassword: string): Promise<PasswordResetResult> {
    const invalid = () => badRequest(RESET_MESSAGES.linkInvalid, 'RESET_LINK_INVALID');
    const found = await this.repo.findByHash(sha256(token));
    if (!found || found.used_at !== null || Number(found.expires_at) <= this.now()) throw invalid();
    const passwordHash = await hashPassword(newPassword);
    const now = this.now();
    const user = await this.repo.transaction(async (repo) => {
      const link = await repo.findByHash(sha256(token));
      if (!link || link.used_at !== null || Number(link.expires_at) <= now) throw invalid();
      const account = await repo.user(Number(link.user_id));
      if (!account || account.deactivated_at !== null || account.email_key !== link.email_key) throw invalid();
      if (!(await repo.spend(link.id, now))) throw invalid();
      await repo.setPassword(account.id, passwordHash, account.token_version, now);
      return account;
    });
    // After the commit: the token version raised above has already ended the feed; this drops its row.
    await this.calendar.revoke(user.id);
    return { username: user.username };
  }
}
