import type { DeliveryList, NotificationDelivery } from '@billfold/contract/notifications';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

export const notificationDeliveriesQueryKey = ['user', 'notification-deliveries'] as const;

/** `GET /notification-deliveries`: the latest deliveries, newest first, with status, attempts and next try. */
export async function getNotificationDeliveries(): Promise<Outcome<NotificationDelivery[]>> {
  const outcome = await attempt<DeliveryList>('GET', '/notification-deliveries?limit=30');
  return outcome.ok ? { ok: true, data: outcome.data.deliveries } : outcome;
}

/** Looked at again every 15 s while shown: retries happen in the background. */
export function useNotificationDeliveries() {
  return useQuery({
    queryKey: notificationDeliveriesQueryKey,
    queryFn: async () => dataOf(await getNotificationDeliveries()),
    refetchInterval: 15_000,
  });
}
