import type { SchedulePreview } from '@billfold/contract/schedules';
import { attempt, type Outcome } from '../outcome.ts';
import type { SaveSchedule } from './save-schedule.ts';

/**
 * `POST /bills/{id}/schedules/preview` (new) or `POST /schedules/{id}/preview` (replace): what the save would
 * create at once, its automatic payments and the existing invoices of the same date and amount; writes nothing.
 */
export function previewSchedule(save: SaveSchedule): Promise<Outcome<SchedulePreview>> {
  return save.scheduleId === null
    ? attempt<SchedulePreview>('POST', `/bills/${save.billId}/schedules/preview`, { body: save.body })
    : attempt<SchedulePreview>('POST', `/schedules/${save.scheduleId}/preview`, { body: save.body });
}
