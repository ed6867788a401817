import Alert, { type AlertColor } from '@mui/material/Alert';
import Portal from '@mui/material/Portal';
import Snackbar from '@mui/material/Snackbar';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { NOTICE_MS } from '../lib/timing.ts';

export interface NoticeOptions {
  severity?: AlertColor;
  /** Milliseconds before it closes by itself (docs/product.md, Timings and limits); default 2000. */
  duration?: number;
  /** Top centre by default; the recycle bin shows its notices at the bottom. */
  placement?: 'top' | 'bottom';
}

interface Notice extends Required<NoticeOptions> {
  id: number;
  message: string;
}

type Notify = (message: string, options?: NoticeOptions) => void;

const NoticeContext = createContext<Notify | null>(null);

/**
 * One dismissible notice at a time, above everything including dialogs. It lives at the root of the app so a
 * notice outlives the page that raised it (e.g. `You have been logged out` after `/logout` navigates to `/`).
 */
export function NoticeProvider({ children }: { children: ReactNode }) {
  const [notice, setNotice] = useState<Notice | null>(null);
  const [open, setOpen] = useState(false);

  const notify = useCallback<Notify>((message, options = {}) => {
    setNotice({
      id: Date.now() + Math.random(),
      message,
      severity: options.severity ?? 'info',
      duration: options.duration ?? NOTICE_MS.default,
      placement: options.placement ?? 'top',
    });
    setOpen(true);
  }, []);

  const close = useCallback((_event?: unknown, reason?: string) => {
    if (reason !== 'clickaway') setOpen(false);
  }, []);

  const value = useMemo(() => notify, [notify]);
  return (
    <NoticeContext.Provider value={value}>
      {children}
      {notice && (
        // Portalled anew for each notice: an open dialog hides the rest of the page from assistive technology,
        // and a notice about that dialog's action must still be announced.
        <Portal key={notice.id}>
          <Snackbar
            open={open}
            autoHideDuration={notice.duration}
            onClose={close}
            anchorOrigin={{ vertical: notice.placement, horizontal: 'center' }}
            // Top notices sit just below the app bar rather than over it.
            sx={notice.placement === 'top' ? { top: { xs: 64, sm: 72 } } : undefined}
          >
            <Alert onClose={close} severity={notice.severity} variant="filled" sx={{ width: '100%' }}>
              {notice.message}
            </Alert>
          </Snackbar>
        </Portal>
      )}
    </NoticeContext.Provider>
  );
}

/** `notify(message, {severity, duration, placement})` shows a notice. */
export function useNotice(): Notify {
  const notify = useContext(NoticeContext);
  if (!notify) throw new Error('useNotice must be used inside <NoticeProvider>');
  return notify;
}
