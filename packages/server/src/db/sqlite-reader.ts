import type { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';
import { sqliteThread } from './sqlite-thread.ts';

/** The reader thread's code, after `sqliteThread`'s prelude: runs each statement it is sent, keeping 100 prepared. */
const READS = `
const prepared = new Map();
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    let statement = prepared.get(sql);
    if (!statement) {
      if (prepared.size >= 100) prepared.clear();
      statement = db.prepare(sql);
      prepared.set(sql, statement);
    }
    parentPort.postMessage({ id, rows: statement.all(parameters) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

type Answer = { id: number; rows?: unknown[]; error?: string };

/**
 * Reads of a SQLite file on a read-only connection of a worker thread of its own, one statement at a time: for a
 * read that can take seconds and holds no transaction (when the ledger index does not answer: a CSV export's chunks,
 * and the scans of stats and trends, by SQL), so the event loop answers every other request meanwhile (docs/decisions/0706-limits-and-fairness.md).
 * better-sqlite3 answers on the thread that asks; the app's one connection would hold the loop for the whole
 * statement. WAL lets the reader see what is committed while the app's connection writes. The thread starts on the
 * first read.
 */
export class SqliteReader {
  private worker: Worker | null = null;
  private next = 0;
  private readonly waiting = new Map<number, { resolve: (rows: unknown[]) => void; reject: (e: Error) => void }>();

  constructor(private readonly file: string) {}

  all<R>(query: CompiledQuery<R>): Promise<R[]> {
    const worker = this.started();
    const id = this.next++;
    return new Promise<R[]>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
      if (this.waiting.size === 1) worker.ref();
      worker.postMessage({ id, sql: query.sql, parameters: query.parameters });
    });
  }

  /** Resolves once the thread (if it started) has exited, its connection closed. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = sqliteThread(this.file, { readonly: true }, READS);
    worker.unref();
    worker.on('message', ({ id, rows, error }: Answer) => {
      const waiter = this.waiting.get(id);
      if (!waiter) return;
      this.waiting.delete(id);
      if (this.waiting.size === 0) worker.unref();
      if (error === undefined) waiter.resolve(rows ?? []);
      else waiter.reject(new Error(error));
    });
    const fail = (error: Error) => {
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
      if (this.worker === worker) this.worker = null;
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('the SQLite reader thread ended')));
    this.worker = worker;
    return worker;
  }
}
