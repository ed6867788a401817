import type { Ledger, LedgerMember, LedgerRole } from '@billfold/contract/ledgers';
import { LEDGER_ROLES } from '@billfold/contract/ledgers';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import LogoutOutlined from '@mui/icons-material/LogoutOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import DialogContentText from '@mui/material/DialogContentText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { useChangeRole } from '../../api/ledgers/change-role.ts';
import { useDeleteLedger } from '../../api/ledgers/delete-ledger.ts';
import { useLedgers } from '../../api/ledgers/list-ledgers.ts';
import { useMembers } from '../../api/ledgers/list-members.ts';
import { useRemoveMember } from '../../api/ledgers/remove-member.ts';
import { useRenameLedger } from '../../api/ledgers/rename-ledger.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DividedList } from '../../components/DividedList.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';
import { useCurrentLedger } from '../../components/ledger-access.tsx';
import { useNotice } from '../../components/notices.tsx';
import { PageProgress } from '../../components/PageProgress.tsx';
import { CurrentPasswordField } from '../../components/PasswordField.tsx';
import { formatTimestamp } from '../../lib/dates.ts';
import { choiceOf, switchLedger } from '../../lib/ledger-switch.ts';
import { parseRouteId } from '../../lib/route-id.ts';
import { InvitationsSection } from './InvitationsSection.tsx';
import { A_ROLE, ledgerFailure, ROLE_DESCRIPTIONS, ROLE_NAMES } from './ledger-messages.ts';
import { NameDialog } from './NameDialog.tsx';

function Frame({ children }: { children: ReactNode }) {
  return <Container sx={{ py: 4, maxWidth: { lg: 1000 } }}>{children}</Container>;
}

/**
 * `/ledgers/{id}` (docs/decisions/0303-web-ledgers.md): a ledger's members and, for its owners, invitations,
 * role changes, removal, renaming and deleting; every member may leave a shared ledger. A ledger the user is not
 * a member of is "not found", as the server says.
 */
export default function LedgerPage() {
  const ledgerId = parseRouteId(useParams().id);
  const ledgers = useLedgers();
  if (ledgers.isPending) return <PageProgress />;
  if (ledgers.isError)
    return (
      <Frame>
        <Alert severity="error">Failed to load ledgers.</Alert>
      </Frame>
    );
  const ledger = ledgers.data.find((item) => item.id === ledgerId);
  if (!ledger)
    return (
      <Frame>
        <Alert
          severity="warning"
          action={
            <Button color="inherit" size="small" component={RouterLink} to="/ledgers">
              Ledgers
            </Button>
          }
        >
          Ledger not found. It may have been deleted, or you are no longer a member.
        </Alert>
      </Frame>
    );
  return (
    <Frame>
      <LedgerDetail ledger={ledger} />
    </Frame>
  );
}

type Dialog = 'rename' | 'delete' | 'leave' | null;

