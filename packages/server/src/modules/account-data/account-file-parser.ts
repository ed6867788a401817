import { Worker } from 'node:worker_threads';
import { type AccountFile, accountFile } from '@billfold/contract/account-file';
import type { ErrorCode } from '@billfold/contract/error-codes';
import { HttpError } from '../../lib/http-error.ts';
import { nextTurn } from '../../lib/turns.ts';
import { summarize } from '../../lib/validation-summary.ts';
import { workerStart } from '../../lib/worker-url.ts';
import { parseJsonBody } from '../../plugins/body.ts';

/** Files up to this size are parsed where they arrive (milliseconds); larger ones in a worker thread. */
export const WORKER_MIN_BYTES = 1024 * 1024;
/** Invoices or payments per message from the worker: each arrives in its own turn of the event loop. */
const MESSAGE_ITEMS = 2_000;

/**
 * The bytes of an account file as the current version (the contract's `accountFile` upgrades older ones), or the
 * 400 the route answers: not UTF-8, not JSON, a forbidden key, or what the schema refuses (its message, as every
 * route's validation words it). Synchronous and pure: it runs in the worker for large files.
 */
export function checkAccountFile(bytes: Uint8Array): AccountFile {
  const json = parseJsonBody(bytes);
  if (json === undefined)
    throw new HttpError(400, 'The request body is empty: send the account file.', {}, 'INVALID_FILE');
  const parsed = accountFile.safeParse(json);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({
    instancePath: `/${issue.path.join('/')}`,
    message: issue.message,
  }));
  throw new HttpError(400, summarize('body', issues), {}, 'VALIDATION_FAILED');
}

/** What the worker posts: the file's head, then its invoices and payments in parts, then `done` (or an error). */
export type WorkerMessage =
  | { head: Omit<AccountFile, 'invoices' | 'payments'> }
  | { invoices: AccountFile['invoices'] }
  | { payments: AccountFile['payments'] }
  | { done: true }
  | { error: { statusCode: number; message: string; code: ErrorCode } };

/** The worker's side: parse, check, and post the file back in parts (account-file.worker.ts). */
export function* fileMessages(bytes: Uint8Array): Generator<WorkerMessage> {
  let file: AccountFile;
  try {
    file = checkAccountFile(bytes);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    yield { error: { statusCode: err.statusCode, message: err.message, code: err.code } };
    return;
  }
  const { invoices, payments, ...head } = file;
  yield { head };
  for (let i = 0; i < invoices.length; i += MESSAGE_ITEMS) yield { invoices: invoices.slice(i, i + MESSAGE_ITEMS) };
  for (let i = 0; i < payments.length; i += MESSAGE_ITEMS) yield { payments: payments.slice(i, i + MESSAGE_ITEMS) };
  yield { done: true };
}

const WORKER = workerStart(new URL('./account-file.worker.ts', import.meta.url));

/**
 * Parses an account file off the event loop (docs/decisions/0706-limits-and-fairness.md): a large file goes to a
 * worker thread of its own, which decodes, parses and checks it, then posts it back in parts of 2,000 items, one
 * after this thread has taken the last (account-file.worker.ts); each part is its own turn of this event loop, so other requests are answered while a 128 MiB file is read.
 * The worker ends with the parse, and its memory with it.
 */
export async function parseAccountFile(bytes: Uint8Array): Promise<AccountFile> {
  if (bytes.length < WORKER_MIN_BYTES) {
    await nextTurn();
    return checkAccountFile(bytes);
  }
  const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const data = owned ? bytes : bytes.slice();
  const worker = new Worker(WORKER.entry, {
    workerData: { ...WORKER.workerData, bytes: data },
    transferList: [data.buffer as ArrayBuffer],
  });
  return new Promise<AccountFile>((resolve, reject) => {
    let head: Omit<AccountFile, 'invoices' | 'payments'> | null = null;
    const invoices: AccountFile['invoices'] = [];
    const payments: AccountFile['payments'] = [];
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      void worker.terminate();
    };
    worker.on('message', (message: WorkerMessage) => {
      if ('error' in message)
        settle(() => reject(new HttpError(message.error.statusCode, message.error.message, {}, message.error.code)));
      else if ('head' in message) head = message.head;
      else if ('invoices' in message) for (const item of message.invoices) invoices.push(item);
      else if ('payments' in message) for (const item of message.payments) payments.push(item);
      if ('head' in message || 'invoices' in message || 'payments' in message) {
        // The next part comes in a later turn of this thread's event loop.
        setImmediate(() => worker.postMessage('next'));
      } else if ('done' in message && head) {
        const file: AccountFile = { ...head, invoices, payments };
        settle(() => resolve(file));
      }
    });
    worker.on('error', (err) => settle(() => reject(err)));
    worker.on('exit', (code) => settle(() => reject(new Error(`the account file worker stopped (exit ${code})`))));
  });
}
