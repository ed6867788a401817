import type { Schedule, ScheduleList } from '@billfold/contract/schedules';
import { useQuery } from '@tanstack/react-query';
import { readList } from '../outcome.ts';

export const schedulesQueryKey = (billId: number) => ['schedules', billId] as const;

/** `GET /bills/{id}/schedules`: the entity's recurring invoices, oldest first. */
export function listSchedules(billId: number): Promise<Schedule[]> {
  return readList<Schedule>(`/bills/${billId}/schedules`, (body) => (body as ScheduleList | null)?.schedules);
}

export function useSchedules(billId: number) {
  return useQuery({ queryKey: schedulesQueryKey(billId), queryFn: () => listSchedules(billId) });
}
