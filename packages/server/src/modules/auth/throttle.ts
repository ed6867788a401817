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

export async function assertNotThrottled(repo: AuthRepository, keys: { user: string; ip: string }, now: number) {
  let retryAt = 0;
  for (const kind of ['user', 'ip'] as const) {
    const limit = LIMITS[kind];
    const failures = await repo.recentFailures(keys[kind], now - THROTTLE_WINDOW, limit);
    const oldestCounted = failures[limit - 1];
    if (oldestCounted) retryAt = Math.max(retryAt, oldestCounted.at + THROTTLE_WINDOW);
  }
  if (retryAt > now) throw tooManyRequests(Math.max(1, Math.ceil((retryAt - now) / 1000)));
}
