import type { Invitation, InvitationRole, Ledger } from '@billfold/contract/ledgers';
import { INVITATION_ROLES } from '@billfold/contract/ledgers';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { useCreateInvitation } from '../../api/ledgers/create-invitation.ts';
import { useInvitations } from '../../api/ledgers/list-invitations.ts';
import { useRevokeInvitation } from '../../api/ledgers/revoke-invitation.ts';
import { DividedList } from '../../components/DividedList.tsx';
import { useNotice } from '../../components/notices.tsx';
import { PageProgress } from '../../components/PageProgress.tsx';
import { formatTimestamp } from '../../lib/dates.ts';
import { invitationTerms, ledgerFailure, ROLE_DESCRIPTIONS, ROLE_NAMES } from './ledger-messages.ts';

/** A link just made: shown once (the server keeps only a hash of its token), with a Copy button. */
function NewLink({ invitation }: { invitation: Invitation & { link: string } }) {
  const notify = useNotice();
  const input = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(invitation.link);
      notify('Link copied.', { severity: 'success' });
    } catch {
      // No clipboard (an insecure origin, or permission refused): the link is selected for the user to copy.
      input.current?.select();
      notify('Could not copy the link: it is selected, copy it from the box.', { severity: 'warning', duration: 4000 });
    }
  };
  return (
    <Alert severity="success" icon={false} sx={{ mb: 2, '& .MuiAlert-message': { width: '100%' } }}>
      <Typography sx={{ mb: 1.5 }}>{invitationTerms(invitation.role)}</Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <TextField
          label="Invitation link"
          value={invitation.link}
          size="small"
          fullWidth
          inputRef={input}
          onFocus={(event) => event.target.select()}
          slotProps={{ htmlInput: { readOnly: true } }}
        />
        <Button variant="contained" startIcon={<ContentCopy />} onClick={copy} sx={{ flexShrink: 0 }}>
          Copy
        </Button>
      </Stack>
      <Typography variant="body2" sx={{ mt: 1 }}>
        It is shown only now: copy it before leaving this page.
      </Typography>
    </Alert>
  );
}

/**
 * The owners' part of the members page (docs/decisions/0303-web-ledgers.md): make a link for an editor or a
 * viewer, copy it, and see or revoke the links not used yet.
 */
export function InvitationsSection({ ledger }: { ledger: Ledger }) {
  const invitations = useInvitations(ledger.id, { enabled: true });
  const create = useCreateInvitation();
  const revoke = useRevokeInvitation();
  const notify = useNotice();
  const [role, setRole] = useState<InvitationRole>('editor');
  const [created, setCreated] = useState<(Invitation & { link: string }) | null>(null);

  const invite = async () => {
    const outcome = await create.mutateAsync({ ledgerId: ledger.id, role });
    if (!outcome.ok || !outcome.data.link) {
      const failure = outcome.ok ? null : outcome;
      notify(
        failure
          ? ledgerFailure(failure, { failed: 'Failed to create invitation.', error: 'Error creating invitation.' })
          : 'Failed to create invitation.',
        { severity: 'error', duration: 5000 },
      );
      return;
    }
    setCreated({ ...outcome.data, link: outcome.data.link });
  };
  const revokeOne = async (invitation: Invitation) => {
    const outcome = await revoke.mutateAsync({ ledgerId: ledger.id, invitationId: invitation.id });
    if (!outcome.ok) {
      notify(ledgerFailure(outcome, { failed: 'Failed to revoke invitation.', error: 'Error revoking invitation.' }), {
        severity: 'error',
      });
      return;
    }
    if (created?.id === invitation.id) setCreated(null);
    notify('Invitation revoked. Its link no longer works.', { severity: 'success' });
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} component="section" aria-labelledby="invitations-heading">
      <Typography variant="h6" component="h2" id="invitations-heading" sx={{ mb: 1 }}>
        Invitations
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Invite someone with a link: it works once, within 7 days. Whoever opens it signs in (or creates an account) and
        joins with the role you chose.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { sm: 'flex-start' } }}>
        <TextField
          select
          label="Role"
          size="small"
          value={role}
          onChange={(event) => setRole(event.target.value as InvitationRole)}
          helperText={ROLE_DESCRIPTIONS[role]}
          sx={{ width: { sm: 320 } }}
        >
          {INVITATION_ROLES.map((option) => (
            <MenuItem key={option} value={option}>
              {ROLE_NAMES[option]}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="contained" onClick={invite} disabled={create.isPending} sx={{ flexShrink: 0 }}>
          Create Invitation Link
        </Button>
      </Stack>
      {created && <NewLink invitation={created} />}
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 500 }}>
        Pending invitations
      </Typography>
      {invitations.isPending && <PageProgress />}
      {invitations.isError && <Alert severity="error">Failed to load invitations.</Alert>}
      {invitations.data?.length === 0 && (
        <Typography color="text.secondary" sx={{ py: 1 }}>
          No pending invitations.
        </Typography>
      )}
      {invitations.data && invitations.data.length > 0 && (
        <DividedList>
          {invitations.data.map((invitation) => (
            <Stack
              component="li"
              key={invitation.id}
              direction={{ xs: 'column', sm: 'row' }}
              spacing={{ xs: 0.5, sm: 2 }}
              sx={{ py: 1.5, alignItems: { sm: 'center' } }}
            >
              <Box sx={{ flexGrow: 1, minWidth: 0 }}>
                <Typography>{`${ROLE_NAMES[invitation.role]} · invited by ${invitation.createdBy}`}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {`Made ${formatTimestamp(invitation.createdAt)} · expires ${formatTimestamp(invitation.expiresAt)}`}
                </Typography>
              </Box>
              <Box sx={{ flexShrink: 0, ml: { xs: -1, sm: 0 } }}>
                <Button
                  size="small"
                  color="error"
                  onClick={() => void revokeOne(invitation)}
                  disabled={revoke.isPending}
                  aria-label={`Revoke the ${ROLE_NAMES[invitation.role].toLowerCase()} invitation made ${formatTimestamp(invitation.createdAt)}`}
                >
                  Revoke
                </Button>
              </Box>
            </Stack>
          ))}
        </DividedList>
      )}
    </Paper>
  );
}
