import type { CreateChannelBody, CreatedChannel } from '@billfold/contract/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { attempt, type Outcome } from '../outcome.ts';
import { refreshChannels } from './get-notification-channels.ts';

/** `POST /notification-channels`: a new channel; a webhook's signing secret is in this answer only. */
export function createNotificationChannel(body: CreateChannelBody): Promise<Outcome<CreatedChannel>> {
  return attempt<CreatedChannel>('POST', '/notification-channels', { body });
}

export function useCreateNotificationChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createNotificationChannel,
    onSuccess: (outcome) => {
      if (outcome.ok) refreshChannels(queryClient);
    },
  });
}
