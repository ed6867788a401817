import { toApiTimestamp } from '@billfold/contract/dates';
import {
  EMAIL_MESSAGES,
  type EmailStatus,
  VERIFICATION_LINK_HOURS,
  type VerifyEmailResult,
} from '@billfold/contract/email-verification';
import type { UserRow } from '../../db/schema.ts';
import { badRequest, conflict, notFound } from '../../lib/http-error.ts';
import type { Outbox } from '../../lib/outbox.ts';
import { HOUR } from '../../lib/time.ts';
import { newOpaqueToken, sha256 } from '../../lib/tokens.ts';
import type { AuthRepository } from '../auth/auth.repository.ts';
import { reserveAttempt, verificationMailKey } from '../auth/throttle.ts';
import type { EmailVerificationRepository } from './email-verification.repository.ts';
import { addressTakenMail, type LinkReason, verificationMail } from './verification-mail.ts';

export const VERIFICATION_TTL = VERIFICATION_LINK_HOURS * HOUR;

/** What sending a link needs of the account. */
type LinkUser = Pick<UserRow, 'id' | 'username' | 'email' | 'email_key' | 'email_verified_at'>;

/**
 * Verified addresses (docs/decisions/1131-verified-addresses.md): a new or changed address gets a link, single
 * use, for 24 hours, its token stored as a hash like a refresh token's; following it marks the address
 * verified if it is still the account's. Reminders and every notification go only to verified addresses.
 */
export class EmailVerificationService {
  constructor(
    private readonly repo: EmailVerificationRepository,
    private readonly throttle: AuthRepository,
    private readonly outbox: Outbox,
    private readonly now: () => number,
  ) {}

  async status(userId: number): Promise<EmailStatus> {
    const user = await this.repo.user(userId);
    if (!user) throw notFound('User not found');
    const sentAt = await this.repo.lastSent(userId, user.email_key);
    return {
      email: user.email,
      verified: user.email_verified_at !== null,
      mailConfigured: this.outbox.configured,
      sentAt: sentAt === null ? null : toApiTimestamp(new Date(sentAt)),
    };
  }

  /**
   * Sends a link for the account's current address, unless it is verified already or the server cannot send
   * mail. `appUrl` null (the hourly job without `PUBLIC_URL`) sends no link but says where to ask for one.
   */
  async sendLink(userId: number, appUrl: string | null, reason: LinkReason): Promise<void> {
    if (!this.outbox.configured) return;
    const user = await this.repo.user(userId);
    if (user) await this.sendLinkTo(user, appUrl, reason);
  }

  /** `sendLink` for an account row the caller has already read (a new account's, just inserted). */
  async sendLinkTo(user: LinkUser, appUrl: string | null, reason: LinkReason): Promise<void> {
    if (!this.outbox.configured || user.email_verified_at !== null) return;
    const token = newOpaqueToken();
    const now = this.now();
    await this.repo.transaction(async (repo) => {
      await repo.removeOtherAddresses(user.id, user.email_key);
      await repo.insert({
        user_id: user.id,
        token_hash: sha256(token),
        email_key: user.email_key,
        created_at: now,
        expires_at: now + VERIFICATION_TTL,
      });
    });
    const link = appUrl === null ? null : `${appUrl}/verify-email#${token}`;
    this.outbox.post(verificationMail({ to: user.email, username: user.username, link, reason }), 'verification link');
  }

  /** "Send again" on the Account page: a few per 15 minutes (429 with `Retry-After` beyond). */
  async sendAgain(userId: number, appUrl: string): Promise<EmailStatus> {
    if (!this.outbox.configured) throw conflict(EMAIL_MESSAGES.mailNotConfigured, 'MAIL_NOT_CONFIGURED');
    const user = await this.repo.user(userId);
    if (!user) throw notFound('User not found');
    if (user.email_verified_at !== null) throw conflict(EMAIL_MESSAGES.alreadyVerified);
    await reserveAttempt(this.throttle, [verificationMailKey(userId)], this.now(), EMAIL_MESSAGES.resendThrottled);
    await this.sendLinkTo(user, appUrl, 'again');
    return this.status(userId);
  }

  /** Follows a link: once, within 24 hours, and only for the address the account still has. */
  async verify(token: string): Promise<VerifyEmailResult> {
    const now = this.now();
    const invalid = () => badRequest(EMAIL_MESSAGES.linkInvalid, 'EMAIL_LINK_INVALID');
    return this.repo.transaction(async (repo) => {
      const link = await repo.findByHash(sha256(token));
      if (!link || link.used_at !== null || Number(link.expires_at) <= now) throw invalid();
      const user = await repo.user(Number(link.user_id));
      if (!user || user.email_key !== link.email_key) throw invalid();
      if (!(await repo.spend(link.id, now))) throw invalid();
      if (!(await repo.markVerified(user.id, link.email_key, now))) throw invalid();
      return { email: user.email, verified: true as const };
    });
  }

  /**
   * Someone signed up with an address an account already has: its owner is told, if that address is verified
   * (a notification goes only to a verified address); the one signing up is told nothing different.
   */
  async tellOwnerOfTakenAddress(emailKey: string, appUrl: string): Promise<void> {
    const owner = await this.repo.userByEmail(emailKey);
    if (!owner || owner.email_verified_at === null || !this.outbox.configured) return;
    this.outbox.post(addressTakenMail({ to: owner.email, username: owner.username, appUrl }), 'address taken notice');
  }
}
