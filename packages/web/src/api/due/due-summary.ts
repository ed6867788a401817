import type { DueSummary } from '@billfold/contract/due';
import { useQuery } from '@tanstack/react-query';
import { todayIso } from '../../lib/dates.ts';
import { getOne } from '../client.ts';

export const dueSummaryQueryKey = (today: string) => ['entries', 'due-summary', today] as const;

/**
 * `GET /entries/due-summary` as of the user's own date: the Home panel and the top bar's overdue badge share it.
 * Null on any failure; both then show nothing rather than a wrong count.
 */
export function useDueSummary(options: { enabled?: boolean } = {}) {
  const today = todayIso();
  return useQuery({
    queryKey: dueSummaryQueryKey(today),
    queryFn: () => getOne<DueSummary>('/entries/due-summary', { today }),
    enabled: options.enabled ?? true,
  });
}
