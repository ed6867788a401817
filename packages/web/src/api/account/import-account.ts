import type { AccountImportSummary } from '@billfold/contract/account-file';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateDomain } from '../invalidate.ts';
import { attempt, type Outcome } from '../outcome.ts';

export const NOT_A_LEDGER_FILE = 'This file is not an account file: it is neither JSON nor a Billfold .tar archive.';

/**
 * `POST /account/import`: the chosen file's bytes as they are (the server tells JSON from the ledger archive by
 * them), loaded into the (empty) account all or nothing.
 */
export async function importAccount(file: Blob): Promise<Outcome<AccountImportSummary>> {
  const outcome = await attempt<AccountImportSummary>('POST', '/account/import', { body: file });
  // Neither a tar archive nor JSON: the server says what the JSON parser stumbled on; the page says what it is.
  if (!outcome.ok && outcome.code === 'MALFORMED_JSON') return { ...outcome, message: NOT_A_LEDGER_FILE };
  return outcome;
}

export function useImportAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importAccount,
    // The answer comes back once the lists it changed have been read again.
    onSuccess: (outcome) => (outcome.ok ? invalidateDomain(queryClient) : undefined),
  });
}
