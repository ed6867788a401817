import {
  CHANNEL_DAYS_DEFAULT,
  CHANNEL_KINDS,
  type ChannelKind,
  type CreateChannelBody,
  MAX_CHANNEL_DAYS,
  MAX_CHANNEL_NAME,
  MAX_CHANNEL_TOKEN,
  MAX_CHANNEL_URL,
  NOTIFICATION_EVENTS,
  type NotificationChannel,
  type NotificationEvent,
} from '@billfold/contract/notifications';
import Checkbox from '@mui/material/Checkbox';
import DialogContentText from '@mui/material/DialogContentText';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useCreateNotificationChannel } from '../../api/notifications/create-notification-channel.ts';
import { useUpdateNotificationChannel } from '../../api/notifications/update-notification-channel.ts';
import { failureMessage } from '../../api/outcome.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { NameField } from '../../components/NameField.tsx';
import { SecretOnce } from '../../components/SecretOnce.tsx';
import { EVENT_LABELS, KIND_LABELS } from './notification-text.ts';
import { useAccountNotice } from './use-account-notice.ts';
import { subscribeThisBrowser, webPushSupported } from './web-push.ts';

const KIND_HELP: Record<ChannelKind, string> = {
  email: 'Mail to your account’s address, once it is verified.',
  webhook: 'A signed JSON POST (Standard Webhooks) to your address; you get the signing secret once.',
  ntfy: 'A message to an ntfy topic, e.g. https://ntfy.sh/your-topic; add a token for a protected topic.',
  gotify: 'A message to your Gotify server with an application token.',
  webpush: 'Notifications in this browser, even when Billfold is closed. The browser asks for permission.',
};

interface Props {
  open: boolean;
  /** The channel to edit; null to add one. */
  channel: NotificationChannel | null;
  emailConfigured: boolean;
  /** Null when the server's push keys cannot be opened: web push cannot be added. */
  webPushKey: string | null;
  onClose: () => void;
}

/**
 * Adds a notification channel (its kind, address and token, its events and days ahead) or edits one's name, events
 * and days ahead. A new webhook's signing secret is shown once, with Copy (docs/api/notifications.md).
 */
