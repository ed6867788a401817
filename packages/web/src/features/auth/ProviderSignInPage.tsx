import type { AuthResponse, MfaChallenge } from '@billfold/contract/auth';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useEffect, useRef, useState } from 'react';
import { Navigate, Link as RouterLink } from 'react-router-dom';
import { exchangeSignInTicket } from '../../api/auth/exchange-sign-in-ticket.ts';
import { useSignInMethods } from '../../api/auth/get-sign-in-methods.ts';
import { AuthCard } from '../../components/AuthCard.tsx';
import { PageProgress } from '../../components/PageProgress.tsx';
import { forgetLinkToken } from '../../lib/link-token.ts';
import { startSession } from '../../lib/session.ts';
import { MfaCodeStep } from './MfaCodeStep.tsx';
import { exchangeFailureCode, providerSignInMessage, readProviderReturn } from './provider-sign-in.ts';

type State =
  | { step: 'exchanging' }
  | { step: 'code'; challenge: MfaChallenge }
  | { step: 'failed'; code: string | null }
  | { step: 'signedIn' };

/**
 * `/login/oidc`: where a sign-in with the identity provider ends (docs/decisions/0722-openid-connect-sign-in.md).
 * The one-time ticket in the address is exchanged for the usual tokens, once, and the address forgets it; an
 * account with MFA gets the code step; a refusal says why, with the way back to the login page.
 */
export default function ProviderSignInPage() {
  const { data: methods } = useSignInMethods();
  const provider = methods?.oidc?.name ?? 'the identity provider';
  const [state, setState] = useState<State>({ step: 'exchanging' });
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const answer = readProviderReturn(window.location.hash);
    // The ticket works once: it leaves the address (and the history) before anything else.
    forgetLinkToken();
    if ('error' in answer) {
      setState({ step: 'failed', code: answer.error });
      return;
    }
    void exchangeSignInTicket(answer.ticket).then((result) => {
      if (result.ok) {
        startSession(result.auth);
        setState({ step: 'signedIn' });
      } else if (result.mfa) setState({ step: 'code', challenge: result.mfa });
      else setState({ step: 'failed', code: exchangeFailureCode(result.failure) });
    });
  }, []);

  const signedIn = (auth: AuthResponse) => {
    startSession(auth);
    setState({ step: 'signedIn' });
  };

  if (state.step === 'signedIn') return <Navigate to="/home" replace />;
  if (state.step === 'exchanging') return <PageProgress />;
  return (
    <AuthCard title="Login">
      {state.step === 'code' ? (
        <MfaCodeStep
          challenge={state.challenge}
          onSignedIn={signedIn}
          onRestart={() => setState({ step: 'failed', code: 'SIGN_IN_TICKET_INVALID' })}
        />
      ) : (
        <Stack spacing={2}>
          <Alert severity="error">{providerSignInMessage(state.code, provider)}</Alert>
          <Button variant="contained" component={RouterLink} to="/">
            Back to Login
          </Button>
        </Stack>
      )}
    </AuthCard>
  );
}
