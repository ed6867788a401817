import type { AuthResponse, MfaChallenge } from '@billfold/contract/auth';
import { RESET_MESSAGES } from '@billfold/contract/password-reset';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type FormEvent, useEffect, useState } from 'react';
import { Navigate, Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { OIDC_START_PATH, useSignInMethods } from '../../api/auth/get-sign-in-methods.ts';
import { login } from '../../api/auth/login.ts';
import { AuthCard } from '../../components/AuthCard.tsx';
import { useNotice } from '../../components/notices.tsx';
import { PageProgress } from '../../components/PageProgress.tsx';
import { CurrentPasswordField } from '../../components/PasswordField.tsx';
import { isTokenUnexpired } from '../../lib/jwt.ts';
import { type LoginFlag, loginState, readLoginFlag, readReturnPath } from '../../lib/login-flags.ts';
import { startSession } from '../../lib/session.ts';
import { NOTICE_MS } from '../../lib/timing.ts';
import { useSession, useSessionPending } from '../../lib/use-session.ts';
import { loginErrorMessage } from './login-error.ts';
import { MfaCodeStep } from './MfaCodeStep.tsx';

/** Shown on `/` when a session could not be renewed (decision 0705). */
export const SESSION_ENDED = 'Your session has ended. Please log in again.';

const FLAG_NOTICES: Record<LoginFlag, { message: string; severity: 'info' | 'success' | 'warning'; duration: number }> =
  {
    loggedOut: { message: 'You have been logged out', severity: 'info', duration: NOTICE_MS.signInFlag },
    accountCreated: { message: 'Account created! Please log in.', severity: 'success', duration: NOTICE_MS.signInFlag },
    sessionEnded: { message: SESSION_ENDED, severity: 'warning', duration: NOTICE_MS.sessionEnded },
    passwordSet: { message: RESET_MESSAGES.done, severity: 'success', duration: NOTICE_MS.signInFlag },
  };

export default function LoginPage() {
  const session = useSession();
  const pending = useSessionPending();
  const location = useLocation();
  const navigate = useNavigate();
  const notify = useNotice();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);
  const { data: methods } = useSignInMethods();
  const flag = readLoginFlag(location.state);
  // Kept past the effect below, which drops the router state: after signing in, back to where the user was.
  const [returnTo] = useState(() => readReturnPath(location.state));

  useEffect(() => {
    if (!flag) return;
    const { message, severity, duration } = FLAG_NOTICES[flag];
    notify(message, { severity, duration });
    // Drop the flag so that a reload does not show the notice again.
    navigate('.', { replace: true, state: null });
  }, [flag, notify, navigate]);

  if (session && isTokenUnexpired(session.accessToken)) return <Navigate to={returnTo ?? '/home'} replace />;
  // Another tab of the browser may hand over its session in a moment (decision 0705): no form to flash meanwhile.
  if (pending) return <PageProgress />;

  const complete = username.trim() !== '' && password !== '';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!complete || busy) return;
    setBusy(true);
    const result = await login({ username: username.trim(), password });
    setBusy(false);
    if (result.ok) return signedIn(result.auth);
    if (result.mfa) {
      setChallenge(result.mfa);
      setPassword('');
      return;
    }
    notify(loginErrorMessage(result.failure), { severity: 'error', duration: NOTICE_MS.loginError });
  };
  // The redirect above takes the user to /home, or back to the page they were on.
  const signedIn = (auth: AuthResponse) => startSession(auth);

  if (challenge) {
    return (
      <AuthCard title="Login or Create User">
        <MfaCodeStep challenge={challenge} onSignedIn={signedIn} onRestart={() => setChallenge(null)} />
      </AuthCard>
    );
  }

  // The identity provider, when the server has one (docs/decisions/0722-openid-connect-sign-in.md): a navigation to
  // the server, which sends the browser on to the provider and back to /login/oidc.
  const providerButton = methods?.oidc && (
    <Button variant={methods.password ? 'outlined' : 'contained'} href={OIDC_START_PATH} fullWidth>
      Sign in with {methods.oidc.name}
    </Button>
  );
  if (methods && !methods.password) {
    return (
      <AuthCard title="Login">
        <Stack spacing={2}>{providerButton}</Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Login or Create User">
      <Stack component="form" spacing={2} onSubmit={submit} noValidate>
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          value={username}
          onChange={(event) => setUsername(event.target.value)}
          autoFocus
          fullWidth
        />
        <CurrentPasswordField value={password} onChange={setPassword} />
        <Stack direction="row" spacing={2}>
          <Button type="submit" variant="contained" disabled={!complete || busy} fullWidth>
            Submit
          </Button>
          <Button variant="outlined" onClick={() => navigate('/user', { state: loginState(null, returnTo) })} fullWidth>
            Create User
          </Button>
        </Stack>
        {methods?.passwordReset && (
          <Link component={RouterLink} to="/forgot-password" variant="body2" sx={{ alignSelf: 'center' }}>
            Forgot your password?
          </Link>
        )}
        {providerButton && (
          <>
            <Divider>or</Divider>
            {providerButton}
          </>
        )}
      </Stack>
    </AuthCard>
  );
}
