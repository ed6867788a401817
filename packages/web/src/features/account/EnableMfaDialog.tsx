import type { MfaSetupResponse } from '@billfold/contract/mfa';
import { MESSAGES } from '@billfold/contract/validation';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import DialogContentText from '@mui/material/DialogContentText';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useEnableMfa } from '../../api/account/enable-mfa.ts';
import { setupMfa } from '../../api/account/setup-mfa.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { MfaCodeField } from '../../components/MfaCodeField.tsx';
import { CurrentPasswordField } from '../../components/PasswordField.tsx';
import { mfaFailureMessage } from './mfa-failure.ts';
import { RecoveryCodeList } from './RecoveryCodeList.tsx';
import { useAccountNotice } from './use-account-notice.ts';

const FAILED = 'Failed to enable MFA.';

type Step = { name: 'password' } | { name: 'scan'; setup: MfaSetupResponse } | { name: 'codes'; codes: string[] };

/** The QR code of the otpauth URI, drawn in the browser (the `qrcode` package loads with this dialog only). */
function QrCode({ uri }: { uri: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    import('qrcode')
      .then((qr) => qr.toDataURL(uri, { margin: 2, width: 192, errorCorrectionLevel: 'M' }))
      .then((url) => live && setSrc(url))
      .catch((error: unknown) => console.error('[mfa] QR code failed', error));
    return () => {
      live = false;
    };
  }, [uri]);
  return (
    <Box sx={{ width: 192, height: 192, alignSelf: 'center', display: 'grid', placeItems: 'center', bgcolor: '#fff' }}>
      {src ? (
        <img src={src} width={192} height={192} alt="QR code to add Billfold to your authenticator app" />
      ) : (
        <CircularProgress aria-label="Drawing the QR code" />
      )}
    </Box>
  );
}

/** The secret in groups of four, as authenticator apps show and accept it. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/** Set-up in three steps: the password; the QR code (or key) and a code from the app; the recovery codes. */
export function EnableMfaDialog({ open, username, onClose }: { open: boolean; username: string; onClose: () => void }) {
  const [step, setStep] = useState<Step>({ name: 'password' });
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const enable = useEnableMfa(username);
  const notify = useAccountNotice();

  const close = () => {
    setStep({ name: 'password' });
    setPassword('');
    setCode('');
    setError(null);
    onClose();
  };

  const submit = async () => {
    if (step.name === 'codes') {
      close();
      return;
    }
    if (step.name === 'password') {
      if (!password) return setError(MESSAGES.passwordRequired);
      setBusy(true);
      const outcome = await setupMfa(password);
      setBusy(false);
      if (!outcome.ok) return setError(mfaFailureMessage(FAILED, outcome));
      setError(null);
      setPassword('');
      setStep({ name: 'scan', setup: outcome.data });
      return;
    }
    if (!code.trim()) return setError('Enter the code from your authenticator app.');
    const outcome = await enable.mutateAsync([code]);
    if (!outcome.ok) return setError(mfaFailureMessage(FAILED, outcome));
    setError(null);
    setCode('');
    notify('MFA enabled.', 'success');
    setStep({ name: 'codes', codes: outcome.data.recoveryCodes });
  };

  const copySecret = async (secret: string) => {
    try {
      await navigator.clipboard.writeText(secret);
      notify('Key copied.', 'success');
    } catch {
      notify('Could not copy; select the key instead.', 'error');
    }
  };

  const labels = { password: 'Continue', scan: 'Enable MFA', codes: 'Done' } as const;
  return (
    <FormDialog
      open={open}
      title={step.name === 'codes' ? 'Save Your Recovery Codes' : 'Enable MFA'}
      submitLabel={labels[step.name]}
      error={error}
      onDismissError={() => setError(null)}
      busy={busy || enable.isPending}
      hideCancel={step.name === 'codes'}
      onSubmit={submit}
      onClose={close}
    >
      {step.name === 'password' && (
        <>
          <DialogContentText>
            Signing in will also ask for a 6-digit code from an authenticator app on your phone (such as Google
            Authenticator, Microsoft Authenticator or 1Password). Enter your password to start.
          </DialogContentText>
          <CurrentPasswordField value={password} onChange={setPassword} autoFocus />
        </>
      )}
      {step.name === 'scan' && (
        <>
          <DialogContentText>
            Scan this QR code with your authenticator app, then enter the code it shows.
          </DialogContentText>
          <QrCode uri={step.setup.otpauthUri} />
          <Stack spacing={0.5}>
            <Typography variant="body2" color="text.secondary">
              Can't scan it? Enter this key in the app instead:
            </Typography>
            <Stack direction="row" sx={{ alignItems: 'center' }}>
              <Typography
                data-testid="mfa-secret"
                sx={{ fontFamily: 'monospace', fontSize: '1rem', overflowWrap: 'anywhere', flexGrow: 1 }}
              >
                {grouped(step.setup.secret)}
              </Typography>
              <IconButton aria-label="Copy key" onClick={() => copySecret(step.setup.secret)}>
                <ContentCopy fontSize="small" />
              </IconButton>
            </Stack>
          </Stack>
          <MfaCodeField value={code} onChange={setCode} allowRecoveryCode={false} autoFocus />
        </>
      )}
      {step.name === 'codes' && <RecoveryCodeList codes={step.codes} username={username} />}
    </FormDialog>
  );
}
