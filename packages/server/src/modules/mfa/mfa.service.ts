import type { MfaChallenge } from '@billfold/contract/auth';
import type { User } from '@billfold/contract/users';
import type { UserRow } from '../../db/schema.ts';
import { conflict, forbidden, unauthorized } from '../../lib/http-error.ts';
import { MESSAGES } from '../../lib/messages.ts';
import { newRecoveryCodes, normalizeRecoveryCode } from '../../lib/recovery-codes.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { MINUTE } from '../../lib/time.ts';
import { newOpaqueToken, sha256 } from '../../lib/tokens.ts';
import { matchTotp, newTotpSecret, otpauthUri } from '../../lib/totp.ts';
import type { AuthRepository } from '../auth/auth.repository.ts';
import { checkCurrentPassword, codeKeys, reserveAttempt } from '../auth/throttle.ts';
import { toUser } from '../users/user.mapper.ts';
import type { MfaRepository } from './mfa.repository.ts';

export const CHALLENGE_TTL = 5 * MINUTE;
export const CHALLENGE_INVALID = 'Unauthorized: sign-in expired or invalid, log in again';

/**
 * Two-factor sign-in with TOTP and one-time recovery codes (docs/decisions/0720-two-factor-sign-in.md):
 * set-up and confirmation, new recovery codes, the code check that every MFA step shares, and the sign-in
 * challenge. Turning MFA off is `PUT /user` (users module), which calls `checkCode` here.
 */
export class MfaService {
  constructor(
    private readonly repo: MfaRepository,
    private readonly throttle: AuthRepository,
    private readonly box: SecretBox,
    private readonly now: () => number,
  ) {}

  private async user(userId: number): Promise<UserRow> {
    const row = await this.repo.findUser(userId);
    if (!row) throw unauthorized('Unauthorized: account not active');
    return row;
  }

  /** Step 1 of enrolment: a new secret, kept pending (encrypted) until a code from it confirms it. */
  async setup(userId: number, password: string, ip: string): Promise<{ secret: string; otpauthUri: string }> {
    const row = await this.user(userId);
    await checkCurrentPassword(this.throttle, row, password, ip, this.now());
    if (row.mfa_enabled === 1) throw conflict('MFA is already enabled');
    const secret = newTotpSecret();
    await this.repo.setPendingSecret(userId, this.box.seal(secret, userId));
    return { secret, otpauthUri: otpauthUri(secret, row.username) };
  }

  /** Step 2: a code from the pending secret switches MFA on; the ten recovery codes are returned this once. */
  async enable(userId: number, code: string, ip: string): Promise<{ user: User; recoveryCodes: string[] }> {
    const row = await this.user(userId);
    if (row.mfa_enabled === 1) throw conflict('MFA is already enabled');
    const pending = row.mfa_pending_secret;
    if (pending === null) throw conflict('Start the MFA set-up first');
    const secret = this.box.open(pending, userId);
    const step = await this.throttled(userId, ip, async () => matchTotp(secret, code, this.now()));
    if (step === null) throw forbidden(MESSAGES.invalidCode);
    const recoveryCodes = newRecoveryCodes();
    const enabled = await this.repo.transaction(async (repo) => {
      if (!(await repo.enable(userId, pending, step))) return false;
      await repo.replaceRecoveryCodes(userId, this.hashCodes(recoveryCodes));
      return true;
    });
    if (!enabled) throw conflict('The MFA set-up changed meanwhile; start it again');
    return { user: toUser(await this.user(userId)), recoveryCodes };
  }

  /** New recovery codes for an account with MFA on, with the password and a code; the old ones stop working. */
  async regenerateRecoveryCodes(userId: number, password: string, code: string, ip: string) {
    const row = await this.user(userId);
    await checkCurrentPassword(this.throttle, row, password, ip, this.now());
    if (row.mfa_enabled !== 1) throw conflict('MFA is not enabled');
    if (!(await this.checkCode(row, code, ip))) throw forbidden(MESSAGES.invalidCode);
    const recoveryCodes = newRecoveryCodes();
    await this.repo.transaction((repo) => repo.replaceRecoveryCodes(userId, this.hashCodes(recoveryCodes)));
    return { recoveryCodes };
  }

  async status(userId: number) {
    const row = await this.user(userId);
    return {
      mfaEnabled: row.mfa_enabled === 1,
      recoveryCodesLeft: row.mfa_enabled === 1 ? await this.repo.countUnusedRecoveryCodes(userId) : 0,
    };
  }

  /**
   * Whether `code` is a valid TOTP code or an unused recovery code of this account with MFA on, spending it
   * if so: a TOTP code's time step, and every earlier one, is not accepted again; a recovery code works once.
   * Failures are throttled per account (and client IP) like failed passwords; 429 once over the limit.
   */
  async checkCode(row: UserRow, code: string, ip: string): Promise<boolean> {
    if (row.mfa_secret === null) return false;
    const secret = this.box.open(row.mfa_secret, row.id);
    return this.throttled(row.id, ip, async () => {
      const now = this.now();
      const step = matchTotp(secret, code, now);
      if (step !== null) return (await this.repo.consumeStep(row.id, step)) || null;
      const recovery = normalizeRecoveryCode(code);
      if (recovery === null) return null;
      return (await this.repo.useRecoveryCode(row.id, this.box.digest(recovery), now)) || null;
    }).then((result) => result !== null);
  }

  /** The password was right for an account with MFA on: a short-lived, single-use challenge for the code step. */
  async startChallenge(userId: number): Promise<MfaChallenge> {
    const challenge = newOpaqueToken();
    await this.repo.insertChallenge({
      user_id: userId,
      token_hash: sha256(challenge),
      expires_at: this.now() + CHALLENGE_TTL,
    });
    return { mfaRequired: true, challenge, expiresIn: CHALLENGE_TTL / 1000 };
  }

  /**
   * The code step of a sign-in: the account whose challenge this is, once its code checks out. A wrong code
   * leaves the challenge usable until it expires (a typo does not restart the sign-in); success spends it.
   */
  async redeemChallenge(challenge: string, code: string, ip: string): Promise<UserRow> {
    const stored = await this.repo.findChallenge(sha256(challenge));
    if (!stored || stored.used_at !== null || stored.expires_at <= this.now())
      throw unauthorized(CHALLENGE_INVALID, 'MFA_CHALLENGE_EXPIRED');
    const row = await this.user(stored.user_id);
    if (!(await this.checkCode(row, code, ip)))
      throw unauthorized(`Unauthorized: ${MESSAGES.invalidCode.toLowerCase()}`, 'INVALID_MFA_CODE');
    if (!(await this.repo.useChallenge(stored.id, this.now())))
      throw unauthorized(CHALLENGE_INVALID, 'MFA_CHALLENGE_EXPIRED');
    return row;
  }

  /** Runs one code check under the failed-code throttle: a non-null result is a success and clears the count. */
  private async throttled<T>(userId: number, ip: string, check: () => Promise<T | null>): Promise<T | null> {
    const keys = codeKeys(userId, ip);
    const reservation = await reserveAttempt(
      this.throttle,
      [keys.account, keys.address],
      this.now(),
      'Too many failed authentication codes.',
    );
    const result = await check();
    if (result !== null) {
      await this.throttle.deleteFailures(reservation);
      await this.throttle.clearFailures(keys.account.key);
    }
    return result;
  }

  private hashCodes(codes: string[]): string[] {
    return codes.map((code) => this.box.digest(normalizeRecoveryCode(code) ?? code));
  }
}
