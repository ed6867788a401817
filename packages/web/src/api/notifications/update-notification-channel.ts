import type { NotificationChannel, UpdateChannelBody } from '@billfold/contract/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { refreshChannels } from './get-notification-channels.ts';

/** `PATCH /notification-channels/{id}`: its name, events, days ahead, or resumed. */
export function updateNotificationChannel({
  id,
  ...body
}: UpdateChannelBody & { id: number }): Promise<Outcome<NotificationChannel>> {
  return attempt<NotificationChannel>('PATCH', `/notification-channels/${id}`, { body });
}

export function useUpdateNotificationChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationChannel,
    onSuccess: (outcome) => {
      if (outcome.ok) refreshChannels(queryClient);
    },
  });
}
