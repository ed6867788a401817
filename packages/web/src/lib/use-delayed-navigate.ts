import { useCallback, useEffect, useRef } from 'react';
import { type NavigateOptions, useNavigate } from 'react-router-dom';
import { REDIRECT_DELAY_MS } from './timing.ts';

/**
 * Navigation a moment after a successful save (1.2 s; docs/product.md, Where a save leads), so the success notice is seen first. Leaving the
 * page earlier cancels it.
 */
export function useDelayedNavigate(delayMs = REDIRECT_DELAY_MS) {
  const navigate = useNavigate();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return useCallback(
    (to: string, options?: NavigateOptions) => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => navigate(to, options), delayMs);
    },
    [navigate, delayMs],
  );
}
