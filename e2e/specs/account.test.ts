import type { User } from '@billfold/contract/users';
import { describe, expect, it } from 'vitest';
import { AccountPage } from '../pages/account-page.ts';
import { LoginPage } from '../pages/login-page.ts';
import { TopBar } from '../pages/top-bar.ts';
import { apiLogin } from '../support/api.ts';
import { baseUrl, screenshot, useBrowser } from '../support/browser.ts';
import { loginAs, pathOf, signUpAndLogin } from '../support/session.ts';
import { shownUntilPath, watchTimeline } from '../support/timeline.ts';

const browser = useBrowser();

const WEAK = 'Password must be at least 8 characters, include uppercase, lowercase, a number, and a special character.';

async function loginStatus(username: string, password: string): Promise<number> {
  const res = await fetch(`${baseUrl()}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return res.status;
}

describe('account page', () => {
  it('shows the account, with UTC timestamps in the user’s own time zone', async () => {
    const page = await browser.newPage({ timezoneId: 'America/New_York' });
    const user = await signUpAndLogin(page);
    await new TopBar(page).goToAccount(user.username);
    const account = new AccountPage(page);
    await account.heading.waitFor();
    await account.value('Username').waitFor();
    expect(pathOf(page)).toBe('/account');

    const server = await (await apiLogin(user)).request<User>('GET', `/user?userName=${user.username}`);
    const newYork = new Intl.DateTimeFormat('en-US', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'America/New_York',
    });
    await expect(account.value('Username').textContent()).resolves.toBe(user.username);
    await expect(account.value('Email').textContent()).resolves.toBe(user.email);
    await expect(account.value('User Role').textContent()).resolves.toBe('User');
    await expect(account.value('Account Created').textContent()).resolves.toBe(
      newYork.format(new Date(`${server.createdAt}Z`)),
    );
    await expect(account.value('Last Login').textContent()).resolves.toMatch(/^\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}/);
    await expect(account.value('MFA').textContent()).resolves.toMatch(/^Off/);
    await screenshot(page, 'account');
    expect(browser.pageErrors).toEqual([]);
  });

  it('changes the email, after checking the form and the password', async () => {
    const page = await browser.newPage();
    const user = await signUpAndLogin(page);
    const account = await new AccountPage(page).goto();

    await account.changeEmail('not-an-email', user.password);
    await account.dialogError.filter({ hasText: 'Please enter a valid email address.' }).waitFor();
    await account.dialog.getByLabel('New Email').fill(`new.${user.email}`);
    await account.dialog.getByLabel('Password', { exact: true }).fill('');
    await account.dialog.getByRole('button', { name: 'Save' }).click();
    await account.dialogError.filter({ hasText: 'Password required.' }).waitFor();
    await screenshot(page, 'account-change-email');

    await account.dialog.getByLabel('Password', { exact: true }).fill('Wrong!Passw0rd');
    await account.dialog.getByRole('button', { name: 'Save' }).click();
    await account.notice.filter({ hasText: 'Failed to update email.' }).waitFor();
    await expect(account.dialog.isVisible()).resolves.toBe(true);

    await account.dialog.getByLabel('Password', { exact: true }).fill(user.password);
    await account.dialog.getByRole('button', { name: 'Save' }).click();
    await account.notice.filter({ hasText: 'Email updated.' }).waitFor();
    await account.dialog.waitFor({ state: 'hidden' });
    await account
      .value('Email')
      .filter({ hasText: `new.${user.email}` })
      .waitFor();
    await screenshot(page, 'account-email-updated');

    // The server has it, and the page shows it after a reload too.
    const server = await (await apiLogin(user)).request<User>('GET', `/user?userName=${user.username}`);
    expect(server.email).toBe(`new.${user.email}`);
    await page.reload();
    await account
      .value('Email')
      .filter({ hasText: `new.${user.email}` })
      .waitFor();
  });

  it('changes the password: validation, then the new password signs in and the old one does not', async () => {
    const page = await browser.newPage();
    const user = await signUpAndLogin(page);
    const account = await new AccountPage(page).goto();
    const next = 'N3w!Password';

    await account.changePassword(user.password, '', '');
    await account.dialogError.filter({ hasText: 'All fields required.' }).waitFor();
    await account.changePasswordFields(user.password, next, `${next}x`);
    await account.dialogError.filter({ hasText: 'Passwords do not match.' }).waitFor();
    await account.changePasswordFields(user.password, 'weakpass', 'weakpass');
    await account.dialogError.filter({ hasText: WEAK }).waitFor();
    await screenshot(page, 'account-change-password');
    await account.changePasswordFields('Wrong!Passw0rd', next, next);
    await account.notice.filter({ hasText: 'Failed to change password.' }).waitFor();

    await account.changePasswordFields(user.password, next, next);
    await account.notice.filter({ hasText: 'Password changed successfully.' }).waitFor();
    await account.dialog.waitFor({ state: 'hidden' });

    expect(await loginStatus(user.username, user.password)).toBe(401);
    expect(await loginStatus(user.username, next)).toBe(200);
    // The session goes on (the app signed in again with the new password), and a fresh login works.
    await page.reload();
    await account.value('Username').waitFor();
    await new TopBar(page).logout(user.username);
    await new LoginPage(page).notice.filter({ hasText: 'You have been logged out' }).waitFor();
    await loginAs(page, { ...user, password: next });
  });

  it('deactivates the account and logs out after 1.5 s; logging in again reactivates it', async () => {
    const page = await browser.newPage();
    const user = await signUpAndLogin(page);
    const account = await new AccountPage(page).goto();
    await page.getByRole('button', { name: 'Deactivate Account' }).click();
    await account.dialog.getByRole('button', { name: 'Deactivate' }).click();
    await account.dialogError.filter({ hasText: 'Password required.' }).waitFor();
    await screenshot(page, 'account-deactivate');
    await account.dialog.getByLabel('Password', { exact: true }).fill(user.password);
    await watchTimeline(page, 'Account deactivated. You will be logged out.');
    await account.dialog.getByRole('button', { name: 'Deactivate' }).click();
    await account.notice.filter({ hasText: 'Account deactivated. You will be logged out.' }).waitFor();
    expect(pathOf(page)).toBe('/account');
    const login = new LoginPage(page);
    await login.heading.waitFor({ timeout: 5000 });
    const loggedOutAfter = await shownUntilPath(page, '/logout');
    expect(loggedOutAfter).toBeGreaterThan(1000);
    expect(loggedOutAfter).toBeLessThan(3000);
    await login.notice.filter({ hasText: 'You have been logged out' }).waitFor();

    await loginAs(page, user);
  });
});

describe('small screens', () => {
  it('lays the account page out in one column on a phone', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const user = await signUpAndLogin(page);
    await screenshot(page, 'home-mobile');
    const account = await new AccountPage(page).goto();
    await expect(account.value('Email').textContent()).resolves.toBe(user.email);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await screenshot(page, 'account-mobile');
  });
});

describe('account page failures', () => {
  it('says so when the user data cannot be loaded', async () => {
    const page = await browser.newPage();
    await signUpAndLogin(page);
    await page.route('**/api/v1/user?**', (route) => route.fulfill({ status: 500, body: '' }));
    await page.goto('/account');
    await page.getByRole('alert').filter({ hasText: 'Failed to load user data.' }).waitFor();
  });
});
