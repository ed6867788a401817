import { channel } from 'node:diagnostics_channel';
import { statSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { sqliteThread } from './sqlite-thread.ts';

/**
 * `billfold:sqlite:checkpoint`: each checkpoint the checkpointer thread has run (`{ file, busy, log, checkpointed }`,
 * SQLite's answer to `PRAGMA wal_checkpoint(PASSIVE)`), for whoever subscribes through `node:diagnostics_channel`
 * (the tests).
 */
export const CHECKPOINT_CHANNEL = 'billfold:sqlite:checkpoint';
const checkpoints = channel(CHECKPOINT_CHANNEL);

/** The WAL's size past which checkpoints begin: SQLite's own automatic threshold, 1,000 pages of 4 KiB. */
const START_BYTES = 1_000 * 4_096;
/** How often the WAL is looked at and, once the thread runs, checkpointed. */
const EVERY_MS = 1_000;

/** The checkpointer thread's code, after `sqliteThread`'s prelude. */
const CHECKPOINTS = `
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    process.exit(0);
  }
  const [result] = db.pragma('wal_checkpoint(PASSIVE)');
  parentPort.postMessage(result);
});
`;

/**
 * Checkpoints of a SQLite file in WAL mode, off the event loop (docs/decisions/0706-limits-and-fairness.md). SQLite
 * checkpoints automatically on the connection that commits, inside the commit: after a large transaction (the
 * account file's import, a CSV import) that copies the whole WAL into the database file while the event loop waits
 * (1.5 s for a 116 MB WAL; 4.6 s for the largest account file on a busy machine). The app's connection turns that off
 * (`wal_autocheckpoint = 0`) and this runs `PRAGMA wal_checkpoint(PASSIVE)` every second on a connection of a worker
 * thread of its own instead: a passive checkpoint waits for no reader or writer, and the app's connection goes on
 * writing meanwhile. The thread starts once the WAL first passes SQLite's own threshold, so a small database (most
 * tests) never starts one.
 */
export function startCheckpointer(file: string): { close: () => Promise<void> } {
  let worker: Worker | null = null;
  let running = false;
  const tick = () => {
    if (!worker) {
      let size = 0;
      try {
        size = statSync(`${file}-wal`).size;
      } catch {
        return;
      }
      if (size < START_BYTES) return;
      const started = sqliteThread(file, { readonly: false }, CHECKPOINTS);
      started.unref();
      started.on('message', (result: { busy: number; log: number; checkpointed: number }) => {
        running = false;
        if (checkpoints.hasSubscribers) checkpoints.publish({ file, ...result });
      });
      // A failed checkpoint is tried again a second later by a new thread; the WAL only grows meanwhile.
      started.on('error', () => {});
      started.on('exit', () => {
        if (worker !== started) return;
        worker = null;
        running = false;
      });
      worker = started;
    }
    if (running) return;
    running = true;
    worker.postMessage('checkpoint');
  };
  const timer = setInterval(tick, EVERY_MS);
  timer.unref();
  return {
    /** Stops the checks; resolves once the thread (if it started) has closed its connection and exited. */
    close: () => {
      clearInterval(timer);
      const closing = worker;
      worker = null;
      if (!closing) return Promise.resolve();
      return new Promise<void>((resolve) => {
        closing.once('exit', () => resolve());
        closing.postMessage('close');
      });
    },
  };
}
