import { REMINDER_DAYS_MAX, REMINDER_DAYS_MIN } from '@billfold/contract/due';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useCalendarFeed } from '../../api/account/get-calendar-feed.ts';
import { useEmailStatus } from '../../api/account/get-email-status.ts';
import { useReminders } from '../../api/account/get-reminders.ts';
import { useSetCalendarFeed } from '../../api/account/set-calendar-feed.ts';
import { useSetReminders } from '../../api/account/set-reminders.ts';
import { failureMessage } from '../../api/outcome.ts';
import { formatTimestamp } from '../../lib/dates.ts';
import { CalendarFeedDialog } from './CalendarFeedDialog.tsx';

const DAY_CHOICES = Array.from({ length: REMINDER_DAYS_MAX - REMINDER_DAYS_MIN + 1 }, (_, i) => REMINDER_DAYS_MIN + i);

/**
 * The private calendar feed: on, off, a new address. Turning it on or making a new address asks for the password
 * in a dialog; the address is shown once, right after it is made (the server keeps only a hash of it).
 */
function CalendarFeedPart() {
  const { data: feed, isError } = useCalendarFeed();
  const setFeed = useSetCalendarFeed();
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [asking, setAsking] = useState(false);

  const ask = () => {
    setFailed(null);
    setCopied(false);
    setAsking(true);
  };
  const turnOff = async () => {
    setFailed(null);
    setCopied(false);
    const outcome = await setFeed.mutateAsync({ enabled: false });
    if (!outcome.ok) {
      const message = 'Failed to turn off the calendar feed.';
      setFailed(failureMessage(outcome, { failed: message, error: message }));
      return;
    }
    setUrl(null);
  };
  const copy = async () => {
    if (!url) return;
    await navigator.clipboard?.writeText(url);
    setCopied(true);
  };

  return (
    <Stack spacing={1.5}>
      <Typography id="calendar-feed-heading" variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        Calendar feed
      </Typography>
      <Typography color="text.secondary">
        Subscribe to your unpaid invoices' due dates in Google Calendar, Apple Calendar or Outlook. Anyone with the
        address can read the feed, so keep it private; making a new one stops the old one.
      </Typography>
      {isError && <Alert severity="error">The calendar feed settings could not be loaded.</Alert>}
      {feed && <Typography>{feed.enabled ? `On since ${formatTimestamp(feed.createdAt)}` : 'Off'}</Typography>}
      {url && (
        <Alert severity="success" sx={{ '& .MuiAlert-message': { minWidth: 0, flexGrow: 1 } }}>
          <Stack spacing={1}>
            <span>Copy this address into your calendar app now: for your privacy it is not shown again.</span>
            <TextField
              value={url}
              size="small"
              fullWidth
              label="Calendar feed address"
              slotProps={{ htmlInput: { readOnly: true } }}
              onFocus={(event) => event.target.select()}
            />
            <Button size="small" variant="outlined" onClick={copy} sx={{ alignSelf: 'flex-start' }}>
              {copied ? 'Copied' : 'Copy Address'}
            </Button>
          </Stack>
        </Alert>
      )}
      {failed && <Alert severity="error">{failed}</Alert>}
      {feed && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {feed.enabled ? (
            <>
              <Button variant="outlined" disabled={setFeed.isPending} onClick={ask}>
                New Address
              </Button>
              <Button variant="outlined" color="error" loading={setFeed.isPending} onClick={turnOff}>
                Turn Off Feed
              </Button>
            </>
          ) : (
            <Button variant="outlined" disabled={setFeed.isPending} onClick={ask}>
              Turn On Feed
            </Button>
          )}
        </Stack>
      )}
      <CalendarFeedDialog
        open={asking}
        regenerate={feed?.enabled ?? false}
        onClose={() => setAsking(false)}
        onMade={setUrl}
      />
    </Stack>
  );
}

/** The daily e-mail digest: on or off and how many days ahead, or why it cannot be turned on. */
function RemindersPart() {
  const { data: settings, isError } = useReminders();
  const { data: emailStatus } = useEmailStatus();
  const setReminders = useSetReminders();
  const [failed, setFailed] = useState<string | null>(null);

  const save = async (enabled: boolean, daysAhead?: number) => {
    setFailed(null);
    const outcome = await setReminders.mutateAsync(daysAhead === undefined ? { enabled } : { enabled, daysAhead });
    if (!outcome.ok) setFailed(outcome.message ?? 'The reminders could not be changed. Please try again.');
  };

  return (
    <Stack spacing={1.5}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        Email reminders
      </Typography>
      {isError && <Alert severity="error">The reminder settings could not be loaded.</Alert>}
      {settings && !settings.configured && (
        <Alert severity="info">
          Email reminders are not configured on this server. Its administrator can turn them on with SMTP_URL and
          MAIL_FROM.
        </Alert>
      )}
      {settings?.configured && (
        <>
          <Typography color="text.secondary">
            Once a day, an email to {settings.email} listing what is overdue and what falls due soon. No email on days
            with nothing due.
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
            <FormControlLabel
              control={
                <Switch
                  checked={settings.enabled}
                  disabled={setReminders.isPending}
                  onChange={(event) => save(event.target.checked)}
                />
              }
              label="Send me reminders"
            />
            <TextField
              select
              size="small"
              label="Days ahead"
              value={settings.daysAhead}
              disabled={!settings.enabled || setReminders.isPending}
              onChange={(event) => save(true, Number(event.target.value))}
              sx={{ width: 140 }}
            >
              {DAY_CHOICES.map((days) => (
                <MenuItem key={days} value={days}>
                  {days} {days === 1 ? 'day' : 'days'}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          {settings.enabled && !settings.emailVerified && (
            <Alert severity="warning" sx={{ '& .MuiAlert-message': { minWidth: 0 } }}>
              Verify your address to keep getting reminders: they go only to a verified address.{' '}
              {emailStatus?.sentAt
                ? `Open the link we emailed to ${settings.email}, or ask for a new one under Email above.`
                : `Ask for a link to ${settings.email} under Email above.`}
            </Alert>
          )}
        </>
      )}
      {failed && <Alert severity="error">{failed}</Alert>}
    </Stack>
  );
}

/** "Bills that come due": the calendar feed and the e-mail reminders of the account. */
export function DueSettingsSection() {
  return (
    <Stack component="section" aria-labelledby="due-settings-heading" spacing={3} sx={{ mt: 4 }}>
      <Typography id="due-settings-heading" variant="h6" component="h2">
        Due Dates
      </Typography>
      <CalendarFeedPart />
      <RemindersPart />
    </Stack>
  );
}
