import { randomUUID } from 'node:crypto';
import type { AuthResponse, CreateUserBody, LoginBody, LoginResponse, MfaLoginBody } from '@billfold/contract/auth';
import type { UserRow } from '../../db/schema.ts';
import { conflict, forbidden, unauthorized } from '../../lib/http-error.ts';
import { burnVerification, hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { DAY } from '../../lib/time.ts';
import { newOpaqueToken, sha256 } from '../../lib/tokens.ts';
import type { EmailVerificationService } from '../email-verification/email-verification.service.ts';
import type { MfaService } from '../mfa/mfa.service.ts';
import type { AuthRepository } from './auth.repository.ts';
import { loginKeys, refreshKey, reserveAttempt, signUpKey } from './throttle.ts';

export const REFRESH_TOKEN_TTL = 14 * DAY;
export const LOGIN_FAILED = 'Unauthorized: invalid username or password';

export interface AuthOptions {
  signAccessToken: (user: { id: number; token_version: number }) => string;
  now: () => number;
  /** Seconds after its first use within which a refresh token may be presented again (REFRESH_REUSE_SECONDS). */
  refreshReuseSeconds: number;
  /** Whether username/password sign-in and sign-up are allowed (`PASSWORD_LOGIN`; ADR 0722). */
  passwordLogin?: boolean;
}

export const PASSWORD_LOGIN_OFF = 'Sign-in with a password is turned off on this server: use the identity provider.';

export class AuthService {
  constructor(
    private readonly repo: AuthRepository,
    private readonly mfa: MfaService,
    private readonly addresses: EmailVerificationService,
    private readonly options: AuthOptions,
  ) {}

  private now(): number {
    return this.options.now();
  }

  /**
   * A taken username is refused (409); a taken address is not: the answer, and the work before it, are those of
   * a new account, so sign-up never tells whether an address has one. No account is made then; the address's
   * owner is told by mail instead (docs/decisions/1131-verified-addresses.md). A new account's address is sent a
   * verification link at `appUrl`.
   */
  async create(body: CreateUserBody, ip: string, appUrl: string) {
    if (this.options.passwordLogin === false) throw forbidden(PASSWORD_LOGIN_OFF, 'PASSWORD_LOGIN_DISABLED');
    await reserveAttempt(this.repo, [signUpKey(ip)], this.now(), 'Too many accounts created from this address.');
    const usernameKey = body.username.toLowerCase();
    const emailKey = body.email.toLowerCase();
    const created = { username: body.username, email: body.email };
    const taken = await this.repo.usernameOrEmailTaken(usernameKey, emailKey);
    if (taken.username) throw conflict('Username already exists');
    // Hashed whether or not the account is made, so the time taken tells nothing either.
    const passwordHash = await hashPassword(body.password);
    if (taken.email) {
      await this.addresses.tellOwnerOfTakenAddress(emailKey, appUrl);
      return created;
    }
    let user: UserRow;
    try {
      user = await this.repo.insertUser({
        username: body.username,
        username_key: usernameKey,
        email: body.email,
        email_key: emailKey,
        password_hash: passwordHash,
        created_at: this.now(),
      });
    } catch (err) {
      // Lost a race with a concurrent sign-up of the same name or email.
      const again = await this.repo.usernameOrEmailTaken(usernameKey, emailKey);
      if (again.username) throw conflict('Username already exists');
      if (again.email) {
        await this.addresses.tellOwnerOfTakenAddress(emailKey, appUrl);
        return created;
      }
      throw err;
    }
    await this.addresses.sendLinkTo(user, appUrl, 'new');
    return created;
  }

  async login(body: LoginBody, ip: string): Promise<LoginResponse> {
    if (this.options.passwordLogin === false) throw forbidden(PASSWORD_LOGIN_OFF, 'PASSWORD_LOGIN_DISABLED');
    const loginKey = body.username.toLowerCase();
    const now = this.now();
    // The account is found first: its username and its email count against one throttle key.
    const user = await this.repo.findUserByLogin(loginKey);
    const keys = loginKeys(user ? { userId: user.id } : { loginKey }, ip);
    // Recorded as a failure before the check, so concurrent guesses cannot all slip under the limit.
    const reservation = await reserveAttempt(
      this.repo,
      [keys.account, keys.address],
      now,
      'Too many failed sign-in attempts.',
    );
    let ok = false;
    if (user) ok = await verifyPassword(user.password_hash, body.password);
    else await burnVerification(body.password);
    if (!user || !ok) throw unauthorized(LOGIN_FAILED, 'INVALID_CREDENTIALS');
    await this.repo.deleteFailures(reservation);
    await this.repo.clearFailures(keys.account.key);
    // With MFA the sign-in is not complete yet: no tokens, no "last login", no reactivation before the code.
    if (user.mfa_enabled === 1) return this.mfa.startChallenge(user.id);
    return this.completeLogin(user);
  }

  async completeMfaLogin(body: MfaLoginBody, ip: string): Promise<AuthResponse> {
    return this.completeLogin(await this.mfa.redeemChallenge(body.challenge, body.code, ip));
  }

  /**
   * The end of a sign-in at the identity provider (docs/decisions/0722-openid-connect-sign-in.md): the provider
   * stands in for the password step only, so an account with MFA on still gets the code step.
   */
  async completeProviderLogin(user: UserRow): Promise<LoginResponse> {
    if (user.mfa_enabled === 1) return this.mfa.startChallenge(user.id);
    return this.completeLogin(user);
  }

  private async completeLogin(user: { id: number; username: string; token_version: number }): Promise<AuthResponse> {
    // A login within the 30-day grace period reactivates a deactivated account.
    await this.repo.recordLogin(user.id, this.now());
    return this.issueTokens(user, randomUUID());
  }

  /**
   * Rotation with a reuse interval: the first use of a refresh token spends it; presenting it again within
   * `refreshReuseSeconds` of that (several requests or tabs refreshing at once) gets another pair of the same
   * family; presenting it later means it leaked, and the whole family dies, the thief's copy and the user's alike.
   */
  async refresh(token: string, ip: string): Promise<AuthResponse> {
    const now = this.now();
    await reserveAttempt(this.repo, [refreshKey(ip)], now, 'Too many session refreshes from this address.');
    const hash = sha256(token);
    const stored = await this.repo.findRefreshToken(hash);
    if (!stored || stored.revoked_at !== null || stored.expires_at <= now) {
      throw unauthorized('Unauthorized: invalid or expired refresh token');
    }
    if (stored.used_at !== null || !(await this.repo.markRefreshTokenUsed(stored.id, now))) {
      // Spent already (here, or a moment ago by a concurrent request in any process): read when.
      const spent = stored.used_at === null ? await this.repo.findRefreshToken(hash) : stored;
      if (!spent || spent.revoked_at !== null) throw unauthorized('Unauthorized: invalid or expired refresh token');
      if (spent.used_at === null || now - spent.used_at > this.options.refreshReuseSeconds * 1000) {
        await this.repo.revokeFamily(stored.family_id, now);
        throw unauthorized('Unauthorized: refresh token already used');
      }
    }
    const user = await this.repo.findUserById(stored.user_id);
    if (!user || user.deactivated_at !== null) throw unauthorized('Unauthorized: account not active');
    return this.issueTokens(user, stored.family_id);
  }

  private async issueTokens(
    user: { id: number; username: string; token_version: number },
    familyId: string,
  ): Promise<AuthResponse> {
    const refreshToken = newOpaqueToken();
    const now = this.now();
    await this.repo.insertRefreshToken({
      user_id: user.id,
      family_id: familyId,
      token_hash: sha256(refreshToken),
      created_at: now,
      expires_at: now + REFRESH_TOKEN_TTL,
    });
    return { accessToken: this.options.signAccessToken(user), refreshToken, username: user.username };
  }
}
