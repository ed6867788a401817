import type { LedgerList } from '@billfold/contract/ledgers';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';
import { ledgersQueryKey } from './ledger-queries.ts';

/** `GET /ledgers`: every ledger the user is a member of, with their role; the personal one first. */
export function listLedgers(): Promise<Outcome<LedgerList>> {
  return attempt<LedgerList>('GET', '/ledgers', { ledger: false });
}

/** The query of the list, also for reading it afresh before switching to a ledger just joined or created. */
export const ledgersQuery = {
  queryKey: ledgersQueryKey,
  queryFn: async () => dataOf(await listLedgers()).ledgers,
};

/** The user's ledgers (the top bar's switcher, the Ledgers page); only while signed in. */
export function useLedgers(options: { enabled?: boolean } = {}) {
  return useQuery({ ...ledgersQuery, enabled: options.enabled ?? true });
}