function LedgerDetail({ ledger }: { ledger: Ledger }) {
  const { ledger: current } = useCurrentLedger();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notify = useNotice();
  const rename = useRenameLedger();
  const remove = useDeleteLedger();
  // Leaving is removing oneself: one call (`DELETE /ledgers/{id}/members/{userId}`) with the caller's own id.
  const leave = useRemoveMember();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [error, setError] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const owner = ledger.role === 'owner';
  const inThisTab = ledger.id === current.id;
  // Leaving is removing oneself: the caller's own id comes with the members list.
  const me = useMembers(ledger.id).data?.find((member) => member.you)?.userId ?? null;

  const close = () => {
    setDialog(null);
    setError(null);
    setPassword('');
  };
  /** After leaving or deleting: a tab working in this ledger goes back to the personal one. */
  const gone = (message: string) => {
    close();
    if (inThisTab) switchLedger(queryClient, null);
    notify(message, { severity: 'success' });
    navigate('/ledgers', { replace: true });
  };

  const submitRename = async (name: string) => {
    const outcome = await rename.mutateAsync({ id: ledger.id, name });
    if (!outcome.ok)
      return setError(ledgerFailure(outcome, { failed: 'Failed to rename ledger.', error: 'Error renaming ledger.' }));
    close();
    notify('Ledger renamed.', { severity: 'success' });
  };
  const submitDelete = async () => {
    if (!password) return setError('Enter your password to delete the ledger.');
    const outcome = await remove.mutateAsync({ id: ledger.id, password });
    if (!outcome.ok)
      return setError(ledgerFailure(outcome, { failed: 'Failed to delete ledger.', error: 'Error deleting ledger.' }));
    gone(`Ledger “${ledger.name}” deleted.`);
  };
  const submitLeave = async () => {
    if (me === null) return;
    const outcome = await leave.mutateAsync({ ledgerId: ledger.id, userId: me });
    if (!outcome.ok) {
      close();
      notify(ledgerFailure(outcome, { failed: 'Failed to leave ledger.', error: 'Error leaving ledger.' }), {
        severity: 'error',
        duration: 5000,
      });
      return;
    }
    gone(`You left “${ledger.name}”.`);
  };

  return (
    <>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mb: 3 }}>
        <Stack
          direction={{ xs: 'column', md: 'row' }}
          spacing={2}
          sx={{ justifyContent: 'space-between', alignItems: { md: 'flex-start' } }}
        >
          <Box sx={{ minWidth: 0 }}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <Typography variant="h5" component="h1" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
                {ledger.name}
              </Typography>
              {ledger.personal && <Chip label="Personal" size="small" variant="outlined" />}
            </Stack>
            <Typography color="text.secondary" sx={{ mt: 0.5 }}>
              {`You are ${A_ROLE[ledger.role]} of this ledger. ${ROLE_DESCRIPTIONS[ledger.role]}`}
            </Typography>
          </Box>
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1, flexShrink: 0 }}>
            {!inThisTab && (
              <Button
                variant="contained"
                onClick={() => {
                  switchLedger(queryClient, choiceOf(ledger));
                  navigate('/home');
                }}
              >
                Open in this tab
              </Button>
            )}
            {owner && (
              <Button variant="outlined" startIcon={<EditOutlined />} onClick={() => setDialog('rename')}>
                Rename
              </Button>
            )}
            {!ledger.personal && me !== null && (
              <Button variant="outlined" startIcon={<LogoutOutlined />} onClick={() => setDialog('leave')}>
                Leave
              </Button>
            )}
            {owner && !ledger.personal && (
              <Button
                variant="outlined"
                color="error"
                startIcon={<DeleteOutlined />}
                onClick={() => setDialog('delete')}
              >
                Delete
              </Button>
            )}
          </Stack>
        </Stack>
      </Paper>

      <MembersSection ledger={ledger} />
      {owner && <InvitationsSection ledger={ledger} />}

      {dialog === 'rename' && (
        <NameDialog
          title="Rename Ledger"
          submitLabel="Rename"
          initial={ledger.name}
          busy={rename.isPending}
          error={error}
          onSubmit={submitRename}
          onClose={close}
        />
      )}
      <FormDialog
        open={dialog === 'delete'}
        title="Delete Ledger"
        submitLabel="Delete"
        destructive
        busy={remove.isPending}
        error={error}
        onDismissError={() => setError(null)}
        onSubmit={submitDelete}
        onClose={close}
      >
        <DialogContentText>
          {`“${ledger.name}” and all its invoices, payments, entities and schedules are deleted for every member. This cannot be undone. Enter your password to confirm.`}
        </DialogContentText>
        <CurrentPasswordField value={password} onChange={setPassword} autoFocus />
      </FormDialog>
      <ConfirmDialog
        open={dialog === 'leave'}
        title="Leave Ledger"
        confirmLabel="Leave"
        destructive
        busy={leave.isPending}
        onConfirm={submitLeave}
        onCancel={close}
      >
        {`Leave “${ledger.name}”? You lose access to it at once; an owner can invite you again.`}
      </ConfirmDialog>
    </>
  );
}

