import type { DueSummary } from '@billfold/contract/due';
import { useQuery } from '@tanstack/react-query';
import { todayIso } from '../../lib/dates.ts';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

export const dueSummaryQueryKey = (today: string) => ['entries', 'due-summary', today] as const;

/** `GET /entries/due-summary` as of the user's own date `today`. */
export function getDueSummary(today: string): Promise<Outcome<DueSummary>> {
  return attempt<DueSummary>('GET', '/entries/due-summary', { query: { today } });
}

/**
 * The Home panel and the top bar's overdue badge share it. A failed load is the query's error; both then show
 * nothing rather than a wrong count.
 */
export function useDueSummary(options: { enabled?: boolean } = {}) {
  const today = todayIso();
  return useQuery({
    queryKey: dueSummaryQueryKey(today),
    queryFn: async () => dataOf(await getDueSummary(today)),
    enabled: options.enabled ?? true,
  });
}
