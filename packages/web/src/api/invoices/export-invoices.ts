import { useMutation } from '@tanstack/react-query';
import { saveTextFile } from '../../lib/save-file.ts';
import { attempt, type Outcome } from '../outcome.ts';
import { type EntryFilterParams, type EntrySortParams, toEntryQuery } from './list-invoices.ts';

export type ExportParams = EntryFilterParams & EntrySortParams;

/** The name the server gives the download (`billfold-invoices-YYYY-MM-DD.csv`, UTC date). */
export function exportFileName(now = new Date()): string {
  return `billfold-invoices-${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * `GET /entries/export`: the CSV text of every invoice matching the filters, in list order. A plain link cannot
 * carry the bearer token, so the file is fetched here (with the client's one refresh on 401) and saved from a Blob.
 */
export function exportInvoices(params: ExportParams): Promise<Outcome<string>> {
  return attempt<string>('GET', '/entries/export', { query: toEntryQuery(params), text: true });
}

/** Export CSV: fetch, then download; `mutate(params)`. The outcome says whether the file came. */
export function useExportInvoices() {
  return useMutation({
    mutationFn: async (params: ExportParams) => {
      const outcome = await exportInvoices(params);
      if (outcome.ok) saveTextFile(outcome.data, exportFileName());
      return outcome;
    },
  });
}
