import type { ChannelList } from '@billfold/contract/notifications';
import { useQuery } from '@tanstack/react-query';
import { attempt, dataOf, type Outcome } from '../outcome.ts';

export const notificationChannelsQueryKey = ['user', 'notification-channels'] as const;

/** `GET /notification-channels`: the account's channels (never their secrets), email's state, the web push key. */
export function getNotificationChannels(): Promise<Outcome<ChannelList>> {
  return attempt<ChannelList>('GET', '/notification-channels');
}

export function useNotificationChannels() {
  return useQuery({
    queryKey: notificationChannelsQueryKey,
    queryFn: async () => dataOf(await getNotificationChannels()),
  });
}