export function NotificationChannelDialog({ open, channel, emailConfigured, webPushKey, onClose }: Props) {
  const editing = channel !== null;
  // The parent mounts one dialog per channel edited (its `key`), so the fields start from it.
  const [kind, setKind] = useState<ChannelKind>(channel?.kind ?? 'ntfy');
  const [name, setName] = useState(channel?.name ?? '');
  const [url, setUrl] = useState('');
  const [token, setToken] = useState('');
  const [events, setEvents] = useState<NotificationEvent[]>(channel?.events ?? ['due_soon', 'overdue']);
  const [days, setDays] = useState(String(channel?.daysAhead ?? CHANNEL_DAYS_DEFAULT));
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [subscribing, setSubscribing] = useState(false);
  const create = useCreateNotificationChannel();
  const update = useUpdateNotificationChannel();
  const notify = useAccountNotice();

  const close = () => {
    setKind('ntfy');
    setName('');
    setUrl('');
    setToken('');
    setEvents(['due_soon', 'overdue']);
    setDays(String(CHANNEL_DAYS_DEFAULT));
    setError(null);
    setSecret(null);
    onClose();
  };

  const toggle = (event: NotificationEvent, on: boolean) =>
    setEvents((list) => NOTIFICATION_EVENTS.filter((e) => (e === event ? on : list.includes(e))));

  const problem = (): string | null => {
    if (name.trim() === '') return 'Enter a name.';
    const n = Number(days);
    if (!Number.isInteger(n) || n < 1 || n > MAX_CHANNEL_DAYS) return `Days ahead must be 1 to ${MAX_CHANNEL_DAYS}.`;
    if (editing) return null;
    if (['webhook', 'ntfy', 'gotify'].includes(kind) && !/^https?:\/\/\S+$/i.test(url.trim())) {
      return 'Enter an address starting with https:// or http://.';
    }
    if (kind === 'gotify' && token.trim() === '') return 'Enter the Gotify application token.';
    return null;
  };

  const submit = async () => {
    if (secret) return close();
    const found = problem();
    setError(found);
    if (found) return;
    // The daily digest is a mail: only an email channel hears it.
    const chosen = kind === 'email' ? events : events.filter((e) => e !== 'digest');
    const common = { name: name.trim(), events: chosen, daysAhead: Number(days) };
    if (channel) {
      const outcome = await update.mutateAsync({ id: channel.id, ...common });
      if (!outcome.ok)
        return setError(failureMessage(outcome, { failed: 'Failed to save.', error: 'Failed to save.' }));
      notify(`Channel “${common.name}” saved.`, 'success');
      return close();
    }
    let body: CreateChannelBody;
    if (kind === 'webpush') {
      if (webPushKey === null) {
        return setError('This server cannot send web push now: its push keys do not open. Ask its administrator.');
      }
      setSubscribing(true);
      try {
        body = { kind, ...common, subscription: await subscribeThisBrowser(webPushKey) };
      } catch (err) {
        return setError(err instanceof Error ? err.message : 'The browser refused.');
      } finally {
        setSubscribing(false);
      }
    } else if (kind === 'email') body = { kind, ...common };
    else if (kind === 'webhook') body = { kind, ...common, url: url.trim() };
    else if (kind === 'ntfy') body = { kind, ...common, url: url.trim(), token: token.trim() || null };
    else body = { kind, ...common, url: url.trim(), token: token.trim() };
    const outcome = await create.mutateAsync(body);
    if (!outcome.ok) {
      return setError(
        failureMessage(outcome, { failed: 'Failed to add the channel.', error: 'Failed to add the channel.' }),
      );
    }
    if (outcome.data.secret) return setSecret(outcome.data.secret);
    notify(`Channel “${common.name}” added.`, 'success');
    close();
  };

  const kindDisabled = (k: ChannelKind) =>
    (k === 'email' && !emailConfigured) || (k === 'webpush' && !webPushSupported());

  return (
    <FormDialog
      open={open}
      title={secret ? 'Copy the Signing Secret' : editing ? 'Edit Channel' : 'Add Notification Channel'}
      submitLabel={secret ? 'Done' : editing ? 'Save' : 'Add Channel'}
      hideCancel={secret !== null}
      error={error}
      onDismissError={() => setError(null)}
      busy={create.isPending || update.isPending || subscribing}
      onSubmit={submit}
      onClose={close}
    >
      {secret ? (
        <SecretOnce value={secret} noun="secret" label="Signing secret" testId="webhook-secret" notify={notify}>
          <DialogContentText variant="body2">
            Your receiver checks each request’s webhook-signature header with it (Standard Webhooks).
          </DialogContentText>
        </SecretOnce>
      ) : (
        <>
          {!editing && (
            <TextField
              select
              label="Kind"
              name="channel-kind"
              value={kind}
              onChange={(event) => setKind(event.target.value as ChannelKind)}
              helperText={KIND_HELP[kind]}
              fullWidth
            >
              {CHANNEL_KINDS.map((k) => (
                <MenuItem key={k} value={k} disabled={kindDisabled(k)}>
                  {KIND_LABELS[k]}
                  {k === 'email' && !emailConfigured ? ' (not configured on this server)' : ''}
                  {k === 'webpush' && !webPushSupported() ? ' (not supported by this browser)' : ''}
                </MenuItem>
              ))}
            </TextField>
          )}
          <NameField name="channel-name" value={name} onChange={setName} maxLength={MAX_CHANNEL_NAME} />
          {!editing && ['webhook', 'ntfy', 'gotify'].includes(kind) && (
            <TextField
              label={kind === 'ntfy' ? 'Topic address' : kind === 'gotify' ? 'Server address' : 'Address'}
              name="channel-url"
              type="url"
              value={url}
              onChange={(event) => setUrl(event.target.value)}
              required
              fullWidth
              slotProps={{ htmlInput: { maxLength: MAX_CHANNEL_URL, inputMode: 'url' } }}
            />
          )}
          {!editing && (kind === 'ntfy' || kind === 'gotify') && (
            <TextField
              label={kind === 'gotify' ? 'Application token' : 'Access token (optional)'}
              name="channel-token"
              value={token}
              onChange={(event) => setToken(event.target.value)}
              required={kind === 'gotify'}
              fullWidth
              autoComplete="off"
              slotProps={{ htmlInput: { maxLength: MAX_CHANNEL_TOKEN } }}
            />
          )}
          <FormGroup>
            <FormLabel component="legend">Tell me when</FormLabel>
            {NOTIFICATION_EVENTS.filter((event) => event !== 'digest' || kind === 'email').map((event) => (
              <FormControlLabel
                key={event}
                control={
                  <Checkbox checked={events.includes(event)} onChange={(_, on) => toggle(event, on)} name={event} />
                }
                label={EVENT_LABELS[event]}
              />
            ))}
          </FormGroup>
          <TextField
            label={kind === 'email' ? 'Days ahead for “due soon” and the digest' : 'Days ahead for “due soon”'}
            name="channel-days"
            type="number"
            value={days}
            onChange={(event) => setDays(event.target.value)}
            disabled={!events.includes('due_soon') && !(kind === 'email' && events.includes('digest'))}
            slotProps={{ htmlInput: { min: 1, max: MAX_CHANNEL_DAYS } }}
            fullWidth
            sx={{ maxWidth: 340 }}
          />
        </>
      )}
    </FormDialog>
  );
}
