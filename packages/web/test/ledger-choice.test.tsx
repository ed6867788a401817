import type { Ledger } from '@billfold/contract/ledgers';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ledgersQueryKey } from '../src/api/ledgers/ledger-queries.ts';
import { LedgerWatcher } from '../src/app/LedgerSwitcher.tsx';
import { currentLedger } from '../src/components/ledger-access.tsx';
import { NoticeProvider } from '../src/components/notices.tsx';
import { chooseLedger, parseLedgerChoice, readLedgerChoice } from '../src/lib/ledger-choice.ts';
import { pathAfterSwitch, switchLedger } from '../src/lib/ledger-switch.ts';
import { clearSession, readSetting, SESSION_KEYS, saveSession, VIEW_KEYS, writeSetting } from '../src/lib/session.ts';
import { reactRootPerTest } from './react-root.ts';

const ledger = (id: number, name: string, role: Ledger['role'], personal = false): Ledger => ({
  id,
  name,
  role,
  personal,
  memberCount: personal ? 1 : 2,
  createdAt: '2026-11-20T10:00:00',
});
const PERSONAL = ledger(1, 'Personal', 'owner', true);
const HOUSEHOLD = ledger(7, 'Household', 'editor');

beforeEach(() => {
  saveSession({ accessToken: 'a', refreshToken: 'r', username: 'ann' });
});
afterEach(() => {
  chooseLedger(null);
  clearSession();
  sessionStorage.clear();
});

describe('the tab’s ledger choice', () => {
  it('is kept in this tab’s session storage, so a reload finds it', async () => {
    chooseLedger({ id: 7, name: 'Household', role: 'viewer' });
    expect(JSON.parse(sessionStorage.getItem(SESSION_KEYS.ledger) ?? 'null')).toEqual({
      id: 7,
      name: 'Household',
      role: 'viewer',
    });
    // A reload: the module starts afresh and reads storage.
    vi.resetModules();
    const reloaded = await import('../src/lib/ledger-choice.ts');
    expect(reloaded.readLedgerChoice()).toEqual({ id: 7, name: 'Household', role: 'viewer' });
  });

  it('the personal ledger is no choice at all (no header is sent)', () => {
    chooseLedger({ id: 7, name: 'Household', role: 'viewer' });
    chooseLedger(null);
    expect(sessionStorage.getItem(SESSION_KEYS.ledger)).toBeNull();
    expect(readLedgerChoice()).toBeNull();
  });

  it('goes with the session: signing out forgets it', () => {
    chooseLedger({ id: 7, name: 'Household', role: 'editor' });
    clearSession();
    expect(readLedgerChoice()).toBeNull();
    expect(sessionStorage.getItem(SESSION_KEYS.ledger)).toBeNull();
  });

  it('reads only a well-formed stored choice', () => {
    expect(parseLedgerChoice('{"id":7,"name":"H","role":"viewer"}')).toEqual({ id: 7, name: 'H', role: 'viewer' });
    for (const bad of ['', 'x', '{"id":0,"name":"H","role":"viewer"}', '{"id":7,"name":"H","role":"admin"}', '[]'])
      expect(parseLedgerChoice(bad)).toBeNull();
  });

  it('resolves against the list: the listed role wins over the remembered one; the personal ledger is owned', () => {
    expect(
      currentLedger({ id: 7, name: 'Household', role: 'editor' }, [PERSONAL, ledger(7, 'Home', 'viewer')]),
    ).toEqual({
      id: 7,
      name: 'Home',
      role: 'viewer',
      personal: false,
    });
    expect(currentLedger({ id: 7, name: 'Household', role: 'viewer' }, undefined).role).toBe('viewer');
    expect(currentLedger(null, [PERSONAL, HOUSEHOLD])).toEqual({
      id: 1,
      name: 'Personal',
      role: 'owner',
      personal: true,
    });
  });
});

