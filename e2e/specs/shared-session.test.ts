import type { Bill } from '@billfold/contract/bills';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { AccountPage } from '../pages/account-page.ts';
import { LoginPage } from '../pages/login-page.ts';
import { TopBar } from '../pages/top-bar.ts';
import { apiLogin, createUser } from '../support/api.ts';
import { baseUrl, screenshot, useBrowser } from '../support/browser.ts';
import { countRefreshes, loginAs, pathOf, sessionStorageOf, waitForPath } from '../support/session.ts';
import { forgedAccessToken } from '../support/tokens.ts';

const browser = useBrowser();

/** The suite's server tolerates a repeated refresh for 2 s (global-setup); waiting longer makes repeats theft. */
const PAST_REUSE_INTERVAL_MS = 2_500;
const SESSION_ENDED = 'Your session has ended. Please log in again.';

/** The tab's access token is refused from now on (as an expired one is): its next call must refresh. */
async function spoilAccessToken(page: Page): Promise<void> {
  await page.evaluate((token) => sessionStorage.setItem('accessToken', token), forgedAccessToken(600));
}

const tokensOf = async (page: Page) => {
  const { accessToken, refreshToken, sessionId } = await sessionStorageOf(page);
  return { accessToken, refreshToken, sessionId };
};

describe('one session for every tab of the browser', () => {
  it('keep each other signed in through refreshes, and a logout in one logs out the other', async () => {
    const user = await createUser();
    const tabA = await browser.newPage();
    await loginAs(tabA, user);
    await new AccountPage(tabA).goto();
    // A duplicated tab: the browser copies session storage into a window the app opens.
    const [tabB] = await Promise.all([
      tabA.context().waitForEvent('page'),
      tabA.evaluate(() => window.open('/account')),
    ]);
    const accountB = new AccountPage(tabB);
    await expect(accountB.value('Username').textContent()).resolves.toBe(user.username);
    const first = await tokensOf(tabA);
    expect(await tokensOf(tabB)).toEqual(first);
    expect(first.sessionId).toBeTruthy();
    const refreshesA = countRefreshes(tabA);
    const refreshesB = countRefreshes(tabB);

    // Tab A refreshes; tab B takes its new tokens.
    await spoilAccessToken(tabA);
    await tabA.reload();
    await expect(new AccountPage(tabA).value('Username').textContent()).resolves.toBe(user.username);
    expect(refreshesA()).toBe(1);
    await tabB.waitForFunction((old) => sessionStorage.getItem('refreshToken') !== old, first.refreshToken);
    const second = await tokensOf(tabA);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(await tokensOf(tabB)).toEqual(second);

    // Long after A's refresh, tab B refreshes with what it holds: A's tokens, not the spent ones it started with.
    await tabB.waitForTimeout(PAST_REUSE_INTERVAL_MS);
    await spoilAccessToken(tabB);
    await tabB.reload();
    await expect(accountB.value('Username').textContent()).resolves.toBe(user.username);
    expect(pathOf(tabB)).toBe('/account');
    expect(refreshesB()).toBe(1);
    await tabA.waitForFunction((old) => sessionStorage.getItem('refreshToken') !== old, second.refreshToken);
    const third = await tokensOf(tabB);
    expect(await tokensOf(tabA)).toEqual(third);

    // Both still work, well past every reuse interval: tab A calls the server with B's tokens.
    await tabA.waitForTimeout(PAST_REUSE_INTERVAL_MS);
    await tabA.reload();
    await expect(new AccountPage(tabA).value('Username').textContent()).resolves.toBe(user.username);
    expect(refreshesA()).toBe(1);
    await screenshot(tabB, 'shared-session-second-tab');

    // A logout in one tab ends the session in the other.
    await new TopBar(tabA).logout(user.username);
    await waitForPath(tabA, '/');
    await waitForPath(tabB, '/');
    await new LoginPage(tabB).notice.filter({ hasText: 'You have been logged out' }).waitFor();
    await expect(sessionStorageOf(tabB)).resolves.toEqual({});
    expect(browser.pageErrors).toEqual([]);
  });

  it('a new tab of the browser receives the session on a deep link, and keeps refreshes coherent with the others', async () => {
    const user = await createUser();
    const api = await apiLogin(user);
    const bill = await api.request<Bill>('POST', '/bills', { name: 'Deep Link Gas Co' });
    const tabA = await browser.newPage();
    await loginAs(tabA, user);
    const logins = { count: 0 };
    tabA.context().on('request', (request) => {
      if (request.url().includes('/api/v1/auth/login')) logins.count += 1;
    });

    // A bookmark or a Ctrl+click: a new tab of the same browser, with empty session storage of its own.
    const tabB = await tabA.context().newPage();
    await tabB.goto(`/entities/${bill.id}`);
    await tabB.getByText('Deep Link Gas Co').first().waitFor();
    expect(pathOf(tabB)).toBe(`/entities/${bill.id}`);
    await expect(new LoginPage(tabB).heading.count()).resolves.toBe(0);
    expect(logins.count).toBe(0);
    const first = await tokensOf(tabA);
    expect(await tokensOf(tabB)).toEqual(first);
    await screenshot(tabB, 'shared-session-new-tab-deep-link');

    // The new tab refreshes (well past the reuse interval); the first takes its tokens and keeps working.
    const refreshesA = countRefreshes(tabA);
    await tabB.waitForTimeout(PAST_REUSE_INTERVAL_MS);
    await spoilAccessToken(tabB);
    await tabB.reload();
    await tabB.getByText('Deep Link Gas Co').first().waitFor();
    await tabA.waitForFunction((old) => sessionStorage.getItem('refreshToken') !== old, first.refreshToken);
    expect(await tokensOf(tabA)).toEqual(await tokensOf(tabB));
    await tabA.waitForTimeout(PAST_REUSE_INTERVAL_MS);
    await spoilAccessToken(tabA);
    const account = await new AccountPage(tabA).goto();
    await expect(account.value('Username').textContent()).resolves.toBe(user.username);
    expect(refreshesA()).toBe(1);
    // Nothing of the session is left where it would outlive the tabs.
    const local = await tabA.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(local).not.toContain(first.sessionId);
    expect(local).not.toContain('refreshToken');
    expect(browser.pageErrors).toEqual([]);
  });

  it('a logout in one tab ends the session in every tab', async () => {
    const user = await createUser();
    const tabA = await browser.newPage();
    await loginAs(tabA, user);
    const tabB = await tabA.context().newPage();
    await new AccountPage(tabB).goto();
    await expect(new AccountPage(tabB).value('Username').textContent()).resolves.toBe(user.username);
    const tabC = await tabA.context().newPage();
    await tabC.goto('/recycle');
    await tabC.getByRole('heading', { name: 'Recycle Bin', level: 1 }).waitFor();

    await new TopBar(tabB).logout(user.username);
    for (const tab of [tabA, tabB, tabC]) {
      await waitForPath(tab, '/');
      await new LoginPage(tab).notice.filter({ hasText: 'You have been logged out' }).waitFor();
      await expect(sessionStorageOf(tab)).resolves.toEqual({});
    }
    // Signed out everywhere: a new tab now asks in vain and shows the login page.
    const tabD = await tabA.context().newPage();
    await tabD.goto('/home');
    await new LoginPage(tabD).heading.waitFor();
    expect(pathOf(tabD)).toBe('/');
  });

  it('with every tab closed the session is over: a new tab shows the login page', async () => {
    const user = await createUser();
    const tabA = await browser.newPage();
    await loginAs(tabA, user);
    const tabB = await tabA.context().newPage();
    await tabB.goto('/account');
    await new AccountPage(tabB).value('Username').waitFor();
    const context = tabA.context();
    await tabA.close();
    await tabB.close();

    const tabC = await context.newPage();
    await tabC.goto('/account');
    const login = new LoginPage(tabC);
    await login.heading.waitFor();
    expect(pathOf(tabC)).toBe('/');
    await expect(sessionStorageOf(tabC)).resolves.toEqual({});
    await screenshot(tabC, 'shared-session-all-tabs-closed');
    // Signing in returns to the page asked for, and a tab opened next receives this session.
    await login.login(user.username, user.password);
    await waitForPath(tabC, '/account');
    const tabD = await context.newPage();
    await tabD.goto('/account');
    await expect(new AccountPage(tabD).value('Username').textContent()).resolves.toBe(user.username);
  });
});

