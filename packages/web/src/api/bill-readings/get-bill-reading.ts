import type { BillReading } from '@billfold/contract/bill-readings';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

/** How often a reading still running is asked for. */
const POLL_MS = 1000;

/** `GET /bill-readings/{readingId}`: a reading's progress, then what was read. */
export function getBillReading(id: string): Promise<Outcome<BillReading>> {
  return attempt<BillReading>('GET', `/bill-readings/${encodeURIComponent(id)}`);
}

/** The reading `id` (none for null), asked for again every second while it is still `reading`. */
export function useBillReading(id: string | null) {
  return useQuery({
    queryKey: ['bill-readings', id],
    queryFn: async () => dataOf(await getBillReading(id ?? '')),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data?.state === 'reading' ? POLL_MS : false),
  });
}
