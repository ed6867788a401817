import Box from '@mui/material/Box';
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { PageProgress } from '../components/PageProgress.tsx';
import { TopBar } from './TopBar.tsx';

export function Layout() {
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <TopBar />
      <Box component="main" sx={{ flexGrow: 1, position: 'relative' }}>
        <Suspense fallback={<PageProgress />}>
          <Outlet />
        </Suspense>
      </Box>
    </Box>
  );
}
