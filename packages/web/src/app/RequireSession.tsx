import { type ReactNode, useEffect, useRef } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { endSession, refreshSession } from '../api/client.ts';
import { PageProgress } from '../components/PageProgress.tsx';
import { isTokenUnexpired } from '../lib/jwt.ts';
import { loginState } from '../lib/login-flags.ts';
import { sessionEndReason } from '../lib/session.ts';
import { useSession, useSessionPending } from '../lib/use-session.ts';

/**
 * Lets signed-in users through (docs/product.md, Who may do what); everyone else goes to `/`. An expired access token with a refresh
 * token is renewed first (decision 0302). A session that ends while a guarded page is open sends the user to `/`
 * with the logout flag after a logout, or with the session-ended flag and the page to return to after a failed
 * refresh (decision 0705). A tab opened without a session first waits for another tab to hand over theirs; a visitor
 * without any session is brought back to the page after signing in.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  const pending = useSessionPending();
  // A session this page held, from the start or handed over by another tab since (decision 0705).
  const hadSession = useRef(false);
  if (session !== null) hadSession.current = true;
  const valid = session !== null && isTokenUnexpired(session.accessToken);
  const expired = valid || !session?.refreshToken ? null : session;

  useEffect(() => {
    if (!expired) return;
    void refreshSession(expired).then((ok) => {
      if (!ok) endSession();
    });
  }, [expired]);

  if (valid) return children;
  if (expired || pending) return <PageProgress />;
  const here = `${location.pathname}${location.search}${location.hash}`;
  const ended = sessionEndReason();
  // A call outside the page (the top bar's) may end the session before this guard first renders: a session that
  // ended in this tab by a failed refresh counts as one this page had.
  const hadOne = hadSession.current || ended === 'ended';
  const state =
    hadOne && ended !== 'ended' ? loginState('loggedOut') : loginState(hadOne ? 'sessionEnded' : null, here);
  return <Navigate to="/" replace state={state} />;
}
