import { type ReactNode, useEffect, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { refreshSession, signOut } from '../api/client.ts';
import { PageProgress } from '../components/PageProgress.tsx';
import { isTokenUnexpired } from '../lib/jwt.ts';
import { loginState } from '../lib/login-flags.ts';
import { readSession } from '../lib/session.ts';
import { useSession } from '../lib/use-session.ts';

/**
 * Lets signed-in users through (spec §2, §6); everyone else goes to `/`. An expired access token with a refresh
 * token is renewed first (decision 0302). A session that ends while a guarded page is open (logout, failed
 * refresh) sends the user to `/` with the logout flag.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const [hadSession] = useState(() => readSession() !== null);
  const valid = session !== null && isTokenUnexpired(session.accessToken);
  const refreshToken = valid ? null : (session?.refreshToken ?? null);

  useEffect(() => {
    if (!refreshToken) return;
    void refreshSession().then((ok) => {
      if (!ok) signOut();
    });
  }, [refreshToken]);

  if (valid) return children;
  if (refreshToken) return <PageProgress />;
  return <Navigate to="/" replace {...(hadSession ? { state: loginState('loggedOut') } : {})} />;
}
