import type { Db } from '../db/database.ts';
import { ScheduleRunner, type ScheduleRunResult } from '../modules/schedules/schedule-runner.ts';
import { SchedulesRepository } from '../modules/schedules/schedules.repository.ts';

/**
 * Recurring invoices: creates what fell due by `now` (also while no server ran) and records due automatic payments.
 * Safe in every process at once: each occurrence and each payment is claimed once (`ScheduleRunner`).
 */
export function runSchedules(db: Db, now: number): Promise<ScheduleRunResult> {
  return new ScheduleRunner(new SchedulesRepository(db)).run(now);
}
