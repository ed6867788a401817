import { QueryClient } from '@tanstack/react-query';
import { readSession, subscribeSession } from '../lib/session.ts';

/**
 * A failed call is already logged and handed to the screen, which decides what it shows
 * (docs/product.md, Calls and failures; docs/decisions/1111-web-one-failure-path.md), so a retry would only
 * repeat it; data stays fresh for 30 s, and writes invalidate what they change.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, staleTime: 30_000, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

// One user's cached data must never be shown to the next one.
subscribeSession(() => {
  if (readSession() === null) queryClient.clear();
});
