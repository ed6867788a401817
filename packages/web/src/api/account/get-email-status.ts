/** The Account page's address and whether it is verified (docs/decisions/1131-verified-addresses.md). */
import type { EmailStatus } from '@billfold/contract/email-verification';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

/** Not under `['user', …]`: that prefix is followed by usernames (`userQueryKey`). */
export const emailStatusQueryKey = ['account-email'] as const;

/** `GET /account/email`: the address, verified or not, whether the server can send mail, when a link was sent. */
export function getEmailStatus(): Promise<Outcome<EmailStatus>> {
  return attempt<EmailStatus>('GET', '/account/email');
}

export function useEmailStatus() {
  return useQuery({ queryKey: emailStatusQueryKey, queryFn: async () => dataOf(await getEmailStatus()) });
}
