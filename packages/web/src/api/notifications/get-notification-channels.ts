import type { ChannelList } from '@billfold/contract/notifications';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { remindersQueryKey } from '../account/get-reminders.ts';
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

/**
 * After a channel changed: the channel list, and the reminder settings, which are the email channel hearing the
 * digest (docs/decisions/1154-reminder-digest-channel.md).
 */
export function refreshChannels(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: notificationChannelsQueryKey });
  void queryClient.invalidateQueries({ queryKey: remindersQueryKey });
}
