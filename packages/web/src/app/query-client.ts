import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client.ts';
import { readSession, subscribeSession } from '../lib/session.ts';

/** How many times a read refused as `BUSY` is asked again, and after how long (1 s, 2 s, 4 s). */
const BUSY_RETRIES = 3;
export const busyRetryDelay = (attempt: number): number => 1000 * 2 ** attempt;

/**
 * A read refused with 429 `BUSY` (the user's heavy requests are at `LIMIT_HEAVY_PER_USER`,
 * docs/decisions/0706-limits-and-fairness.md) is asked again: a slot comes back as soon as one of the others has
 * answered, and a user's other tab or an export running takes a slot while Home asks for its stats and trends after
 * every write. Every other failure is final.
 */
export function retryBusy(failureCount: number, error: unknown): boolean {
  return failureCount < BUSY_RETRIES && error instanceof ApiError && error.code === 'BUSY';
}

/**
 * A failed call is already logged and handed to the screen, which decides what it shows
 * (docs/product.md, Calls and failures; docs/decisions/1111-web-one-failure-path.md), so a retry would only
 * repeat it, except for a BUSY read (above); data stays fresh for 30 s, and writes invalidate what they change.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: retryBusy, retryDelay: busyRetryDelay, staleTime: 30_000, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

// One user's cached data must never be shown to the next one.
subscribeSession(() => {
  if (readSession() === null) queryClient.clear();
});