describe('an ended session', () => {
  it('lands on / with a notice, and signing in returns to the page the user was on', async () => {
    const user = await createUser();
    const page = await browser.newPage();
    await loginAs(page, user);
    const api = await apiLogin(user);
    const bill = await api.request<Bill>('POST', '/bills', { name: 'Return Works Ltd' });
    await page.goto(`/entities/${bill.id}`);
    await page.getByText('Return Works Ltd').first().waitFor();

    // The session ends elsewhere: a password change stops every token of the account at once.
    const newPassword = 'N3w!Passw0rd';
    await api.request('PUT', '/user', { password: user.password, newPassword });
    await page.reload();
    const login = new LoginPage(page);
    await login.notice.filter({ hasText: SESSION_ENDED }).waitFor();
    expect(pathOf(page)).toBe('/');
    await screenshot(page, 'login-session-ended');
    await expect(sessionStorageOf(page)).resolves.toEqual({});

    await login.login(user.username, newPassword);
    await waitForPath(page, `/entities/${bill.id}`);
    await page.getByText('Return Works Ltd').first().waitFor();
  });

  it('never returns to another site, whatever the page state says', async () => {
    const user = await createUser();
    const page = await browser.newPage();
    for (const from of [
      '//evil.example/steal',
      'https://evil.example/steal',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      await page.goto('/');
      // React Router keeps location state in history.state.usr: forge it as a hostile script or extension could.
      await page.evaluate((target) => {
        history.replaceState({ usr: { flag: 'sessionEnded', from: target }, key: 'forged', idx: 0 }, '', '/');
      }, from);
      await page.reload();
      const login = new LoginPage(page);
      await login.login(user.username, user.password);
      await waitForPath(page, '/home');
      expect(new URL(page.url()).origin).toBe(baseUrl());
      await new TopBar(page).logout(user.username);
      await waitForPath(page, '/');
    }
  });
});

describe('a throttled login', () => {
  it("shows the server's message, which says when to try again", async () => {
    const user = await createUser();
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${baseUrl()}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: user.email, password: 'Wrong!Passw0rd' }),
      });
      expect(res.status).toBe(401);
    }
    const page = await browser.newPage();
    const login = await new LoginPage(page).goto();
    await login.login(user.username.toUpperCase(), user.password);
    await login.notice.filter({ hasText: 'Too many failed sign-in attempts. Try again in 15 minutes.' }).waitFor();
    await screenshot(page, 'login-throttled');
    expect(pathOf(page)).toBe('/');
  });
});
