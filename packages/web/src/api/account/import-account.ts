import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../client.ts';
import { invalidateDomain } from '../invalidate.ts';

export interface ImportSummary {
  entities: number;
  invoices: number;
  payments: number;
  schedules: number;
}

export const NOT_JSON = 'This file is not an account file: it is not valid JSON.';

/** `POST /account/import`: the chosen file's content, loaded into the (empty) account all or nothing. */
export async function importAccount(file: Blob): Promise<ImportSummary> {
  let body: unknown;
  try {
    body = JSON.parse(await file.text());
  } catch {
    throw new ApiError(400, NOT_JSON, NOT_JSON);
  }
  return apiRequest<ImportSummary>('POST', '/account/import', { body });
}

export function useImportAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importAccount,
    onSuccess: () => invalidateDomain(queryClient),
    onError: (error) => console.error('[api] POST /account/import failed', error),
  });
}
