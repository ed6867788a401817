import type { LedgerMemberList } from '@billfold/contract/ledgers';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';
import { membersQueryKey } from './ledger-queries.ts';

/** `GET /ledgers/{id}/members`: who is in the ledger, with their roles (any member may read it). */
export function listMembers(ledgerId: number): Promise<Outcome<LedgerMemberList>> {
  return attempt<LedgerMemberList>('GET', `/ledgers/${ledgerId}/members`, { ledger: false });
}

export function useMembers(ledgerId: number) {
  return useQuery({
    queryKey: membersQueryKey(ledgerId),
    queryFn: async () => dataOf(await listMembers(ledgerId)).members,
  });
}
