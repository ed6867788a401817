import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/**
 * Every screen (docs/product.md, Screens). Each page is its own chunk (loaded on first visit), so the initial download stays
 * small. To add a screen: create `features/<name>/<Name>Page.tsx` with a default export and add a line here.
 */
export interface AppRoute {
  path: string;
  /**
   * `public` routes are reachable signed out: `/` and `/user` (docs/product.md, Who may do what),
   * `/verify-email` and `/reset-password`, the links of emails, which may be opened in any browser, `/forgot-password`,
   * and `/login/oidc`, where
   * a sign-in with the identity provider comes back.
   */
  access: 'public' | 'signed-in';
  Page: LazyExoticComponent<ComponentType>;
}

export const routes: readonly AppRoute[] = [
  { path: '/', access: 'public', Page: lazy(() => import('../features/auth/LoginPage.tsx')) },
  { path: '/user', access: 'public', Page: lazy(() => import('../features/auth/CreateAccountPage.tsx')) },
  { path: '/verify-email', access: 'public', Page: lazy(() => import('../features/account/VerifyEmailPage.tsx')) },
  // A forgotten password (docs/decisions/0723-password-reset.md): asking for a link, and the link itself.
  { path: '/forgot-password', access: 'public', Page: lazy(() => import('../features/auth/ForgotPasswordPage.tsx')) },
  { path: '/reset-password', access: 'public', Page: lazy(() => import('../features/auth/ResetPasswordPage.tsx')) },
  // Where a sign-in with the identity provider ends (docs/decisions/0722-openid-connect-sign-in.md).
  { path: '/login/oidc', access: 'public', Page: lazy(() => import('../features/auth/ProviderSignInPage.tsx')) },
  { path: '/logout', access: 'signed-in', Page: lazy(() => import('../features/auth/LogoutPage.tsx')) },
  { path: '/home', access: 'signed-in', Page: lazy(() => import('../features/home/HomePage.tsx')) },
  { path: '/account', access: 'signed-in', Page: lazy(() => import('../features/account/AccountPage.tsx')) },
  { path: '/entries/:id', access: 'signed-in', Page: lazy(() => import('../features/invoices/InvoicePage.tsx')) },
  { path: '/invoice', access: 'signed-in', Page: lazy(() => import('../features/invoices/InvoiceFormPage.tsx')) },
  { path: '/invoice/:id', access: 'signed-in', Page: lazy(() => import('../features/invoices/InvoiceFormPage.tsx')) },
  { path: '/entities', access: 'signed-in', Page: lazy(() => import('../features/entities/EntitiesPage.tsx')) },
  { path: '/entities/:id', access: 'signed-in', Page: lazy(() => import('../features/entities/EntityPage.tsx')) },
  { path: '/bills/:id', access: 'signed-in', Page: lazy(() => import('../features/entities/EditEntityPage.tsx')) },
  { path: '/archives', access: 'signed-in', Page: lazy(() => import('../features/archives/ArchivesPage.tsx')) },
  { path: '/recycle', access: 'signed-in', Page: lazy(() => import('../features/recycle/RecyclePage.tsx')) },
  { path: '/import', access: 'signed-in', Page: lazy(() => import('../features/imports/ImportPage.tsx')) },
  { path: '/ledgers', access: 'signed-in', Page: lazy(() => import('../features/ledgers/LedgersPage.tsx')) },
  { path: '/ledgers/:id', access: 'signed-in', Page: lazy(() => import('../features/ledgers/LedgerPage.tsx')) },
  // A signed-out visitor signs in (or creates an account) and comes back, token and all (docs/decisions/0303-web-ledgers.md).
  { path: '/invite', access: 'signed-in', Page: lazy(() => import('../features/ledgers/InvitePage.tsx')) },
  {
    path: '/categories',
    access: 'signed-in',
    Page: lazy(() => import('../features/categories/CategoriesPage.tsx')),
  },
];

export const NotFoundPage = lazy(() => import('./NotFoundPage.tsx'));
