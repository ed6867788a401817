import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ReactNode, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useEmailStatus } from '../../api/account/get-email-status.ts';
import { useIdentityLink } from '../../api/account/get-identity-link.ts';
import { useMfaStatus } from '../../api/account/get-mfa-status.ts';
import { useUser } from '../../api/account/get-user.ts';
import { PageCard } from '../../components/PageCard.tsx';
import { formatTimestamp } from '../../lib/dates.ts';
import { roleLabel } from '../../lib/format.ts';
import { useSession } from '../../lib/use-session.ts';
import { AccountDataSection } from './AccountDataSection.tsx';
import { ApiTokensSection } from './ApiTokensSection.tsx';
import { ChangeEmailDialog } from './ChangeEmailDialog.tsx';
import { ChangePasswordDialog } from './ChangePasswordDialog.tsx';
import { DeactivateDialog } from './DeactivateDialog.tsx';
import { DisableMfaDialog } from './DisableMfaDialog.tsx';
import { DueSettingsSection } from './DueSettingsSection.tsx';
import { EmailStateChip, EmailVerificationHelp } from './EmailVerification.tsx';
import { EnableMfaDialog } from './EnableMfaDialog.tsx';
import { linkReturnNotice } from './identity-link-text.ts';
import { LinkIdentityDialog } from './LinkIdentityDialog.tsx';
import { NotificationsSection } from './NotificationsSection.tsx';
import { RecoveryCodesDialog } from './RecoveryCodesDialog.tsx';
import { SetPasswordButton } from './SetPasswordButton.tsx';
import { useAccountNotice } from './use-account-notice.ts';

type OpenDialog =
  | 'email'
  | 'password'
  | 'deactivate'
  | 'enableMfa'
  | 'disableMfa'
  | 'recoveryCodes'
  | 'link'
  | 'unlink'
  | null;

function Row({ label, wrap = false, children }: { label: string; wrap?: boolean; children: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ py: 1.5, alignItems: { sm: wrap ? 'flex-start' : 'center' } }}>
      <Typography component="dt" color="text.secondary" sx={{ width: { sm: 160 }, flexShrink: 0 }}>
        {label}
      </Typography>
      <Stack
        component="dd"
        direction="row"
        spacing={wrap ? undefined : 2}
        useFlexGap={wrap}
        sx={{
          m: 0,
          alignItems: 'center',
          flexGrow: 1,
          minWidth: 0,
          ...(wrap ? { flexWrap: 'wrap', columnGap: 1, rowGap: 1 } : {}),
        }}
      >
        {children}
      </Stack>
    </Stack>
  );
}

