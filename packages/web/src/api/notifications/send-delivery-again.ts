import type { NotificationDelivery } from '@billfold/contract/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { notificationDeliveriesQueryKey } from './get-notification-deliveries.ts';

/** `POST /notification-deliveries/{id}/send-again`: a failed or given-up delivery is tried again now. */
export function sendDeliveryAgain(id: number): Promise<Outcome<NotificationDelivery>> {
  return attempt<NotificationDelivery>('POST', `/notification-deliveries/${id}/send-again`);
}

export function useSendDeliveryAgain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendDeliveryAgain,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: notificationDeliveriesQueryKey }),
  });
}