describe('switching ledgers', () => {
  it('drops every cached query of the previous ledger and keeps the ledger list', () => {
    const client = new QueryClient();
    client.setQueryData(['entries', 'list', {}], { entries: [{ entryId: 1 }], total: 1 });
    client.setQueryData(['bills', 'list'], []);
    client.setQueryData(ledgersQueryKey, [PERSONAL, HOUSEHOLD]);
    expect(switchLedger(client, { id: 7, name: 'Household', role: 'editor' })).toBe(true);
    expect(client.getQueryData(['entries', 'list', {}])).toBeUndefined();
    expect(client.getQueryData(['bills', 'list'])).toBeUndefined();
    expect(client.getQueryData(ledgersQueryKey)).toHaveLength(2);
    // The same ledger again (a new name or role) is no switch: nothing is dropped.
    client.setQueryData(['bills', 'list'], []);
    expect(switchLedger(client, { id: 7, name: 'Home', role: 'viewer' })).toBe(false);
    expect(client.getQueryData(['bills', 'list'])).toEqual([]);
    expect(readLedgerChoice()).toEqual({ id: 7, name: 'Home', role: 'viewer' });
  });

  it('drops the saved views that name the previous ledger’s items, keeps the rest', () => {
    writeSetting(VIEW_KEYS.filters, { invoice: '12', biller: ['Acme'], category: ['Utilities'] });
    writeSetting(VIEW_KEYS.page, 4);
    writeSetting(VIEW_KEYS.pageSize, 50);
    switchLedger(new QueryClient(), { id: 7, name: 'Household', role: 'editor' });
    expect(readSetting(VIEW_KEYS.filters, null)).toEqual({ invoice: '', biller: [], category: ['Utilities'] });
    expect(readSetting(VIEW_KEYS.page, null)).toBe(0);
    expect(readSetting(VIEW_KEYS.pageSize, null)).toBe(50);
  });

  it('leaves a page of one item for Home, and stays on a list', () => {
    expect(pathAfterSwitch('/entries/12')).toBe('/home');
    expect(pathAfterSwitch('/bills/3')).toBe('/home');
    expect(pathAfterSwitch('/entities/3')).toBe('/home');
    expect(pathAfterSwitch('/invoice/3')).toBe('/home');
    expect(pathAfterSwitch('/entities')).toBeNull();
    expect(pathAfterSwitch('/recycle')).toBeNull();
  });
});

describe('LedgerWatcher: the chosen ledger is gone', () => {
  const dom = reactRootPerTest();

  function render(client: QueryClient, path: string) {
    const router = createMemoryRouter([{ path: '*', element: <LedgerWatcher /> }], { initialEntries: [path] });
    act(() =>
      dom.root.render(
        <QueryClientProvider client={client}>
          <NoticeProvider>
            <RouterProvider router={router} />
          </NoticeProvider>
        </QueryClientProvider>,
      ),
    );
    return router;
  }
  const quiet = () =>
    new QueryClient({ defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } } });

  it('falls back to the personal ledger with a notice, and leaves a page of the old ledger’s item', () => {
    chooseLedger({ id: 7, name: 'Household', role: 'editor' });
    const client = quiet();
    client.setQueryData(ledgersQueryKey, [PERSONAL]);
    client.setQueryData(['entries', 'detail', 5], { entryId: 5 });
    const router = render(client, '/entries/5');
    expect(readLedgerChoice()).toBeNull();
    expect(client.getQueryData(['entries', 'detail', 5])).toBeUndefined();
    expect(router.state.location.pathname).toBe('/home');
    expect(document.body.textContent).toContain(
      'You no longer have access to “Household”. Showing your personal ledger.',
    );
  });

  it('keeps a listed ledger and takes over a role changed under the open tab', () => {
    chooseLedger({ id: 7, name: 'Household', role: 'editor' });
    const client = quiet();
    client.setQueryData(ledgersQueryKey, [PERSONAL, ledger(7, 'Household', 'viewer')]);
    const router = render(client, '/entries/5');
    expect(readLedgerChoice()).toEqual({ id: 7, name: 'Household', role: 'viewer' });
    expect(router.state.location.pathname).toBe('/entries/5');
    expect(document.body.textContent).not.toContain('no longer have access');
  });
});
