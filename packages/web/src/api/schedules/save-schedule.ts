import type { Schedule, ScheduleBody } from '@billfold/contract/schedules';
import { useDomainWrite } from '../invalidate.ts';
import { attempt, type Outcome } from '../outcome.ts';

export type SaveSchedule =
  | { billId: number; scheduleId: null; body: ScheduleBody }
  | { scheduleId: number; body: ScheduleBody };

/**
 * `POST /bills/{id}/schedules` (new) or `PUT /schedules/{id}` (replace) → the schedule. Either may create invoices
 * at once (occurrences up to today), so every domain query is refreshed.
 */
export function saveSchedule(save: SaveSchedule): Promise<Outcome<Schedule>> {
  return save.scheduleId === null
    ? attempt<Schedule>('POST', `/bills/${save.billId}/schedules`, { body: save.body })
    : attempt<Schedule>('PUT', `/schedules/${save.scheduleId}`, { body: save.body });
}

export function useSaveSchedule() {
  return useDomainWrite(saveSchedule);
}
