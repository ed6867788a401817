import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll } from 'vitest';
import { HomePage } from '../pages/home-page.ts';
import { LoginPage } from '../pages/login-page.ts';
import { type ApiSession, createSignedInUser, createUser, type UserData } from './api.ts';

/** A new account (created through the API) signed in through the login form; the page ends on `/home`. */
export async function signUpAndLogin(page: Page, overrides: Partial<UserData> = {}): Promise<UserData> {
  const user = await createUser(overrides);
  await loginAs(page, user);
  return user;
}

/** Signs in through the login form and waits for `/home`. */
export async function loginAs(page: Page, user: UserData): Promise<void> {
  const login = await new LoginPage(page).goto();
  await login.login(user.username, user.password);
  await page.waitForURL('**/home');
  await new HomePage(page).heading.waitFor();
}

/** Everything the app keeps in session storage, as a plain object. */
export function sessionStorageOf(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => {
    const entries: Record<string, string> = {};
    for (let i = 0; i < sessionStorage.length; i += 1) {
      const key = sessionStorage.key(i);
      if (key !== null) entries[key] = sessionStorage.getItem(key) ?? '';
    }
    return entries;
  });
}

export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/** Waits until the app's route (path only) is `path`; client-side redirects settle after navigation events. */
export async function waitForPath(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === path);
}

/**
 * One signed-up account for a whole spec file (sign-ups from one address are limited to 50 in 15 minutes): its
 * `api` and `user` are set before the first test. Tests sharing it keep to data they seed themselves.
 */
export function useSpecAccount(): { api: ApiSession; user: UserData } {
  const account = {} as { api: ApiSession; user: UserData };
  beforeAll(async () => {
    account.api = await createSignedInUser();
    account.user = account.api.user;
  });
  return account;
}

/** Counts the token refreshes sent from now on by a tab, or by every tab of a browser context. */
export function countRefreshes(target: Page | BrowserContext): () => number {
  let count = 0;
  target.on('request', (request) => {
    if (request.url().includes('/api/v1/auth/refresh')) count += 1;
  });
  return () => count;
}
