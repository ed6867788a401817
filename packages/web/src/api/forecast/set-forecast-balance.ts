import type { ForecastBalanceBody } from '@billfold/contract/forecast';
import { useDomainWrite } from '../invalidate.ts';
import { attempt, type Outcome } from '../outcome.ts';

/** `PUT /forecast/balance`: the ledger's starting balance for the forecast, or null for none. */
export function setForecastBalance(body: ForecastBalanceBody): Promise<Outcome<{ balance: number | null }>> {
  return attempt<{ balance: number | null }>('PUT', '/forecast/balance', { body });
}

export function useSetForecastBalance() {
  return useDomainWrite(setForecastBalance);
}
