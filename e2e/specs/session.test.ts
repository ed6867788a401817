import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { AccountPage } from '../pages/account-page.ts';
import { LoginPage } from '../pages/login-page.ts';
import { apiLogin, createUser } from '../support/api.ts';
import { useBrowser } from '../support/browser.ts';
import { countRefreshes, pathOf, sessionStorageOf, waitForPath } from '../support/session.ts';
import { forgedAccessToken } from '../support/tokens.ts';

const browser = useBrowser();

/** Puts tokens into the page's session storage the way a previous visit would have left them. */
async function storeSession(page: Page, session: { accessToken: string; refreshToken: string; username: string }) {
  await page.goto('/no-such-page-to-set-storage');
  await page.evaluate((values) => {
    for (const [key, value] of Object.entries(values)) sessionStorage.setItem(key, value);
  }, session);
}

/**
 * Two tabs of one browser holding one sign-in, open on the Account page, whose access tokens then ran out at once
 * (a laptop waking up); the refresh token is still good.
 */
async function twoTabsWhoseTokensExpired() {
  const user = await createUser();
  const api = await apiLogin(user);
  const first = await browser.newPage();
  await storeSession(first, { accessToken: api.accessToken, refreshToken: api.refreshToken, username: user.username });
  await first.evaluate(() => sessionStorage.setItem('sessionId', 'one-sign-in'));
  await new AccountPage(first).goto();
  const second = await first.context().newPage();
  await new AccountPage(second).goto();
  expect((await sessionStorageOf(second)).sessionId).toBe('one-sign-in');
  const expired = forgedAccessToken(-60);
  for (const tab of [first, second])
    await tab.evaluate((token) => sessionStorage.setItem('accessToken', token), expired);
  return { user, api, first, second };
}

