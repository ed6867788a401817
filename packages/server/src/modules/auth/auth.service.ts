import { randomUUID } from 'node:crypto';
import type { AuthResponse, CreateUserBody, LoginBody } from '@billfold/contract/schemas';
import { conflict, unauthorized } from '../../lib/http-error.ts';
import { burnVerification, hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { DAY } from '../../lib/time.ts';
import { newOpaqueToken, sha256 } from '../../lib/tokens.ts';
import type { AuthRepository } from './auth.repository.ts';
import { reserveAttempt, throttleKeys } from './throttle.ts';

export const REFRESH_TOKEN_TTL = 14 * DAY;
export const LOGIN_FAILED = 'Unauthorized: invalid username or password';

export class AuthService {
  constructor(
    private readonly repo: AuthRepository,
    private readonly signAccessToken: (userId: number) => string,
    private readonly now: () => number,
  ) {}

  async create(body: CreateUserBody) {
    const usernameKey = body.username.toLowerCase();
    const emailKey = body.email.toLowerCase();
    const taken = await this.repo.usernameOrEmailTaken(usernameKey, emailKey);
    if (taken.username) throw conflict('Username already exists');
    if (taken.email) throw conflict('Email already registered');
    const passwordHash = await hashPassword(body.password);
    try {
      const user = await this.repo.insertUser({
        username: body.username,
        username_key: usernameKey,
        email: body.email,
        email_key: emailKey,
        password_hash: passwordHash,
        created_at: this.now(),
      });
      return { username: user.username, email: user.email };
    } catch (err) {
      // Lost a race with a concurrent sign-up of the same name or email.
      const again = await this.repo.usernameOrEmailTaken(usernameKey, emailKey);
      if (again.username) throw conflict('Username already exists');
      if (again.email) throw conflict('Email already registered');
      throw err;
    }
  }

  async login(body: LoginBody, ip: string): Promise<AuthResponse> {
    const loginKey = body.username.toLowerCase();
    const keys = throttleKeys(loginKey, ip);
    const now = this.now();
    // Recorded as a failure before the check, so concurrent guesses cannot all slip under the limit.
    const reservation = await reserveAttempt(this.repo, keys, now);
    const user = await this.repo.findUserByLogin(loginKey);
    let ok = false;
    if (user) ok = await verifyPassword(user.password_hash, body.password);
    else await burnVerification(body.password);
    if (!user || !ok) throw unauthorized(LOGIN_FAILED);
    await this.repo.deleteFailures(reservation);
    await this.repo.clearFailures(keys.user);
    // A login within the 30-day grace period reactivates a deactivated account.
    await this.repo.recordLogin(user.id, now);
    return this.issueTokens(user.id, user.username, randomUUID());
  }

  async refresh(token: string): Promise<AuthResponse> {
    const now = this.now();
    const stored = await this.repo.findRefreshToken(sha256(token));
    if (!stored || stored.revoked_at !== null || stored.expires_at <= now) {
      throw unauthorized('Unauthorized: invalid or expired refresh token');
    }
    // A token presented twice means it leaked: the whole family dies, the thief's copy and the user's alike.
    if (stored.used_at !== null || !(await this.repo.markRefreshTokenUsed(stored.id, now))) {
      await this.repo.revokeFamily(stored.family_id, now);
      throw unauthorized('Unauthorized: refresh token already used');
    }
    const user = await this.repo.findUserById(stored.user_id);
    if (!user || user.deactivated_at !== null) throw unauthorized('Unauthorized: account not active');
    return this.issueTokens(user.id, user.username, stored.family_id);
  }

  private async issueTokens(userId: number, username: string, familyId: string): Promise<AuthResponse> {
    const refreshToken = newOpaqueToken();
    const now = this.now();
    await this.repo.insertRefreshToken({
      user_id: userId,
      family_id: familyId,
      token_hash: sha256(refreshToken),
      created_at: now,
      expires_at: now + REFRESH_TOKEN_TTL,
    });
    return { accessToken: this.signAccessToken(userId), refreshToken, username };
  }
}
