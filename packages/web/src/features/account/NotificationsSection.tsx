import type { DeliveryStatus, NotificationChannel, NotificationDelivery } from '@billfold/contract/notifications';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useDeleteNotificationChannel } from '../../api/notifications/delete-notification-channel.ts';
import { useNotificationChannels } from '../../api/notifications/get-notification-channels.ts';
import { useNotificationDeliveries } from '../../api/notifications/get-notification-deliveries.ts';
import { useSendDeliveryAgain } from '../../api/notifications/send-delivery-again.ts';
import { useTestNotificationChannel } from '../../api/notifications/test-notification-channel.ts';
import { useUpdateNotificationChannel } from '../../api/notifications/update-notification-channel.ts';
import { failureMessage } from '../../api/outcome.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DividedList } from '../../components/DividedList.tsx';
import { formatTimestamp } from '../../lib/dates.ts';
import { NotificationChannelDialog } from './NotificationChannelDialog.tsx';
import { eventsSummary, KIND_LABELS, STATUS_LABELS } from './notification-text.ts';
import { useAccountNotice } from './use-account-notice.ts';

const STATUS_COLORS: Record<DeliveryStatus, 'default' | 'success' | 'warning' | 'error'> = {
  pending: 'default',
  sent: 'success',
  failed: 'warning',
  gave_up: 'error',
};

function ChannelState({ channel }: { channel: NotificationChannel }) {
  if (channel.pausedAt) return <Chip size="small" variant="outlined" color="error" label="Paused" />;
  if (channel.failingSince) return <Chip size="small" variant="outlined" color="warning" label="Failing" />;
  return null;
}

function deliveryDetails(d: NotificationDelivery): string {
  const parts = [`${d.channelName}`, formatTimestamp(d.createdAt)];
  if (d.attempts > 0) parts.push(`${d.attempts} ${d.attempts === 1 ? 'try' : 'tries'}`);
  if (d.status === 'failed' && d.nextTry) parts.push(`next try ${formatTimestamp(d.nextTry)}`);
  return parts.join(' · ');
}

/**
 * "Notifications": the account's channels (email, webhook, ntfy, Gotify, this browser) with their events, a Test
 * button, edit, delete and resume; below, the recent deliveries with their status, last error and next try, and
 * Send again for one that failed or gave up (docs/api/notifications.md).
 */
