import type { AccountImportSummary } from '@billfold/contract/account-file';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../client.ts';
import { invalidateDomain } from '../invalidate.ts';
import { attempt, failure, type Outcome } from '../outcome.ts';

export const NOT_JSON = 'This file is not an account file: it is not valid JSON.';

/** `POST /account/import`: the chosen file's content, loaded into the (empty) account all or nothing. */
export async function importAccount(file: Blob): Promise<Outcome<AccountImportSummary>> {
  let body: unknown;
  try {
    body = JSON.parse(await file.text());
  } catch {
    return failure('POST', '/account/import', new ApiError(400, NOT_JSON, NOT_JSON));
  }
  return attempt<AccountImportSummary>('POST', '/account/import', { body });
}

export function useImportAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importAccount,
    // The answer comes back once the lists it changed have been read again.
    onSuccess: (outcome) => (outcome.ok ? invalidateDomain(queryClient) : undefined),
  });
}
