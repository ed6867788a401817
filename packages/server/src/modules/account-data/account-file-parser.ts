import { Worker } from 'node:worker_threads';
import {
  type AccountFile,
  type AccountFileAttachment,
  type AccountFileCategory,
  type AccountFileEntity,
  type AccountFileInvoice,
  type AccountFilePayment,
  type AccountFileSchedule,
  accountFile,
} from '@billfold/contract/account-file';
import type { ErrorCode } from '@billfold/contract/error-codes';
import { toCents } from '@billfold/contract/money';
import { HttpError } from '../../lib/http-error.ts';
import { nextTurn } from '../../lib/turns.ts';
import { summarize } from '../../lib/validation-summary.ts';
import { workerStart } from '../../lib/worker-url.ts';
import { parseJsonBody } from '../../plugins/body.ts';

/** Files up to this size are parsed where they arrive (milliseconds); larger ones in a worker thread. */
export const WORKER_MIN_BYTES = 1024 * 1024;
/**
 * Items per part (entities, invoices, payments, schedules or occurrences): one message from the worker, written by
 * the import in a few multi-row INSERTs with a turn of the event loop between them.
 */
export const PART_ITEMS = 2_000;

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

/**
 * The items of a part point at each other by their position in the file's lists (`entity`, `invoice`, `payment`,
 * `schedule`: 0, 1, 2…), not by `ref`, so that the import keeps one number per written row (its new id, in a typed
 * array) instead of a map of the whole file. The checked file's references always resolve.
 */
export type PartInvoice = Omit<AccountFileInvoice, 'ref' | 'entity'> & {
  entity: number;
  /** The sum and count of its live payments, which the stored totals are derived from. */
  paidCents: number;
  paidCount: number;
};
export type PartPayment = Omit<AccountFilePayment, 'ref' | 'invoice'> & { invoice: number };
export type PartSchedule = Omit<AccountFileSchedule, 'ref' | 'entity' | 'occurrences'> & {
  entity: number;
  occurrenceCount: number;
};
export type PartOccurrence = Omit<AccountFileSchedule['occurrences'][number], 'invoice' | 'payment'> & {
  schedule: number;
  invoice: number | null;
  payment: number | null;
};

export type PartAttachment = Omit<AccountFileAttachment, 'invoice' | 'payment'> & {
  invoice: number | null;
  payment: number | null;
};

/** A file the attachments name, once however many name it: what the ledger archive must carry. */
export interface NamedFile {
  sha256: string;
  size: number;
  contentType: AccountFileAttachment['contentType'];
}

/** What the import writes, in this order: the head, then the lists a part at a time (docs/decisions/0901-account-file.md). */
export type AccountFilePart =
  | {
      head: {
        lastInvoiceNumber: number;
        categories: AccountFileCategory[];
        counts: {
          entities: number;
          invoices: number;
          payments: number;
          schedules: number;
          occurrences: number;
          attachments: number;
        };
        /** The files the attachments name, each once (docs/decisions/1160-ledger-archive.md). */
        files: NamedFile[];
        /** The attachments' sizes added up, as the ledger's quota counts them (a shared file once per attachment). */
        attachmentBytes: number;
      };
    }
  | { entities: Omit<AccountFileEntity, 'ref'>[] }
  | { invoices: PartInvoice[] }
  | { payments: PartPayment[] }
  | { schedules: PartSchedule[] }
  | { occurrences: PartOccurrence[] }
  | { attachments: PartAttachment[] };

/** What the worker posts: a part, the end, or the refusal of the file. */
export type WorkerMessage =
  | { part: AccountFilePart }
  | { done: true }
  | { error: { statusCode: number; message: string; code: ErrorCode } };

/** Positions by ref. */
function positions(items: readonly { ref: number }[]): Map<number, number> {
  const at = new Map<number, number>();
  items.forEach((item, i) => {
    at.set(item.ref, i);
  });
  return at;
}

function* inParts<T, U>(items: readonly T[], map: (item: T) => U): Generator<U[]> {
  for (let i = 0; i < items.length; i += PART_ITEMS) yield items.slice(i, i + PART_ITEMS).map(map);
}

/**
 * A checked file as the parts the import writes: the head (the counts, the categories and the files), then entities,
 * invoices, payments, schedules and their occurrences, attachments, at most `PART_ITEMS` items a part. Everything that needs
 * the whole file (the schema's references and uniqueness, each invoice's paid total) is settled before the first
 * part, so the import never meets a refusal in the middle.
 */
