import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { NoticeProvider } from '../components/notices.tsx';
import { queryClient } from './query-client.ts';
import { router } from './router.tsx';
import { THEME_MODE_KEY, theme } from './theme.ts';

export function App() {
  return (
    // The colour mode follows the system until the user picks one in the user menu; the choice is kept on this
    // device (local storage), not in the session, so it survives signing out (decision 0800).
    <ThemeProvider theme={theme} modeStorageKey={THEME_MODE_KEY} disableTransitionOnChange>
      <CssBaseline enableColorScheme />
      <QueryClientProvider client={queryClient}>
        <NoticeProvider>
          <RouterProvider router={router} />
        </NoticeProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