describe('token refresh in the browser', () => {
  it('a new tab receives the session of an open one whose access token expired, renews it once, and both keep it', async () => {
    const user = await createUser();
    const api = await apiLogin(user);
    const first = await browser.newPage();
    await storeSession(first, {
      accessToken: forgedAccessToken(-60),
      refreshToken: api.refreshToken,
      username: user.username,
    });
    await first.evaluate(() => sessionStorage.setItem('sessionId', 'one-sign-in'));
    // Counted from the reload: the first tab's top bar may renew the token before or after the second tab asks.
    const refreshes = countRefreshes(first.context());
    await first.reload(); // the app starts holding this session, and answers new tabs with it

    const second = await first.context().newPage();
    const account = await new AccountPage(second).goto();
    await expect(account.value('Username').textContent()).resolves.toBe(user.username);
    expect(refreshes()).toBe(1);
    const renewed = await sessionStorageOf(second);
    expect(renewed.sessionId).toBe('one-sign-in');
    expect(renewed.refreshToken).not.toBe(api.refreshToken);
    // The first tab took the renewed tokens: it will not present the spent refresh token.
    await first.waitForFunction((token) => sessionStorage.getItem('refreshToken') === token, renewed.refreshToken);
    expect((await sessionStorageOf(first)).accessToken).toBe(renewed.accessToken);
  });

  it('two open tabs whose access tokens expired together renew once between them, and both keep the new tokens', async () => {
    const { user, api, first, second } = await twoTabsWhoseTokensExpired();
    // Both open a guarded page at the same moment.
    const refreshes = countRefreshes(first.context());
    const pages = [new AccountPage(first), new AccountPage(second)];
    await Promise.all(pages.map((page) => page.goto()));
    for (const page of pages) await expect(page.value('Username').textContent()).resolves.toBe(user.username);
    expect(refreshes()).toBe(1);
    const [one, two] = [await sessionStorageOf(first), await sessionStorageOf(second)];
    expect(one.refreshToken).not.toBe(api.refreshToken);
    expect(two.refreshToken).toBe(one.refreshToken);
    expect(two.accessToken).toBe(one.accessToken);
  });

  it('a tab that was loading while another renewed asks for the new tokens instead of renewing again', async () => {
    const { user, api, first, second } = await twoTabsWhoseTokensExpired();
    // The second tab leaves the app (its channel closes, its session storage stays) while the first renews: it
    // misses the renewed tokens the first one posts.
    await second.goto('about:blank');
    const refreshes = countRefreshes(first.context());
    const one = new AccountPage(first);
    await one.goto();
    await expect(one.value('Username').textContent()).resolves.toBe(user.username);
    expect(refreshes()).toBe(1);
    const two = await new AccountPage(second).goto();
    await expect(two.value('Username').textContent()).resolves.toBe(user.username);
    expect(refreshes()).toBe(1);
    const [held, asked] = [await sessionStorageOf(first), await sessionStorageOf(second)];
    expect(held.refreshToken).not.toBe(api.refreshToken);
    expect(asked.refreshToken).toBe(held.refreshToken);
    expect(asked.accessToken).toBe(held.accessToken);
  });

  it('renews an expired access token with the refresh token before showing a guarded page', async () => {
    const user = await createUser();
    const api = await apiLogin(user);
    const page = await browser.newPage();
    await storeSession(page, {
      accessToken: forgedAccessToken(-60),
      refreshToken: api.refreshToken,
      username: user.username,
    });
    const refreshes = countRefreshes(page);
    const account = await new AccountPage(page).goto();
    await expect(account.value('Username').textContent()).resolves.toBe(user.username);
    expect(refreshes()).toBe(1);
    const stored = await sessionStorageOf(page);
    expect(stored.refreshToken).not.toBe(api.refreshToken);
    expect(stored.accessToken).not.toContain('forged');
  });

  it('on a 401 refreshes once (JSON body), stores the new tokens and retries the call', async () => {
    const user = await createUser();
    const api = await apiLogin(user);
    const page = await browser.newPage();
    await storeSession(page, {
      accessToken: forgedAccessToken(600),
      refreshToken: api.refreshToken,
      username: user.username,
    });
    const refreshBodies: (string | null)[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/auth/refresh')) refreshBodies.push(request.postData());
    });
    const account = await new AccountPage(page).goto();
    await expect(account.value('Email').textContent()).resolves.toBe(user.email);
    expect(refreshBodies).toEqual([JSON.stringify({ refreshToken: api.refreshToken })]);
    const stored = await sessionStorageOf(page);
    expect(stored.accessToken).not.toContain('forged');
    // The stored tokens are the live ones: the server accepts them.
    const status = await page.evaluate(async (name) => {
      const res = await fetch(`/api/v1/user?userName=${name}`, {
        headers: { authorization: `Bearer ${sessionStorage.getItem('accessToken')}` },
      });
      return res.status;
    }, user.username);
    expect(status).toBe(200);
  });

  it('ends the session to / with its notice when the refresh fails, and signing in returns to the page', async () => {
    const user = await createUser();
    const page = await browser.newPage();
    await storeSession(page, {
      accessToken: forgedAccessToken(600),
      refreshToken: 'revoked-or-unknown',
      username: user.username,
    });
    await page.goto('/account');
    const login = new LoginPage(page);
    await login.heading.waitFor();
    await login.notice.filter({ hasText: 'Your session has ended. Please log in again.' }).waitFor();
    expect(pathOf(page)).toBe('/');
    await expect(sessionStorageOf(page)).resolves.toEqual({});
    await login.login(user.username, user.password);
    await waitForPath(page, '/account');
  });

  it('signs out to / when the access token expired and the refresh token is refused', async () => {
    const user = await createUser();
    const page = await browser.newPage();
    await storeSession(page, {
      accessToken: forgedAccessToken(-60),
      refreshToken: 'revoked-or-unknown',
      username: user.username,
    });
    await page.goto('/home');
    const login = new LoginPage(page);
    await login.heading.waitFor();
    await login.notice.filter({ hasText: 'Your session has ended. Please log in again.' }).waitFor();
    expect(pathOf(page)).toBe('/');
    await expect(sessionStorageOf(page)).resolves.toEqual({});
  });
});
