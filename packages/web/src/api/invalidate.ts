import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Outcome } from './outcome.ts';

/**
 * After any write to entities, invoices or payments. One change reaches far (a payment changes its invoice's
 * status and balance, the lists, the stats; archiving an entity changes every one of its invoices), so every
 * cached domain query is marked stale; the account data (`['user', …]`) is the only thing a domain write cannot
 * change. Only the queries on screen refetch at once.
 */
export function invalidateDomain(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'user' });
}

/**
 * The hook of a write to entities, invoices, payments or schedules: `call` as a mutation whose success marks every
 * cached domain query stale (the screens on view refetch; the write does not wait for them).
 */
export function useDomainWrite<A, T>(call: (args: A) => Promise<Outcome<T>>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (outcome) => {
      if (outcome.ok) void invalidateDomain(queryClient);
    },
  });
}
