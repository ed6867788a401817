import type { QueryClient } from '@tanstack/react-query';

/**
 * After any write to entities, invoices or payments. One change reaches far (a payment changes its invoice's
 * status and balance, the lists, the stats; archiving an entity changes every one of its invoices), so every
 * cached domain query is marked stale; the account data (`['user', …]`) is the only thing a domain write cannot
 * change. Only the queries on screen refetch at once.
 */
export function invalidateDomain(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'user' });
}
