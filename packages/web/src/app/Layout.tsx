import Box from '@mui/material/Box';
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { useLedgerChoice } from '../components/ledger-access.tsx';
import { PageProgress } from '../components/PageProgress.tsx';
import { useSession } from '../lib/use-session.ts';
import { LedgerWatcher } from './LedgerSwitcher.tsx';
import { TopBar } from './TopBar.tsx';

export function Layout() {
  const session = useSession();
  // The page is built anew for each ledger, so nothing of the previous one (data, an open dialog) stays on screen.
  const ledgerKey = useLedgerChoice()?.id ?? 'personal';
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      {session && <LedgerWatcher />}
      <TopBar />
      <Box component="main" key={ledgerKey} sx={{ flexGrow: 1, position: 'relative' }}>
        <Suspense fallback={<PageProgress />}>
          <Outlet />
        </Suspense>
      </Box>
    </Box>
  );
}
