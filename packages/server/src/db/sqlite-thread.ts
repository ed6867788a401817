import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * A worker thread with a connection of its own to the SQLite file `file` (`db`), running `body` as its code. The code is
 * CommonJS, evaluated (nothing to compile: it starts the same from source and in the compiled server), and loads the
 * server's own `better-sqlite3`. The checkpointer's thread and the reader's (db/sqlite-reader.ts) start this way.
 */
/** The heap of each SQLite thread, in MB: a young generation of 4 MB, an old one of at most 64. */
const THREAD_HEAP = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 };

export function sqliteThread(file: string, options: { readonly: boolean }, body: string): Worker {
  const prelude = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.sqlite);
const db = new SQLite(workerData.file, { readonly: workerData.readonly, fileMustExist: true });
db.pragma('busy_timeout = 5000');
`;
  return new Worker(prelude + body, {
    eval: true,
    // A thread holds a statement's rows at a time (a chunk of an export, a scan's groups): small heaps keep each one's
    // memory within what LEDGER_INDEX_MB promises (bench/index-memory.ts, docs/performance.md).
    resourceLimits: THREAD_HEAP,
    workerData: { file, readonly: options.readonly, sqlite: createRequire(import.meta.url).resolve('better-sqlite3') },
  });
}
