import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import { useUser } from '../../api/users/get-user.ts';
import { PageCard } from '../../components/PageCard.tsx';
import { formatTimestamp } from '../../lib/dates.ts';
import { roleLabel } from '../../lib/format.ts';
import { useSession } from '../../lib/use-session.ts';
import { ChangeEmailDialog } from './ChangeEmailDialog.tsx';
import { ChangePasswordDialog } from './ChangePasswordDialog.tsx';
import { DeactivateDialog } from './DeactivateDialog.tsx';

type OpenDialog = 'email' | 'password' | 'deactivate' | null;

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ py: 1.5, alignItems: { sm: 'center' } }}>
      <Typography component="dt" color="text.secondary" sx={{ width: { sm: 160 }, flexShrink: 0 }}>
        {label}
      </Typography>
      <Stack component="dd" direction="row" spacing={2} sx={{ m: 0, alignItems: 'center', flexGrow: 1, minWidth: 0 }}>
        {children}
      </Stack>
    </Stack>
  );
}

/** `/account` (spec §2): the user's details and the email, password and deactivation dialogs. */
export default function AccountPage() {
  const session = useSession();
  const username = session?.username ?? '';
  const { data: user, isPending } = useUser(username);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const close = () => setDialog(null);

  let content: ReactNode;
  if (!username) content = <Alert severity="error">Not authenticated.</Alert>;
  else if (isPending) content = <CircularProgress aria-label="Loading account" sx={{ display: 'block', mx: 'auto' }} />;
  else if (!user) content = <Alert severity="error">Failed to load user data.</Alert>;
  else
    content = (
      <>
        {/* Lines between rows are borders: a divider element inside <dl> is not allowed there. */}
        <Stack component="dl" sx={{ m: 0, '& > div + div': { borderTop: 1, borderColor: 'divider' } }}>
          <Row label="Username">
            <Typography sx={{ overflowWrap: 'anywhere' }}>{user.username}</Typography>
          </Row>
          <Row label="Email">
            <Typography sx={{ overflowWrap: 'anywhere', flexGrow: 1 }}>{user.email}</Typography>
            <Button size="small" onClick={() => setDialog('email')}>
              Change
            </Button>
          </Row>
          <Row label="User Role">
            <Typography>{roleLabel(user.roles)}</Typography>
          </Row>
          <Row label="Account Created">
            <Typography>{formatTimestamp(user.createdAt)}</Typography>
          </Row>
          <Row label="Last Login">
            <Typography>{formatTimestamp(user.lastLogin)}</Typography>
          </Row>
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 3 }}>
          <Button variant="contained" onClick={() => setDialog('password')}>
            Change Password
          </Button>
          <Button variant="outlined" color="error" onClick={() => setDialog('deactivate')}>
            Deactivate Account
          </Button>
          {/* The MFA dialog of spec §2 has no visible button, so it is not offered. */}
        </Stack>
        <ChangeEmailDialog open={dialog === 'email'} currentEmail={user.email} onClose={close} />
        <ChangePasswordDialog open={dialog === 'password'} username={user.username} onClose={close} />
        <DeactivateDialog open={dialog === 'deactivate'} onClose={close} />
      </>
    );

  return (
    <PageCard title="Account Information" width={720} titleGap={2}>
      {content}
    </PageCard>
  );
}
