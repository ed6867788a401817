import type { NotificationDelivery } from '@billfold/contract/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { notificationDeliveriesQueryKey } from './get-notification-deliveries.ts';

/** `POST /notification-channels/{id}/test`: sends a test message now; its delivery says whether it arrived. */
export function testNotificationChannel(id: number): Promise<Outcome<NotificationDelivery>> {
  return attempt<NotificationDelivery>('POST', `/notification-channels/${id}/test`);
}

export function useTestNotificationChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: testNotificationChannel,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: notificationDeliveriesQueryKey }),
  });
}
