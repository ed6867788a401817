import type { ScheduleList } from '@billfold/contract/schedules';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

export const schedulesQueryKey = (billId: number) => ['schedules', billId] as const;

/** `GET /bills/{id}/schedules`: the entity's recurring invoices, oldest first. */
export function listSchedules(billId: number): Promise<Outcome<ScheduleList>> {
  return attempt<ScheduleList>('GET', `/bills/${billId}/schedules`);
}

/** A failed load is the query's error: the section says `Failed to load schedules.` */
export function useSchedules(billId: number) {
  return useQuery({
    queryKey: schedulesQueryKey(billId),
    queryFn: async () => dataOf(await listSchedules(billId)).schedules,
  });
}
