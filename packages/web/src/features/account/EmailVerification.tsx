import type { EmailStatus } from '@billfold/contract/email-verification';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useSendVerificationEmail } from '../../api/account/send-verification-email.ts';
import { failureMessage } from '../../api/outcome.ts';
import { formatTimestamp } from '../../lib/dates.ts';
import { useAccountNotice } from './use-account-notice.ts';

/** "Verified" or "Not verified", beside the address. */
export function EmailStateChip({ verified }: { verified: boolean }) {
  return (
    <Chip
      size="small"
      variant="outlined"
      color={verified ? 'success' : 'warning'}
      label={verified ? 'Verified' : 'Not verified'}
      sx={{ flexShrink: 0 }}
    />
  );
}

/**
 * "Send Link" / "Send Again": a new verification link to the account's address. The server allows a few per
 * 15 minutes and says when to try again; its reason is shown under the button.
 */
export function SendLinkButton({ status }: { status: EmailStatus }) {
  const send = useSendVerificationEmail();
  const notify = useAccountNotice();
  const [failed, setFailed] = useState<string | null>(null);
  const click = async () => {
    setFailed(null);
    const outcome = await send.mutateAsync();
    if (!outcome.ok) {
      setFailed(failureMessage(outcome, { failed: 'Failed to send the link.', error: 'Failed to send the link.' }));
      return;
    }
    notify(`Verification link sent to ${outcome.data.email}.`, 'success');
  };
  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
      <Button size="small" variant="outlined" loading={send.isPending} onClick={click} sx={{ whiteSpace: 'nowrap' }}>
        {status.sentAt ? 'Send Again' : 'Send Link'}
      </Button>
      {failed && (
        <Alert severity="error" onClose={() => setFailed(null)}>
          {failed}
        </Alert>
      )}
    </Stack>
  );
}

/** Under the address while it is not verified: why it matters, and what to do about it. */
export function EmailVerificationHelp({ status }: { status: EmailStatus }) {
  if (status.verified) return null;
  if (!status.mailConfigured) {
    return (
      <Typography variant="body2" color="text.secondary">
        This server cannot send email, so addresses are not verified here.
      </Typography>
    );
  }
  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
      <Typography variant="body2" color="text.secondary">
        {status.sentAt
          ? `We sent a link to this address on ${formatTimestamp(status.sentAt)}. Open it to verify the address: reminders and notices go only to a verified address.`
          : 'Reminders and notices go only to a verified address. Send a link to verify it.'}
      </Typography>
      <SendLinkButton status={status} />
    </Stack>
  );
}
