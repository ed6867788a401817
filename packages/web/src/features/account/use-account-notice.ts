import { useCallback } from 'react';
import { useNotice } from '../../components/notices.tsx';
import { NOTICE_MS } from '../../lib/timing.ts';

/** Account-page notices stay 3 s (docs/product.md, Messages). */
export function useAccountNotice() {
  const notify = useNotice();
  return useCallback(
    (message: string, severity: 'success' | 'error') => notify(message, { severity, duration: NOTICE_MS.account }),
    [notify],
  );
}
