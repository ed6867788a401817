import type { AccountFile } from '@billfold/contract/account-file';
import { useMutation } from '@tanstack/react-query';
import { saveTextFile } from '../../lib/save-file.ts';
import { attempt, type Outcome } from '../outcome.ts';

/** The name the server gives the download (`billfold-account-YYYY-MM-DD.json`, UTC date). */
export function accountFileName(now = new Date()): string {
  return `billfold-account-${now.toISOString().slice(0, 10)}.json`;
}

/** `GET /account/export`: everything of the signed-in user as one JSON file. */
export function exportAccount(): Promise<Outcome<AccountFile>> {
  return attempt<AccountFile>('GET', '/account/export');
}

/** Fetches the file and saves it as a download; the outcome says whether it came. */
export function useExportAccount() {
  return useMutation({
    mutationFn: async () => {
      const outcome = await exportAccount();
      if (outcome.ok) saveTextFile(`${JSON.stringify(outcome.data, null, 2)}\n`, accountFileName(), 'application/json');
      return outcome;
    },
  });
}
