import type { FastifyBaseLogger } from 'fastify';
import { HOUR } from '../lib/time.ts';

export type Job = { name: string; run: () => Promise<unknown> };

/**
 * Runs every job now and then hourly; a failing job is logged and tried again next hour. The returned `stop`
 * starts no further job and resolves once the one running (if any) has finished, so the database can close after;
 * it may be called more than once.
 */
export function scheduleHourly(jobs: Job[], log: FastifyBaseLogger): () => Promise<void> {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const runAll = async () => {
    for (const job of jobs) {
      if (stopped) return;
      try {
        const result = await job.run();
        log.info({ job: job.name, result }, 'job finished');
      } catch (err) {
        log.error({ err, job: job.name }, 'job failed');
      }
    }
  };
  const start = () => {
    running = running.then(runAll);
  };
  start();
  const timer = setInterval(start, HOUR);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