/** `/account` (docs/product.md, Account (/account)): the user's details and the email, password, MFA and deactivation dialogs. */
export default function AccountPage() {
  const session = useSession();
  const username = session?.username ?? '';
  const { data: user, isPending } = useUser(username);
  const { data: mfa } = useMfaStatus(user?.mfaEnabled ? username : '');
  const { data: emailStatus } = useEmailStatus();
  const { data: identity } = useIdentityLink();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const close = () => setDialog(null);
  const location = useLocation();
  const navigate = useNavigate();
  const notify = useAccountNotice();
  const provider = identity?.provider ?? null;

  // Back from the identity provider after linking (`#oidc=…`): say how it went, once, and drop it from the address.
  useEffect(() => {
    if (!provider) return;
    const notice = linkReturnNotice(location.hash, provider);
    if (!notice) return;
    notify(notice.message, notice.severity);
    navigate({ pathname: location.pathname, search: location.search, hash: '' }, { replace: true });
  }, [provider, location.hash, location.pathname, location.search, notify, navigate]);

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
          <Row label="Email" wrap>
            {/* The address first: it is what the row's value is. */}
            <Typography sx={{ overflowWrap: 'anywhere' }}>{user.email}</Typography>
            {emailStatus && <EmailStateChip verified={emailStatus.verified} />}
            <Button size="small" onClick={() => setDialog('email')} sx={{ ml: 'auto' }}>
              Change
            </Button>
            {emailStatus && !emailStatus.verified && (
              <Box sx={{ flexBasis: '100%' }}>
                <EmailVerificationHelp status={emailStatus} />
              </Box>
            )}
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
          <Row label="MFA">
            <Stack sx={{ flexGrow: 1 }}>
              <Typography>{user.mfaEnabled ? 'On' : 'Off'}</Typography>
              <Typography variant="body2" color="text.secondary">
                {user.mfaEnabled
                  ? mfa && `${mfa.recoveryCodesLeft} of 10 recovery codes left`
                  : 'Sign-ins ask for your password only'}
              </Typography>
            </Stack>
            {user.mfaEnabled ? (
              <>
                <Button size="small" onClick={() => setDialog('recoveryCodes')} sx={{ whiteSpace: 'nowrap' }}>
                  New Recovery Codes
                </Button>
                <Button
                  size="small"
                  color="error"
                  onClick={() => setDialog('disableMfa')}
                  sx={{ whiteSpace: 'nowrap' }}
                >
                  Disable MFA
                </Button>
              </>
            ) : (
              <Button size="small" onClick={() => setDialog('enableMfa')} sx={{ whiteSpace: 'nowrap' }}>
                Enable MFA
              </Button>
            )}
          </Row>
          {identity && provider && (
            <Row label={provider}>
              <Stack sx={{ flexGrow: 1, minWidth: 0 }}>
                <Typography>{identity.linked ? 'Linked' : 'Not linked'}</Typography>
                <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                  {identity.linked
                    ? `Sign in with ${provider}${identity.email ? ` as ${identity.email}` : ''}`
                    : `Link your ${provider} account to sign in with it`}
                </Typography>
              </Stack>
              {identity.linked ? (
                identity.canUnlink && (
                  <Button size="small" color="error" onClick={() => setDialog('unlink')} sx={{ whiteSpace: 'nowrap' }}>
                    Unlink
                  </Button>
                )
              ) : (
                <Button size="small" onClick={() => setDialog('link')} sx={{ whiteSpace: 'nowrap' }}>
                  Link {provider}
                </Button>
              )}
            </Row>
          )}
        </Stack>
        {!user.hasPassword && (
          <Alert severity="info" sx={{ mt: 3 }}>
            Your account has no password of its own: you sign in with {provider ?? 'your identity provider'}. Changes
            that ask for your current password need one.
          </Alert>
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 3 }}>
          {user.hasPassword ? (
            <Button variant="contained" onClick={() => setDialog('password')}>
              Change Password
            </Button>
          ) : (
            <SetPasswordButton email={user.email} emailVerified={emailStatus?.verified ?? false} />
          )}
          <Button variant="outlined" color="error" onClick={() => setDialog('deactivate')}>
            Deactivate Account
          </Button>
        </Stack>
        <DueSettingsSection />
        <NotificationsSection />
        <ApiTokensSection />
        <AccountDataSection />
        <ChangeEmailDialog open={dialog === 'email'} currentEmail={user.email} onClose={close} />
        <ChangePasswordDialog
          open={dialog === 'password'}
          username={user.username}
          mfaEnabled={user.mfaEnabled}
          onClose={close}
        />
        <DeactivateDialog open={dialog === 'deactivate'} onClose={close} />
        <EnableMfaDialog open={dialog === 'enableMfa'} username={user.username} onClose={close} />
        <DisableMfaDialog open={dialog === 'disableMfa'} username={user.username} onClose={close} />
        <RecoveryCodesDialog open={dialog === 'recoveryCodes'} username={user.username} onClose={close} />
        {provider && (
          <LinkIdentityDialog
            open={dialog === 'link' || dialog === 'unlink'}
            mode={dialog === 'unlink' ? 'unlink' : 'link'}
            provider={provider}
            onClose={close}
          />
        )}
      </>
    );

  return (
    <PageCard title="Account Information" width={720} titleGap={2}>
      {content}
    </PageCard>
  );
}
