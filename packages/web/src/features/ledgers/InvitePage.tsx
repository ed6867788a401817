import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { ApiError } from '../../api/client.ts';
import { useAcceptInvitation } from '../../api/ledgers/accept-invitation.ts';
import { ledgersQuery } from '../../api/ledgers/list-ledgers.ts';
import { useInvitationPreview } from '../../api/ledgers/preview-invitation.ts';
import { useNotice } from '../../components/notices.tsx';
import { PageCard } from '../../components/PageCard.tsx';
import { PageProgress } from '../../components/PageProgress.tsx';
import { formatTimestamp } from '../../lib/dates.ts';
import { choiceOf, switchLedger } from '../../lib/ledger-switch.ts';
import { A_ROLE, CODE_MESSAGES, ledgerFailure, ROLE_DESCRIPTIONS } from './ledger-messages.ts';

const INVALID = CODE_MESSAGES.INVITATION_INVALID ?? '';

/** The token of `/invite#<token>`: in the fragment, so it never reaches the server's access log with the page. */
export function invitationToken(hash: string): string | null {
  const token = decodeURIComponent(hash.replace(/^#/, '')).trim();
  return token.length >= 20 && token.length <= 200 ? token : null;
}

/**
 * `/invite#<token>` (docs/decisions/0303-web-ledgers.md): what the invitation offers (ledger, role, who invited,
 * until when), and Accept, which joins the ledger and makes it this tab's. A signed-out visitor is sent to sign in
 * (or create an account) first and comes back here; a link that is unknown, expired, revoked or used says so.
 */
export default function InvitePage() {
  const location = useLocation();
  const token = invitationToken(location.hash);
  const preview = useInvitationPreview(token);
  const accept = useAcceptInvitation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notify = useNotice();
  const [error, setError] = useState<string | null>(null);

  const join = async () => {
    if (!token || !preview.data) return;
    const outcome = await accept.mutateAsync(token);
    if (!outcome.ok) {
      setError(
        ledgerFailure(outcome, {
          failed: 'Failed to accept the invitation.',
          error: 'Error accepting the invitation.',
        }),
      );
      return;
    }
    // The list must hold the ledger before the tab switches to it, or the switcher would think it gone.
    const ledgers = await queryClient.fetchQuery({ ...ledgersQuery, staleTime: 0 }).catch(() => null);
    const listed = ledgers?.find((ledger) => ledger.id === outcome.data.ledger.id) ?? outcome.data.ledger;
    switchLedger(queryClient, choiceOf(listed));
    notify(`You joined “${preview.data.ledgerName}” as ${A_ROLE[preview.data.role]}.`, { severity: 'success' });
    // The token leaves the address bar and the history: the link is used.
    navigate('/home', { replace: true });
  };

  if (token && preview.isPending) return <PageProgress />;
  const invalid =
    !token || (preview.isError && preview.error instanceof ApiError && preview.error.code === 'INVITATION_INVALID');

  return (
    <PageCard title="Join a ledger" width={560}>
      {invalid && (
        <Stack spacing={2}>
          <Alert severity="warning">{INVALID}</Alert>
          <Button component={RouterLink} to="/home" variant="outlined" sx={{ alignSelf: 'flex-start' }}>
            Go to Home
          </Button>
        </Stack>
      )}
      {!invalid && preview.isError && <Alert severity="error">Failed to load the invitation.</Alert>}
      {preview.data && (
        <Stack spacing={2}>
          {error && (
            <Alert severity="error" onClose={() => setError(null)}>
              {error}
            </Alert>
          )}
          <Typography>
            <strong>{preview.data.invitedBy}</strong> invited you to the ledger{' '}
            <strong>“{preview.data.ledgerName}”</strong> as {A_ROLE[preview.data.role]}.
          </Typography>
          <Typography color="text.secondary">{ROLE_DESCRIPTIONS[preview.data.role]}</Typography>
          <Typography color="text.secondary">{`The invitation expires ${formatTimestamp(preview.data.expiresAt)}.`}</Typography>
          {preview.data.alreadyMember && (
            <Alert severity="info">You are already a member of this ledger: accepting changes nothing.</Alert>
          )}
          <Stack direction="row" spacing={2}>
            <Button variant="contained" onClick={join} disabled={accept.isPending}>
              Accept
            </Button>
            <Button component={RouterLink} to="/home" replace>
              Not now
            </Button>
          </Stack>
        </Stack>
      )}
    </PageCard>
  );
}
