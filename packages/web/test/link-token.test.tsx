import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, Suspense } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import ResetPasswordPage from '../src/features/auth/ResetPasswordPage.tsx';
import { reactRootPerTest } from './react-root.ts';

const dom = reactRootPerTest();

/**
 * A page that reads a link's token (lib/link-token.ts) must read the same token in every render React makes before
 * it shows the page: React throws away a render that suspends (or that a more urgent update interrupts, as under
 * load) and renders the page afresh. A sibling that suspends once makes that happen here. The address bar loses the
 * token once the page is shown.
 */
let pending: Promise<void> | null = new Promise((resolve) => setTimeout(resolve, 20));
function SuspendOnce() {
  if (pending) {
    const waiting = pending;
    void waiting.then(() => {
      pending = null;
    });
    throw waiting;
  }
  return null;
}
describe('a password link', () => {
  it('shows the form for the token after #, however often React renders it, then takes the token out of the address', async () => {
    window.history.replaceState(null, '', '/reset-password#a-single-use-token');
    const router = createMemoryRouter([{ path: '*', element: <ResetPasswordPage /> }], {
      initialEntries: ['/reset-password'],
    });
    await act(async () => {
      dom.root.render(
        <QueryClientProvider client={new QueryClient()}>
          <Suspense fallback={null}>
            <RouterProvider router={router} />
            <SuspendOnce />
          </Suspense>
        </QueryClientProvider>,
      );
      await new Promise((resolve) => setTimeout(resolve, 60));
    });
    const labels = [...document.querySelectorAll('label')].map((l) => l.textContent?.replace(/\s*\*$/, ''));
    expect(labels).toEqual(['New Password', 'Confirm New Password']);
    expect(document.body.textContent).not.toContain('This link is incomplete');
    expect(window.location.hash).toBe('');
    expect(window.location.pathname).toBe('/reset-password');
  });
});
