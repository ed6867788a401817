import type { Attachment } from '@billfold/contract/attachments';
import { LEDGER_HEADER } from '@billfold/contract/ledger-basics';
import { useQueryClient } from '@tanstack/react-query';
import { ledgerHeaderValue } from '../../lib/ledger-choice.ts';
import {
  API_PREFIX,
  ApiError,
  checkLedgerRefusal,
  errorCode,
  type Observation,
  sendWithSession,
  serverMessage,
} from '../client.ts';
import { invalidateDomain } from '../invalidate.ts';
import { type Outcome, settle } from '../outcome.ts';
import { type AttachmentOwner, attachmentsPath } from './list-attachments.ts';

/**
 * `POST /entries/{id}/attachments` or `/payments/{id}/attachments` with the file as multipart `file`. The one call
 * that reports how much of its body has gone out, so it sends with XMLHttpRequest (fetch cannot tell); bearer,
 * ledger and the one refresh on 401 are the client's (`sendWithSession`), and it ends in an `Outcome` like every call.
 */
export function uploadAttachment(
  owner: AttachmentOwner,
  file: File,
  onProgress: (share: number) => void,
): Promise<Outcome<Attachment>> {
  return uploadFile<Attachment>(attachmentsPath(owner), file, onProgress);
}

/**
 * POSTs `file` as the multipart form's `file` to `path` (attachments, bill readings), reporting how much has gone
 * out; the answer's JSON, in an `Outcome`.
 */
export function uploadFile<T>(path: string, file: File, onProgress: (share: number) => void): Promise<Outcome<T>> {
  return settle('POST', path, send<T>(path, file, onProgress));
}

async function send<T>(path: string, file: File, onProgress: (share: number) => void): Promise<T> {
  const ledger = ledgerHeaderValue();
  const result = await sendWithSession((token) => post(path, file, token, ledger, onProgress));
  if (result.stage !== 'response') throw result.error;
  if (!result.ok) {
    checkLedgerRefusal(ledger, result.status, result.text);
    const message = serverMessage(result.text);
    throw new ApiError(
      result.status,
      message ?? `Upload failed with ${result.status}`,
      message,
      errorCode(result.text),
    );
  }
  return JSON.parse(result.text) as T;
}

function post(
  path: string,
  file: File,
  token: string | null,
  ledger: string | null,
  onProgress: (share: number) => void,
): Promise<Observation> {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open('POST', `${API_PREFIX}${path}`);
    request.setRequestHeader('accept', 'application/json');
    if (token) request.setRequestHeader('authorization', `Bearer ${token}`);
    if (ledger) request.setRequestHeader(LEDGER_HEADER, ledger);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onload = () =>
      resolve({
        stage: 'response',
        status: request.status,
        ok: request.status >= 200 && request.status < 300,
        text: request.responseText,
      });
    request.onerror = () => resolve({ stage: 'request', error: new Error('The upload did not reach the server') });
    const form = new FormData();
    form.append('file', file, file.name);
    request.send(form);
  });
}

/** The upload as a function of the page, which marks the domain's queries stale when a file was attached. */
export function useUploadAttachment() {
  const queryClient = useQueryClient();
  return async (owner: AttachmentOwner, file: File, onProgress: (share: number) => void) => {
    const outcome = await uploadAttachment(owner, file, onProgress);
    if (outcome.ok) void invalidateDomain(queryClient);
    return outcome;
  };
}
