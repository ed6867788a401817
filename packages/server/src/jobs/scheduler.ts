import type { FastifyBaseLogger } from 'fastify';
import { HOUR } from '../lib/time.ts';

export type Job = { name: string; run: () => Promise<unknown> };

/** Runs every job now and then hourly; a failing job is logged and tried again next hour. */
export function scheduleHourly(jobs: Job[], log: FastifyBaseLogger): () => void {
  const runAll = async () => {
    for (const job of jobs) {
      try {
        const result = await job.run();
        log.info({ job: job.name, result }, 'job finished');
      } catch (err) {
        log.error({ err, job: job.name }, 'job failed');
      }
    }
  };
  void runAll();
  const timer = setInterval(runAll, HOUR);
  timer.unref();
  return () => clearInterval(timer);
}
