import { useEffect } from 'react';
import { signOut } from '../../api/client.ts';
import { PageProgress } from '../../components/PageProgress.tsx';

/** Ends the session (tokens and saved view settings); the route guard then replaces history with `/`. */
export default function LogoutPage() {
  useEffect(() => {
    signOut();
  }, []);
  return <PageProgress />;
}
