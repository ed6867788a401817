import type { Forecast } from '@billfold/contract/forecast';
import { useQuery } from '@tanstack/react-query';
import { todayIso } from '../../lib/dates.ts';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

/** `GET /forecast?months=N` as of the browser's own date. */
export function getForecast(months: number): Promise<Outcome<Forecast>> {
  return attempt<Forecast>('GET', '/forecast', { query: { months: String(months), today: todayIso() } });
}

/** A failed load is the query's error: the card says it could not be loaded. */
export function useForecast(months: number, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['forecast', months, todayIso()],
    queryFn: async () => dataOf(await getForecast(months)),
    enabled: options.enabled ?? true,
  });
}
