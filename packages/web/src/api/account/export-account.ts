import type { AccountFile } from '@billfold/contract/account-file';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../client.ts';
import { saveTextFile } from '../invoices/export-invoices.ts';

/** The name the server gives the download (`billfold-account-YYYY-MM-DD.json`, UTC date). */
export function accountFileName(now = new Date()): string {
  return `billfold-account-${now.toISOString().slice(0, 10)}.json`;
}

/** `GET /account/export`: everything of the signed-in user as one JSON file, saved as a download. */
export function useExportAccount() {
  return useMutation({
    mutationFn: async () => {
      const file = await apiRequest<AccountFile>('GET', '/account/export');
      saveTextFile(`${JSON.stringify(file, null, 2)}\n`, accountFileName(), 'application/json');
      return file;
    },
    onError: (error) => console.error('[api] GET /account/export failed', error),
  });
}
