import type { ColumnMapping, CommitEvent, ImportSummary } from '@billfold/contract/imports';
import { LEDGER_HEADER } from '@billfold/contract/ledger-basics';
import { ledgerHeaderValue } from '../../lib/ledger-choice.ts';
import { readSession } from '../../lib/session.ts';
import {
  API_PREFIX,
  ApiError,
  checkLedgerRefusal,
  endSession,
  errorCode,
  refreshSession,
  serverMessage,
} from '../client.ts';
import { type Outcome, settle } from '../outcome.ts';
import { importForm } from './preview-import.ts';

/**
 * `POST /imports`: imports the file in one transaction. The server answers a refusal as JSON, and an accepted file
 * as NDJSON lines (`{progress}` while writing, then `{result}` or `{error}`), read here as they arrive so the page
 * can show a progress bar. One token refresh on 401, as every call. The one call that reads its answer as a stream,
 * so it sends with `fetch` itself; it ends like every other, in an `Outcome`.
 */
export function commitImport(
  file: File,
  mapping: ColumnMapping | null,
  keep: readonly number[],
  onProgress: (share: number) => void,
): Promise<Outcome<ImportSummary>> {
  return settle('POST', '/imports', streamImport(file, mapping, keep, onProgress));
}

async function streamImport(
  file: File,
  mapping: ColumnMapping | null,
  keep: readonly number[],
  onProgress: (share: number) => void,
): Promise<ImportSummary> {
  const ledger = ledgerHeaderValue();
  let used = readSession();
  const send = () =>
    fetch(`${API_PREFIX}/imports`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${used?.accessToken ?? ''}`,
        ...(ledger ? { [LEDGER_HEADER]: ledger } : {}),
      },
      body: importForm(file, mapping, keep),
    });
  let response = await send();
  if (response.status === 401) {
    if (!(await refreshSession(used))) {
      endSession();
      throw new ApiError(401, 'Session expired');
    }
    used = readSession();
    response = await send();
  }
  if (!response.ok || !response.body) {
    const text = await response.text();
    checkLedgerRefusal(ledger, response.status, text);
    const message = serverMessage(text);
    throw new ApiError(
      response.status,
      message ?? `POST /imports failed with ${response.status}`,
      message,
      errorCode(text),
    );
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    buffer += value ?? '';
    const lines = buffer.split('\n');
    buffer = done ? '' : (lines.pop() ?? '');
    for (const line of lines) {
      if (!line.trim()) continue;
      const event = JSON.parse(line) as CommitEvent;
      if ('progress' in event) onProgress(event.progress);
      else if ('result' in event) return event.result;
      else throw new ApiError(500, event.error, event.error);
    }
    if (done) throw new ApiError(500, 'The import was cut off; nothing was imported.');
  }
}
