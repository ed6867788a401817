import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { refreshChannels } from './get-notification-channels.ts';
import { notificationDeliveriesQueryKey } from './get-notification-deliveries.ts';

/** `DELETE /notification-channels/{id}`: the channel and its deliveries are gone. */
export function deleteNotificationChannel(id: number): Promise<Outcome<{ message: string }>> {
  return attempt<{ message: string }>('DELETE', `/notification-channels/${id}`);
}

export function useDeleteNotificationChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteNotificationChannel,
    onSuccess: (outcome) => {
      if (!outcome.ok) return;
      refreshChannels(queryClient);
      void queryClient.invalidateQueries({ queryKey: notificationDeliveriesQueryKey });
    },
  });
}
