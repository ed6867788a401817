import { tooManyRequests } from '../../lib/http-error.ts';
import { MINUTE } from '../../lib/time.ts';
import type { AuthRepository } from './auth.repository.ts';

/**
 * Failed-login throttling kept in the database, so every server process sees the same counts.
 * A key that reached its limit is refused before any password is checked, and frees itself once the
 * oldest counted failure leaves the window: it slows guessing without locking anyone out for good.
 */
export const THROTTLE_WINDOW = 15 * MINUTE;
export const LIMITS = { user: 10, ip: 50 } as const;

export function throttleKeys(loginKey: string, ip: string) {
  return { user: `user:${loginKey}`, ip: `ip:${ip}` };
}

/** When the keys may next be tried: `limit` failures in the window hold a key until the oldest of them leaves it. */
async function retryAt(repo: AuthRepository, keys: { user: string; ip: string }, now: number, extra: number) {
  let at = 0;
  for (const kind of ['user', 'ip'] as const) {
    const limit = LIMITS[kind] + extra;
    const failures = await repo.recentFailures(keys[kind], now - THROTTLE_WINDOW, limit);
    const oldestCounted = failures[limit - 1];
    if (oldestCounted) at = Math.max(at, oldestCounted.at + THROTTLE_WINDOW);
  }
  return at;
}

const refuse = (retry: number, now: number) => tooManyRequests(Math.max(1, Math.ceil((retry - now) / 1000)));

export async function assertNotThrottled(repo: AuthRepository, keys: { user: string; ip: string }, now: number) {
  const retry = await retryAt(repo, keys, now, 0);
  if (retry > now) throw refuse(retry, now);
}

/**
 * Counts the attempt as a failure BEFORE its password is checked, then counts again with it included. A check
 * made before recording would let any number of concurrent attempts pass it together; this way, of attempts
 * arriving at once (in any number of processes), at most the limit see themselves within it. A refused attempt
 * withdraws its reservation; a failed one keeps it as its recorded failure; the caller withdraws it on success.
 */
export async function reserveAttempt(
  repo: AuthRepository,
  keys: { user: string; ip: string },
  now: number,
): Promise<number[]> {
  await assertNotThrottled(repo, keys, now);
  const reservation = await repo.recordFailures([keys.user, keys.ip], now);
  const retry = await retryAt(repo, keys, now, 1);
  if (retry > now) {
    await repo.deleteFailures(reservation);
    throw refuse(retry, now);
  }
  return reservation;
}
