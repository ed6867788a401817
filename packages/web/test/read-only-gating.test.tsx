import type { CategoryItem } from '@billfold/contract/categories';
import { LEDGER_READ_ONLY_MESSAGE } from '@billfold/contract/ledger-basics';
import type { Ledger } from '@billfold/contract/ledgers';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { categoriesQueryKey } from '../src/api/categories/list-categories.ts';
import { ledgersQueryKey } from '../src/api/ledgers/ledger-queries.ts';
import { accessOf, OWNER_ONLY_REASON } from '../src/components/ledger-access.tsx';
import { NoticeProvider } from '../src/components/notices.tsx';
import { AccountDataSection } from '../src/features/account/AccountDataSection.tsx';
import CategoriesPage from '../src/features/categories/CategoriesPage.tsx';
import InvoiceFormPage from '../src/features/invoices/InvoiceFormPage.tsx';
import { PaymentsTable } from '../src/features/invoices/PaymentsTable.tsx';
import { chooseLedger } from '../src/lib/ledger-choice.ts';
import { clearSession, saveSession } from '../src/lib/session.ts';
import { reactRootPerTest } from './react-root.ts';

const dom = reactRootPerTest();

const ledger = (id: number, role: Ledger['role'], personal = false): Ledger => ({
  id,
  name: personal ? 'Personal' : 'Household',
  role,
  personal,
  memberCount: 2,
  createdAt: '2026-11-20T10:00:00',
});
const OWN: CategoryItem = { id: 3, name: 'Salary', builtIn: false, flow: 'income', retired: false, entities: 0 };

function render(role: Ledger['role'], element: React.ReactNode, path = '/') {
  chooseLedger({ id: 7, name: 'Household', role });
  const client = new QueryClient({
    defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } },
  });
  client.setQueryData(ledgersQueryKey, [ledger(1, 'owner', true), ledger(7, role)]);
  client.setQueryData(categoriesQueryKey, [OWN]);
  client.setQueryData(['bills', 'list', 'all'], []);
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: [path] });
  act(() =>
    dom.root.render(
      <QueryClientProvider client={client}>
        <NoticeProvider>
          <RouterProvider router={router} />
        </NoticeProvider>
      </QueryClientProvider>,
    ),
  );
}

const button = (name: string) =>
  [...document.querySelectorAll<HTMLButtonElement | HTMLAnchorElement>('button, a')].find(
    (b) => b.textContent === name || b.getAttribute('aria-label') === name,
  );
const isDisabled = (element: Element | undefined) =>
  element?.hasAttribute('disabled') || element?.getAttribute('aria-disabled') === 'true';
/** The reason a disabled control shows (its tooltip's wrapper, or its own tooltip title). */
const reasonOf = (element: Element | undefined) =>
  element?.closest('[data-read-only-reason]')?.getAttribute('data-read-only-reason') ??
  element?.closest('span')?.getAttribute('aria-label') ??
  null;

beforeEach(() => saveSession({ accessToken: 'a', refreshToken: 'r', username: 'ann' }));
afterEach(() => {
  chooseLedger(null);
  clearSession();
});

describe('read-only ledgers (docs/decisions/0303-web-ledgers.md)', () => {
  it('only a viewer is read-only; only an owner manages the ledger', () => {
    expect(accessOf('viewer')).toEqual({
      role: 'viewer',
      canWrite: false,
      isOwner: false,
      readOnlyReason: LEDGER_READ_ONLY_MESSAGE,
      ownerOnlyReason: LEDGER_READ_ONLY_MESSAGE,
    });
    expect(accessOf('editor')).toMatchObject({
      canWrite: true,
      isOwner: false,
      readOnlyReason: null,
      ownerOnlyReason: OWNER_ONLY_REASON,
    });
    expect(accessOf('owner')).toMatchObject({
      canWrite: true,
      isOwner: true,
      readOnlyReason: null,
      ownerOnlyReason: null,
    });
  });

  it('a viewer’s write controls are disabled and say why', () => {
    render('viewer', <CategoriesPage />);
    for (const name of ['Add Category', 'Edit Salary', 'Retire Salary']) {
      expect(isDisabled(button(name)), name).toBe(true);
      expect(reasonOf(button(name)), name).toBe(LEDGER_READ_ONLY_MESSAGE);
    }
  });

  it('an editor’s are enabled, with no reason', () => {
    render('editor', <CategoriesPage />);
    for (const name of ['Add Category', 'Edit Salary', 'Retire Salary']) {
      expect(isDisabled(button(name)), name).toBe(false);
      expect(button(name)?.closest('[data-read-only-reason]'), name).toBeNull();
    }
  });

  it('loading a ledger file is its owners’: an editor’s Import Account File says so', () => {
    render('editor', <AccountDataSection />);
    expect(isDisabled(button('Import Account File'))).toBe(true);
    expect(reasonOf(button('Import Account File'))).toBe(OWNER_ONLY_REASON);
  });

  it('an owner’s Import Account File works', () => {
    render('owner', <AccountDataSection />);
    expect(isDisabled(button('Import Account File'))).toBe(false);
    expect(isDisabled(button('Download My Data'))).toBe(false);
  });

  it('a viewer who opens the invoice form by its address reads why instead of a form', () => {
    render('viewer', <InvoiceFormPage />, '/invoice');
    expect(document.querySelector('[data-testid="read-only-banner"]')?.textContent).toBe(LEDGER_READ_ONLY_MESSAGE);
    expect(document.querySelector('form')).toBeNull();
    expect(button('Go to Home')).toBeDefined();
  });

  it('a viewer’s payment rows keep History and disable edit and delete with the reason', () => {
    render(
      'viewer',
      <PaymentsTable
        payments={[
          {
            paymentId: 9,
            entryId: 1,
            date: '2026-11-20',
            amount: 12.5,
            type: 'cash',
            medium: 'person',
            notes: '',
            autopay: false,
            recycle: false,
          } as never,
        ]}
        readOnly
        readOnlyReason={LEDGER_READ_ONLY_MESSAGE}
        onEdit={() => {}}
        onDelete={() => {}}
        onHistory={() => {}}
        onFiles={() => {}}
      />,
    );
    expect(isDisabled(button('Edit payment'))).toBe(true);
    expect(isDisabled(button('Delete payment'))).toBe(true);
    expect(isDisabled(button('Changes to this payment'))).toBe(false);
    expect(isDisabled(button('Files of this payment'))).toBe(false);
  });
});
