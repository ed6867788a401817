import type { ErrorCode } from '@billfold/contract/error-codes';
import { forbidden, tooManyRequests } from '../../lib/http-error.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { THROTTLE_WINDOW } from '../../lib/retention.ts';
import type { AuthRepository } from './auth.repository.ts';

/**
 * Throttling kept in the database, so every server process sees the same counts. Each counted attempt is a
 * row under a key; a key that holds its limit of rows within the window is refused before any work is done,
 * and frees itself once the oldest counted row leaves the window: it slows guessing and flooding without
 * locking anyone out for good. The window is `THROTTLE_WINDOW` (`lib/retention.ts`), which the purge job reads too.
 *
 * Attempts each key allows in any 15-minute window.
 */
export const LIMITS = {
  /** Failed sign-ins of one account, by username or email in any letter case. */
  account: 10,
  /**
   * Failed authentication codes (MFA) of one account, counted apart from its failed passwords: a right password
   * clears those, and must not clear these, or guesses could alternate the two (ADR 0720).
   */
  accountCodes: 10,
  /** Failed sign-ins (passwords and codes) from one client address, whatever the names tried. */
  loginAddress: 50,
  /** Accounts created from one client address (each costs a password hash). */
  signUpAddress: 50,
  /** Refreshes from one client address (the original client sends five per expiry and tab). */
  refreshAddress: 600,
  /** Verification mails one account asks for again ("Send again" on the Account page). */
  verificationMails: 3,
  /**
   * Address changes of one account: a taken address is refused (409), so each change could ask whether an
   * address has an account; this keeps that as slow as signing up (docs/decisions/1131-verified-addresses.md).
   */
  emailChanges: 10,
  /** Password links asked for one address, as typed (docs/decisions/0723-password-reset.md). */
  resetMails: 3,
  /** Password links asked for from one client address, whatever the addresses. */
  resetAddress: 10,
  /**
   * Notices to one address that someone tried to sign up with it through the identity provider: each costs the
   * one trying only a trip through the provider, so more would be mail-bombing (docs/decisions/0722-openid-connect-sign-in.md).
   */
  providerNotices: 3,
} as const;

export interface ThrottleKey {
  key: string;
  limit: number;
}

/**
 * The keys of a sign-in: the account when the name is one (its username and its email share the counter) or
 * else the name as typed, lower-cased, so an unknown name is throttled exactly like a known one; and the
 * client address.
 */
export function loginKeys(account: { userId: number } | { loginKey: string }, ip: string) {
  const who = 'userId' in account ? `account:${account.userId}` : `login:${account.loginKey}`;
  return {
    account: { key: who, limit: LIMITS.account },
    address: { key: `ip:${ip}`, limit: LIMITS.loginAddress },
  };
}

/** The keys of a code check: the account's code counter and the client address (shared with failed passwords). */
export function codeKeys(userId: number, ip: string) {
  return {
    account: { key: `mfa:${userId}`, limit: LIMITS.accountCodes },
    address: { key: `ip:${ip}`, limit: LIMITS.loginAddress },
  };
}

export const signUpKey = (ip: string): ThrottleKey => ({ key: `signup:${ip}`, limit: LIMITS.signUpAddress });
export const refreshKey = (ip: string): ThrottleKey => ({ key: `refresh:${ip}`, limit: LIMITS.refreshAddress });
export const verificationMailKey = (userId: number): ThrottleKey => ({
  key: `verify-mail:${userId}`,
  limit: LIMITS.verificationMails,
});
export const emailChangeKey = (userId: number): ThrottleKey => ({
  key: `email-change:${userId}`,
  limit: LIMITS.emailChanges,
});

export const resetMailKey = (emailKey: string): ThrottleKey => ({
  key: `reset-mail:${emailKey}`,
  limit: LIMITS.resetMails,
});
export const providerNoticeKey = (emailKey: string): ThrottleKey => ({
  key: `provider-notice:${emailKey}`,
  limit: LIMITS.providerNotices,
});
export const resetAddressKey = (ip: string): ThrottleKey => ({ key: `reset-ip:${ip}`, limit: LIMITS.resetAddress });

/** When the keys may next be tried: `limit` rows in the window hold a key until the oldest of them leaves it. */
async function retryAt(repo: AuthRepository, keys: ThrottleKey[], now: number, extra: number) {
  let at = 0;
  for (const { key, limit } of keys) {
    const rows = await repo.recentFailures(key, now - THROTTLE_WINDOW, limit + extra);
    const oldestCounted = rows[limit + extra - 1];
    if (oldestCounted) at = Math.max(at, oldestCounted.at + THROTTLE_WINDOW);
  }
  return at;
}

/** "in 40 seconds", "in 1 minute", "in 15 minutes": how long `Retry-After` says, in words. */
export function retryPhrase(seconds: number): string {
  if (seconds < 60) return `in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  const minutes = Math.ceil(seconds / 60);
  return `in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

function refuse(retry: number, now: number, reason: string, code?: ErrorCode) {
  const seconds = Math.max(1, Math.ceil((retry - now) / 1000));
  return tooManyRequests(seconds, `${reason} Try again ${retryPhrase(seconds)}.`, code);
}

/**
 * Counts the attempt under every key BEFORE the work it guards (a password check, a sign-up, a refresh), then
 * counts again with it included. A check made before recording would let any number of concurrent attempts pass
 * it together; this way, of attempts arriving at once (in any number of processes), at most the limit see
 * themselves within it. A refused attempt withdraws its rows and is answered 429 with `reason` and when to
 * retry (and `code`, when the throttle has a code of its own). The caller keeps the rows (a failure, or any
 * sign-up or refresh) or withdraws them (a good sign-in).
 */
export async function reserveAttempt(
  repo: AuthRepository,
  keys: ThrottleKey[],
  now: number,
  reason: string,
  code?: ErrorCode,
): Promise<number[]> {
  const before = await retryAt(repo, keys, now, 0);
  if (before > now) throw refuse(before, now, reason, code);
  const reservation = await repo.recordFailures(
    keys.map((k) => k.key),
    now,
  );
  const retry = await retryAt(repo, keys, now, 1);
  if (retry > now) {
    await repo.deleteFailures(reservation);
    throw refuse(retry, now, reason, code);
  }
  return reservation;
}

/**
 * Every change to an account needs its current password (`PUT /user`, MFA set-up, new recovery codes). A wrong
 * one counts against the same keys as a failed sign-in: the same secret is being guessed, so the same limit holds
 * (docs/security.md), and a stolen access token is no way around it. A right one withdraws only its own count:
 * unlike a sign-in it proves nothing new (the caller already holds a session), so the failures stand until the
 * window passes. 403 (not 401, which tells a client to refresh) when wrong; 429 once over the limit.
 */
export async function checkCurrentPassword(
  repo: AuthRepository,
  account: { id: number; password_hash: string },
  password: string,
  ip: string,
  now: number,
): Promise<void> {
  const keys = loginKeys({ userId: account.id }, ip);
  const reservation = await reserveAttempt(repo, [keys.account, keys.address], now, 'Too many wrong passwords.');
  if (!(await verifyPassword(account.password_hash, password)))
    throw forbidden('Current password is incorrect', 'WRONG_PASSWORD');
  await repo.deleteFailures(reservation);
}