function MembersSection({ ledger }: { ledger: Ledger }) {
  const members = useMembers(ledger.id);
  const changeRole = useChangeRole();
  const removeMember = useRemoveMember();
  const notify = useNotice();
  const [removing, setRemoving] = useState<LedgerMember | null>(null);
  const owner = ledger.role === 'owner';

  const setRole = async (member: LedgerMember, role: LedgerRole) => {
    if (role === member.role) return;
    const outcome = await changeRole.mutateAsync({ ledgerId: ledger.id, userId: member.userId, role });
    if (!outcome.ok) {
      notify(ledgerFailure(outcome, { failed: 'Failed to change role.', error: 'Error changing role.' }), {
        severity: 'error',
        duration: 5000,
      });
      return;
    }
    notify(`${member.username} is now ${A_ROLE[role]}.`, { severity: 'success' });
  };
  const confirmRemove = async () => {
    if (!removing) return;
    const outcome = await removeMember.mutateAsync({ ledgerId: ledger.id, userId: removing.userId });
    setRemoving(null);
    if (!outcome.ok) {
      notify(ledgerFailure(outcome, { failed: 'Failed to remove member.', error: 'Error removing member.' }), {
        severity: 'error',
        duration: 5000,
      });
      return;
    }
    notify(`${removing.username} was removed from the ledger.`, { severity: 'success' });
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mb: 3 }} component="section" aria-labelledby="members-heading">
      <Typography variant="h6" component="h2" id="members-heading" sx={{ mb: 1 }}>
        Members
      </Typography>
      {members.isPending && <PageProgress />}
      {members.isError && <Alert severity="error">Failed to load members.</Alert>}
      {members.data && (
        <DividedList>
          {members.data.map((member) => (
            <Stack
              component="li"
              key={member.userId}
              direction={{ xs: 'column', sm: 'row' }}
              spacing={{ xs: 1, sm: 2 }}
              sx={{ py: 1.5, alignItems: { sm: 'center' } }}
            >
              <Box sx={{ flexGrow: 1, minWidth: 0 }}>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <Typography sx={{ overflowWrap: 'anywhere', fontWeight: 500 }}>{member.username}</Typography>
                  {member.you && <Chip label="You" size="small" variant="outlined" />}
                </Stack>
                <Typography variant="body2" color="text.secondary">
                  {`Joined ${formatTimestamp(member.joinedAt)}`}
                </Typography>
              </Box>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexShrink: 0 }}>
                {owner ? (
                  <TextField
                    select
                    size="small"
                    label="Role"
                    value={member.role}
                    onChange={(event) => void setRole(member, event.target.value as LedgerRole)}
                    disabled={changeRole.isPending}
                    sx={{ width: 140 }}
                    slotProps={{ htmlInput: { 'aria-label': `Role of ${member.username}` } }}
                  >
                    {LEDGER_ROLES.map((role) => (
                      <MenuItem key={role} value={role}>
                        {ROLE_NAMES[role]}
                      </MenuItem>
                    ))}
                  </TextField>
                ) : (
                  <Chip label={ROLE_NAMES[member.role]} size="small" />
                )}
                {owner && !member.you && (
                  <Button
                    size="small"
                    color="error"
                    onClick={() => setRemoving(member)}
                    aria-label={`Remove ${member.username}`}
                  >
                    Remove
                  </Button>
                )}
              </Stack>
            </Stack>
          ))}
        </DividedList>
      )}
      <ConfirmDialog
        open={removing !== null}
        title="Remove Member"
        confirmLabel="Remove"
        destructive
        busy={removeMember.isPending}
        onConfirm={confirmRemove}
        onCancel={() => setRemoving(null)}
      >
        {removing
          ? `Remove ${removing.username} from “${ledger.name}”? They lose access at once, in every open window.`
          : ''}
      </ConfirmDialog>
    </Paper>
  );
}
