import type { VerifyEmailResult } from '@billfold/contract/email-verification';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useVerifyEmail } from '../../api/account/verify-email.ts';
import { serverReason } from '../../api/outcome.ts';
import { PageCard } from '../../components/PageCard.tsx';
import { forgetLinkToken, linkToken } from '../../lib/link-token.ts';
import { useSession } from '../../lib/use-session.ts';

type Result =
  | { state: 'working' }
  | { state: 'verified'; data: VerifyEmailResult }
  | { state: 'failed'; reason: string };

const NO_TOKEN = 'This link is incomplete. Open it exactly as it appears in the email.';
const NOT_VERIFIED = 'The address could not be verified. Please try again.';

/**
 * `/verify-email#<token>`, the link of a verification email (docs/decisions/1131-verified-addresses.md): public,
 * since it may be opened in any browser. The token travels after `#`, so it reaches no server log; it is read once,
 * taken out of the address bar, and sent to the API; the page then says plainly what happened.
 */
export default function VerifyEmailPage() {
  const session = useSession();
  const verify = useVerifyEmail();
  const [result, setResult] = useState<Result>({ state: 'working' });
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = linkToken();
    forgetLinkToken();
    if (!token) {
      setResult({ state: 'failed', reason: NO_TOKEN });
      return;
    }
    verify.mutateAsync(token).then((outcome) => {
      if (outcome.ok) setResult({ state: 'verified', data: outcome.data });
      else setResult({ state: 'failed', reason: serverReason(outcome) ?? NOT_VERIFIED });
    });
  }, [verify]);

  const next = session ? (
    <Button component={RouterLink} to="/account" variant="contained" sx={{ alignSelf: 'flex-start' }}>
      Go to Account
    </Button>
  ) : (
    <Button component={RouterLink} to="/" variant="contained" sx={{ alignSelf: 'flex-start' }}>
      Log In
    </Button>
  );

  return (
    <PageCard title="Verify Email" width={560} titleGap={2}>
      {result.state === 'working' && (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} role="status">
          <CircularProgress size={24} aria-hidden />
          <Typography>Verifying your email address…</Typography>
        </Stack>
      )}
      {result.state === 'verified' && (
        <Stack spacing={2}>
          <Alert severity="success">
            {result.data.email} is verified. Reminders and notices can now be sent to it.
          </Alert>
          {next}
        </Stack>
      )}
      {result.state === 'failed' && (
        <Stack spacing={2}>
          <Alert severity="error">{result.reason}</Alert>
          <Typography color="text.secondary">
            {session
              ? 'For a new link, choose “Send Again” next to your email on the Account page.'
              : 'For a new link, log in and choose “Send Again” next to your email on the Account page.'}
          </Typography>
          {next}
        </Stack>
      )}
    </PageCard>
  );
}
