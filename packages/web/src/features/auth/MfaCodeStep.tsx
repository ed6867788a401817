import type { AuthResponse, MfaChallenge } from '@billfold/contract/auth';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { completeMfaLogin } from '../../api/auth/login.ts';
import { MfaCodeField } from '../../components/MfaCodeField.tsx';
import { useNotice } from '../../components/notices.tsx';
import { NOTICE_MS } from '../../lib/timing.ts';
import { MFA_ERRORS, mfaErrorMessage } from './mfa-error.ts';

interface Props {
  challenge: MfaChallenge;
  onSignedIn: (auth: AuthResponse) => void;
  /** Back to the password step (asked for, or the challenge expired). */
  onRestart: () => void;
}

/** The second step of signing in to an account with MFA: a code from the authenticator app, or a recovery code. */
export function MfaCodeStep({ challenge, onSignedIn, onRestart }: Props) {
  const notify = useNotice();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const fail = (message: string) => notify(message, { severity: 'error', duration: NOTICE_MS.loginError });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!code.trim()) return fail(MFA_ERRORS.codeRequired);
    setBusy(true);
    const result = await completeMfaLogin({ challenge: challenge.challenge, code: code.trim() });
    setBusy(false);
    if (result.ok) return onSignedIn(result.auth);
    if (result.mfa) return;
    const { message, restart } = mfaErrorMessage(result.failure);
    fail(message);
    setCode('');
    if (restart) onRestart();
  };

  return (
    <Stack component="form" spacing={2} onSubmit={submit} noValidate>
      <Typography color="text.secondary">
        Enter the 6-digit code from your authenticator app. Lost your phone? Use one of your recovery codes.
      </Typography>
      <MfaCodeField value={code} onChange={setCode} autoFocus />
      <Stack direction="row" spacing={2}>
        <Button type="submit" variant="contained" disabled={busy} fullWidth>
          Verify
        </Button>
        <Button variant="outlined" onClick={onRestart} disabled={busy} fullWidth>
          Back
        </Button>
      </Stack>
    </Stack>
  );
}