export function NotificationsSection() {
  const { data, isError } = useNotificationChannels();
  const deliveries = useNotificationDeliveries();
  const test = useTestNotificationChannel();
  const update = useUpdateNotificationChannel();
  const remove = useDeleteNotificationChannel();
  const again = useSendDeliveryAgain();
  const notify = useAccountNotice();
  const [editing, setEditing] = useState<NotificationChannel | 'new' | null>(null);
  const [deleting, setDeleting] = useState<NotificationChannel | null>(null);
  const [testing, setTesting] = useState<number | null>(null);

  const runTest = async (channel: NotificationChannel) => {
    setTesting(channel.id);
    const outcome = await test.mutateAsync(channel.id);
    setTesting(null);
    if (!outcome.ok) {
      notify(failureMessage(outcome, { failed: 'Failed to send a test.', error: 'Failed to send a test.' }), 'error');
    } else if (outcome.data.status === 'sent') notify(`Test sent to “${channel.name}”.`, 'success');
    else notify(`The test did not arrive: ${outcome.data.lastError ?? 'no answer yet'}.`, 'error');
  };
  const resume = async (channel: NotificationChannel) => {
    const outcome = await update.mutateAsync({ id: channel.id, paused: false });
    if (outcome.ok) notify(`Channel “${channel.name}” resumed.`, 'success');
    else notify(failureMessage(outcome, { failed: 'Failed to resume.', error: 'Failed to resume.' }), 'error');
  };
  const confirmDelete = async () => {
    if (!deleting) return;
    const outcome = await remove.mutateAsync(deleting.id);
    if (outcome.ok) notify(`Channel “${deleting.name}” deleted.`, 'success');
    else notify(failureMessage(outcome, { failed: 'Failed to delete.', error: 'Failed to delete.' }), 'error');
    setDeleting(null);
  };
  const sendAgain = async (delivery: NotificationDelivery) => {
    const outcome = await again.mutateAsync(delivery.id);
    if (outcome.ok) notify('Sending again.', 'success');
    else notify(failureMessage(outcome, { failed: 'Failed to send again.', error: 'Failed to send again.' }), 'error');
  };

  const channels = data?.channels;
  return (
    <Stack component="section" aria-labelledby="notifications-heading" spacing={1.5} sx={{ mt: 4 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2 }}>
        <Typography id="notifications-heading" variant="h6" component="h2">
          Notifications
        </Typography>
        <Button variant="outlined" onClick={() => setEditing('new')} disabled={!data} sx={{ whiteSpace: 'nowrap' }}>
          Add Channel
        </Button>
      </Stack>
      <Typography color="text.secondary">
        Hear about bills where you already look: email, a webhook, ntfy, Gotify or this browser. Billfold keeps trying a
        failed delivery for three days and pauses a channel that keeps failing.
      </Typography>
      {isError && <Alert severity="error">Failed to load your notification channels.</Alert>}
      {channels && channels.length === 0 && (
        <Typography color="text.secondary">You have no notification channels.</Typography>
      )}
      {channels && channels.length > 0 && (
        <DividedList label="Notification channels">
          {channels.map((channel) => (
            <Stack component="li" key={channel.id} sx={{ py: 1.25, gap: 0.5 }} data-testid="notification-channel-row">
              <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                <Typography sx={{ overflowWrap: 'anywhere' }}>{channel.name}</Typography>
                <Typography component="span" variant="body2" color="text.secondary">
                  {KIND_LABELS[channel.kind]}
                </Typography>
                <ChannelState channel={channel} />
              </Stack>
              {channel.url && (
                <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                  {channel.kind === 'webpush' ? 'Subscribed browser' : channel.url}
                </Typography>
              )}
              <Typography variant="body2" color="text.secondary">
                {eventsSummary(channel.events, channel.daysAhead)}
              </Typography>
              {channel.pausedAt && (
                <Alert severity="warning" sx={{ mt: 0.5 }}>
                  Paused on {formatTimestamp(channel.pausedAt)} after failing for 3 days. Check it, then resume it.
                </Alert>
              )}
              <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap' }}>
                {channel.pausedAt ? (
                  <Button size="small" onClick={() => resume(channel)} aria-label={`Resume ${channel.name}`}>
                    Resume
                  </Button>
                ) : (
                  <Button
                    size="small"
                    onClick={() => runTest(channel)}
                    disabled={testing !== null}
                    aria-label={`Test ${channel.name}`}
                  >
                    {testing === channel.id ? 'Sending…' : 'Test'}
                  </Button>
                )}
                <Button size="small" onClick={() => setEditing(channel)} aria-label={`Edit ${channel.name}`}>
                  Edit
                </Button>
                <Button
                  size="small"
                  color="error"
                  onClick={() => setDeleting(channel)}
                  aria-label={`Delete ${channel.name}`}
                >
                  Delete
                </Button>
              </Stack>
            </Stack>
          ))}
        </DividedList>
      )}
      <Typography id="deliveries-heading" variant="subtitle1" component="h3" sx={{ pt: 1 }}>
        Recent Deliveries
      </Typography>
      {deliveries.isError && <Alert severity="error">Failed to load the delivery log.</Alert>}
      {deliveries.data && deliveries.data.length === 0 && (
        <Typography color="text.secondary">Nothing sent yet.</Typography>
      )}
      {deliveries.data && deliveries.data.length > 0 && (
        <DividedList ordered label="Recent deliveries">
          {deliveries.data.map((d) => (
            <Stack
              component="li"
              key={d.id}
              direction="row"
              sx={{ py: 1, gap: 1.5, alignItems: 'center' }}
              data-testid="delivery-row"
            >
              <Stack sx={{ flexGrow: 1, minWidth: 0 }}>
                <Typography sx={{ overflowWrap: 'anywhere' }}>{d.title}</Typography>
                <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                  {deliveryDetails(d)}
                </Typography>
                {d.lastError && d.status !== 'sent' && (
                  <Typography variant="body2" color="error" sx={{ overflowWrap: 'anywhere' }}>
                    {d.lastError}
                  </Typography>
                )}
              </Stack>
              <Stack sx={{ alignItems: 'flex-end', gap: 0.5, flexShrink: 0 }}>
                <Chip size="small" variant="outlined" color={STATUS_COLORS[d.status]} label={STATUS_LABELS[d.status]} />
                {(d.status === 'failed' || d.status === 'gave_up') && (
                  <Button size="small" onClick={() => sendAgain(d)} aria-label={`Send again: ${d.title}`}>
                    Send again
                  </Button>
                )}
              </Stack>
            </Stack>
          ))}
        </DividedList>
      )}
      {data && editing !== null && (
        <NotificationChannelDialog
          key={editing === 'new' ? 'new' : editing.id}
          open
          channel={editing === 'new' ? null : editing}
          emailConfigured={data.emailConfigured}
          webPushKey={data.webPushKey}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete Channel"
        confirmLabel="Delete"
        destructive
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        {`“${deleting?.name ?? ''}” stops getting notifications, and its deliveries leave the log.`}
      </ConfirmDialog>
    </Stack>
  );
}
