import { Worker } from 'node:worker_threads';
import { workerStart } from './worker-url.ts';

/** What a limited worker posts: how far it is (0 to 1) any number of times, then its one result. */
export type LimitedWorkerMessage<T> = { progress: number } | { done: T };

export interface WorkerLimits {
  /** The worker is ended after this long, and the run gives null. */
  timeoutMs: number;
  /** Its JavaScript heap's ceiling; past it the worker dies alone, and the run gives null. */
  heapMb: number;
  /** Ends the worker early (the server is stopping), and the run gives null. */
  signal?: AbortSignal;
}

/**
 * Runs the worker module `moduleUrl` (`new URL('./x.worker.ts', import.meta.url)`) on `data` in a thread of its own
 * with a time and a heap limit, and gives its result, or null when it failed, crashed, ran out of memory or of
 * time: whatever a hostile file does to it, the caller gets an answer and the thread is gone
 * (docs/decisions/1147-pdf-first-page.md).
 */
export function runLimitedWorker<T>(
  moduleUrl: URL,
  data: Record<string, unknown>,
  limits: WorkerLimits,
  onProgress?: (share: number) => void,
): Promise<T | null> {
  const start = workerStart(moduleUrl);
  return new Promise((resolve) => {
    const worker = new Worker(start.entry, {
      workerData: { ...start.workerData, ...data },
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb },
    });
    let settled = false;
    const finish = (value: T | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      limits.signal?.removeEventListener('abort', stop);
      resolve(value);
      void worker.terminate();
    };
    const stop = () => finish(null);
    const timer = setTimeout(stop, limits.timeoutMs);
    limits.signal?.addEventListener('abort', stop, { once: true });
    if (limits.signal?.aborted) stop();
    worker.on('message', (message: LimitedWorkerMessage<T>) => {
      if ('done' in message) finish(message.done);
      else onProgress?.(message.progress);
    });
    worker.once('error', () => finish(null));
    worker.once('exit', () => finish(null));
  });
}