export function* partsOf(file: AccountFile): Generator<AccountFilePart> {
  const entityAt = positions(file.entities);
  const invoiceAt = positions(file.invoices);
  const paymentAt = positions(file.payments);
  const paid = { cents: new Float64Array(file.invoices.length), count: new Uint32Array(file.invoices.length) };
  for (const p of file.payments) {
    if (p.deletedAt !== null) continue;
    const i = invoiceAt.get(p.invoice) as number;
    paid.cents[i] = (paid.cents[i] as number) + (toCents(p.amount) as number);
    paid.count[i] = (paid.count[i] as number) + 1;
  }
  const occurrences = file.schedules.reduce((n, s) => n + s.occurrences.length, 0);
  const files = new Map<string, NamedFile>();
  let attachmentBytes = 0;
  for (const { sha256, size, contentType } of file.attachments) {
    files.set(sha256, { sha256, size, contentType });
    attachmentBytes += size;
  }
  yield {
    head: {
      lastInvoiceNumber: file.lastInvoiceNumber,
      categories: file.categories,
      counts: {
        entities: file.entities.length,
        invoices: file.invoices.length,
        payments: file.payments.length,
        schedules: file.schedules.length,
        occurrences,
        attachments: file.attachments.length,
      },
      files: [...files.values()],
      attachmentBytes,
    },
  };
  for (const entities of inParts(file.entities, ({ ref: _, ...e }) => e)) yield { entities };
  let index = 0;
  for (const invoices of inParts(file.invoices, ({ ref: _, entity, ...inv }) => {
    const i = index++;
    return {
      ...inv,
      entity: entityAt.get(entity) as number,
      paidCents: paid.cents[i] as number,
      paidCount: paid.count[i] as number,
    };
  }))
    yield { invoices };
  for (const payments of inParts(file.payments, ({ ref: _, invoice, ...p }) => ({
    ...p,
    invoice: invoiceAt.get(invoice) as number,
  })))
    yield { payments };
  for (const schedules of inParts(file.schedules, ({ ref: _, entity, occurrences: list, ...s }) => ({
    ...s,
    entity: entityAt.get(entity) as number,
    occurrenceCount: list.length,
  })))
    yield { schedules };
  let part: PartOccurrence[] = [];
  for (const [schedule, s] of file.schedules.entries()) {
    for (const o of s.occurrences) {
      part.push({
        ...o,
        schedule,
        invoice: o.invoice === null ? null : (invoiceAt.get(o.invoice) as number),
        payment: o.payment === null ? null : (paymentAt.get(o.payment) as number),
      });
      if (part.length === PART_ITEMS) {
        yield { occurrences: part };
        part = [];
      }
    }
  }
  if (part.length > 0) yield { occurrences: part };
  for (const attachments of inParts(file.attachments, ({ invoice, payment, ...a }) => ({
    ...a,
    invoice: invoice === null ? null : (invoiceAt.get(invoice) as number),
    payment: payment === null ? null : (paymentAt.get(payment) as number),
  })))
    yield { attachments };
}

/** The worker's side: parse, check, and post the file's parts (account-file.worker.ts). */
export function* fileMessages(bytes: Uint8Array): Generator<WorkerMessage> {
  let file: AccountFile;
  try {
    file = checkAccountFile(bytes);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    yield { error: { statusCode: err.statusCode, message: err.message, code: err.code } };
    return;
  }
  for (const part of partsOf(file)) yield { part };
  yield { done: true };
}

const WORKER = workerStart(new URL('./account-file.worker.ts', import.meta.url));

/** The parts of a small file, parsed here: a turn of the event loop before the parse and between parts. */
async function* partsHere(bytes: Uint8Array): AsyncGenerator<AccountFilePart> {
  await nextTurn();
  for (const part of partsOf(checkAccountFile(bytes))) {
    yield part;
    await nextTurn();
  }
}

/**
 * The parts of a large file from a worker thread of its own, which decodes, parses and checks the whole file, then
 * posts one part each time this thread asks for the next (account-file.worker.ts). This thread asks for the next
 * part as it takes one, so the worker prepares it while this one is written: at most two parts are here at once,
 * whatever the file's size. Leaving the loop early (a refusal, a failed write) ends the worker, and its memory with
 * it.
 */
async function* partsFromWorker(bytes: Uint8Array): AsyncGenerator<AccountFilePart> {
  const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const data = owned ? bytes : bytes.slice();
  const worker = new Worker(WORKER.entry, {
    workerData: { ...WORKER.workerData, bytes: data },
    transferList: [data.buffer as ArrayBuffer],
  });
  const queue: WorkerMessage[] = [];
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const woken = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  worker.on('message', (message: WorkerMessage) => {
    queue.push(message);
    woken();
  });
  worker.on('error', (err) => {
    failure ??= err;
    woken();
  });
  worker.on('exit', (code) => {
    failure ??= new Error(`the account file worker stopped (exit ${code})`);
    woken();
  });
  try {
    for (;;) {
      const message = queue.shift();
      if (message === undefined) {
        if (failure) throw failure;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        continue;
      }
      if ('error' in message)
        throw new HttpError(message.error.statusCode, message.error.message, {}, message.error.code);
      if ('done' in message) return;
      worker.postMessage('next');
      yield message.part;
    }
  } finally {
    void worker.terminate();
  }
}

/**
 * An account file as the parts the import writes (docs/decisions/0706-limits-and-fairness.md), parsed and checked
 * off the event loop when it is large. The first part (the head) arrives once the whole file has been checked; a
 * refused file throws its 400 there, before anything is written.
 */
export function readAccountFile(bytes: Uint8Array): AsyncGenerator<AccountFilePart> {
  return bytes.length < WORKER_MIN_BYTES ? partsHere(bytes) : partsFromWorker(bytes);
}
