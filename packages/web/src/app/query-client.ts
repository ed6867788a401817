import { QueryClient } from '@tanstack/react-query';
import { readSession, subscribeSession } from '../lib/session.ts';

/**
 * Fetchers already turn failures into empty lists or null (spec §7), so a retry would only repeat a logged
 * failure; data stays fresh for 30 s, and writes invalidate what they change.
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
