import type { MessageResponse } from '@billfold/contract/primitives';
import type { Schedule } from '@billfold/contract/schedules';
import { useDomainWrite } from '../invalidate.ts';
import { attempt, type Outcome } from '../outcome.ts';

export type ScheduleAction = 'pause' | 'resume' | 'delete';

/** `POST /schedules/{id}/pause`, `POST /schedules/{id}/resume` (may create today's invoice) or `DELETE /schedules/{id}`. */
export function runScheduleAction({
  scheduleId,
  action,
}: {
  scheduleId: number;
  action: ScheduleAction;
}): Promise<Outcome<Schedule | MessageResponse>> {
  return action === 'delete'
    ? attempt<MessageResponse>('DELETE', `/schedules/${scheduleId}`)
    : attempt<Schedule>('POST', `/schedules/${scheduleId}/${action}`);
}

export function useScheduleAction() {
  return useDomainWrite(runScheduleAction);
}
