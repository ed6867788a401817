import { useMutation } from '@tanstack/react-query';
import { saveBlob } from '../../lib/save-file.ts';
import { getBlob } from '../blob.ts';
import type { Outcome } from '../outcome.ts';

/**
 * The name the server gives the download (`billfold-account-YYYY-MM-DD.json`, UTC date), `.tar` for the ledger
 * archive of a ledger with attached files (docs/decisions/1160-ledger-archive.md).
 */
export function accountFileName(kind: 'json' | 'tar', now = new Date()): string {
  return `billfold-account-${now.toISOString().slice(0, 10)}.${kind}`;
}

/** `GET /account/export`: the tab's ledger as one file, JSON or the ledger archive, told by its content type. */
export function exportAccount(): Promise<Outcome<Blob>> {
  return getBlob('/account/export');
}

/** Fetches the file and saves it as a download, byte for byte; the outcome says whether it came. */
export function useExportAccount() {
  return useMutation({
    mutationFn: async () => {
      const outcome = await exportAccount();
      if (outcome.ok) saveBlob(outcome.data, accountFileName(outcome.data.type.includes('x-tar') ? 'tar' : 'json'));
      return outcome;
    },
  });
}
