import { useMutation } from '@tanstack/react-query';
import { ApiError, exchange, sendWithSession, serverMessage } from '../client.ts';
import { type EntryFilterParams, type EntrySortParams, toEntryQuery } from './list-invoices.ts';

export type ExportParams = EntryFilterParams & EntrySortParams;

/** The name the server gives the download (`billfold-invoices-YYYY-MM-DD.csv`, UTC date). */
export function exportFileName(now = new Date()): string {
  return `billfold-invoices-${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * `GET /entries/export`: the CSV text of every invoice matching the filters, in list order. A plain link cannot
 * carry the bearer token, so the file is fetched here (with the client's one refresh on 401) and saved from a Blob.
 * Rejects with `ApiError` when the server refuses.
 */
export async function exportInvoices(params: ExportParams): Promise<string> {
  const query = toEntryQuery(params);
  const result = await sendWithSession((token) => exchange('GET', '/entries/export', { query, token }));
  if (result.stage !== 'response') throw result.error;
  if (!result.ok) {
    const message = serverMessage(result.text);
    throw new ApiError(result.status, message ?? `GET /entries/export failed with ${result.status}`, message);
  }
  return result.text;
}

/** Hands `text` to the browser as a file download. */
export function saveTextFile(text: string, fileName: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the Blob after click() returns; let them.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Export CSV: fetch, then download; `mutate(params)`. Errors are logged and surface as `isError`. */
export function useExportInvoices() {
  return useMutation({
    mutationFn: async (params: ExportParams) => {
      const text = await exportInvoices(params);
      saveTextFile(text, exportFileName());
    },
    onError: (error) => console.error('[api] GET /entries/export failed', error),
  });
}
