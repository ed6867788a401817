import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AccountPage } from '../pages/account-page.ts';
import { HomePage } from '../pages/home-page.ts';
import { LoginPage } from '../pages/login-page.ts';
import { TopBar } from '../pages/top-bar.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import { signUpAndLogin, waitForPath } from '../support/session.ts';
import { totp } from '../support/totp.ts';

const browser = useBrowser();
const STEP = 30_000;

describe('two-factor sign-in', () => {
  it('enrols from the account page, then signs in with a code from the app and with a recovery code', async () => {
    const page = await browser.newPage();
    const user = await signUpAndLogin(page);
    const account = await new AccountPage(page).goto();
    await expect(account.value('MFA').textContent()).resolves.toMatch(/^Off/);

    // Step 1: the password.
    await page.getByRole('button', { name: 'Enable MFA' }).click();
    await account.dialog.getByRole('heading', { name: 'Enable MFA' }).waitFor();
    await account.dialog.getByLabel('Password', { exact: true }).fill('Wrong!Passw0rd');
    await account.dialog.getByRole('button', { name: 'Continue' }).click();
    await account.dialogError.filter({ hasText: 'Failed to enable MFA. Current password is incorrect.' }).waitFor();
    await account.dialog.getByLabel('Password', { exact: true }).fill(user.password);
    await account.dialog.getByRole('button', { name: 'Continue' }).click();

    // Step 2: the QR code drawn in the browser, the key as text, and a code from the app.
    const qr = account.dialog.getByRole('img', { name: 'QR code to add Billfold to your authenticator app' });
    await qr.waitFor();
    await expect(qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).resolves.toBe(true);
    const secret = ((await account.dialog.getByTestId('mfa-secret').textContent()) ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await screenshot(page, 'mfa-enable-scan');
    const codeField = account.dialog.getByLabel('Authentication Code');
    await codeField.fill(totp(secret, Date.now() + 10 * STEP));
    await account.dialog.getByRole('button', { name: 'Enable MFA' }).click();
    await account.dialogError.filter({ hasText: 'Invalid authentication code.' }).waitFor();
    await codeField.fill(totp(secret));
    await account.dialog.getByRole('button', { name: 'Enable MFA' }).click();

    // Step 3: ten recovery codes, shown once, to download.
    await account.dialog.getByRole('heading', { name: 'Save Your Recovery Codes' }).waitFor();
    const codes = await account.dialog
      .getByRole('list', { name: 'Recovery codes' })
      .getByRole('listitem')
      .allTextContents();
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    await screenshot(page, 'mfa-recovery-codes');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      account.dialog.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('billfold-recovery-codes.txt');
    const saved = readFileSync(await download.path(), 'utf8');
    for (const code of codes) expect(saved).toContain(code);
    await account.dialog.getByRole('button', { name: 'Done' }).click();
    await account.dialog.waitFor({ state: 'hidden' });
    await account.value('MFA').filter({ hasText: 'On' }).waitFor();
    await page.getByText('10 of 10 recovery codes left').waitFor();
    await screenshot(page, 'mfa-on');

    // Sign in again: the password, then a code (the next step's: this step's code was just used).
    const login = new LoginPage(page);
    const logout = async () => {
      await new TopBar(page).logout(user.username);
      await login.notice.filter({ hasText: 'You have been logged out' }).waitFor();
    };
    await logout();
    await login.login(user.username, user.password);
    const loginCode = page.getByLabel('Authentication Code');
    await loginCode.waitFor();
    await screenshot(page, 'mfa-login-code');
    await loginCode.fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await login.notice.filter({ hasText: 'Invalid authentication code.' }).waitFor();
    await loginCode.fill(totp(secret, Date.now() + STEP));
    await page.getByRole('button', { name: 'Verify' }).click();
    await waitForPath(page, '/home');
    await new HomePage(page).heading.waitFor();

    // And with a recovery code, which then counts as used.
    await logout();
    await login.login(user.username, user.password);
    await page.getByLabel('Authentication Code').fill(codes[0] ?? '');
    await page.getByRole('button', { name: 'Verify' }).click();
    await waitForPath(page, '/home');
    await account.goto();
    await page.getByText('9 of 10 recovery codes left').waitFor();

    // Ten new recovery codes, with the password and a code; the old ones stop working.
    await page.getByRole('button', { name: 'New Recovery Codes' }).click();
    await account.dialog.getByLabel('Password', { exact: true }).fill(user.password);
    await account.dialog.getByLabel('Authentication Code').fill(codes[1] ?? '');
    await account.dialog.getByRole('button', { name: 'Create New Codes' }).click();
    await account.dialog.getByRole('heading', { name: 'Save Your Recovery Codes' }).waitFor();
    const fresh = await account.dialog
      .getByRole('list', { name: 'Recovery codes' })
      .getByRole('listitem')
      .allTextContents();
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => codes.includes(code))).toEqual([]);
    await account.dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByText('10 of 10 recovery codes left').waitFor();

    // A new password: the server ends every session, and the dialog signs this one in again with a code.
    const newPassword = 'N3w!Passw0rd-mfa';
    await page.getByRole('button', { name: 'Change Password' }).click();
    await account.dialog.getByLabel('Authentication Code').fill(fresh[1] ?? '');
    await account.changePasswordFields(user.password, newPassword);
    await account.notice.filter({ hasText: 'Password changed successfully.' }).waitFor();
    await page.reload();
    await account.value('Username').filter({ hasText: user.username }).waitFor();
    await page.getByText('9 of 10 recovery codes left').waitFor();

    // Off again, with the password and a recovery code (an old one is refused).
    await page.getByRole('button', { name: 'Disable MFA' }).click();
    await account.dialog.getByLabel('Password', { exact: true }).fill(newPassword);
    await account.dialog.getByLabel('Authentication Code').fill(codes[2] ?? '');
    await account.dialog.getByRole('button', { name: 'Disable MFA' }).click();
    await account.dialogError.filter({ hasText: 'Failed to disable MFA. Invalid authentication code.' }).waitFor();
    await account.dialog.getByLabel('Authentication Code').fill(fresh[0] ?? '');
    await screenshot(page, 'mfa-disable');
    await account.dialog.getByRole('button', { name: 'Disable MFA' }).click();
    await account.notice.filter({ hasText: 'MFA disabled.' }).waitFor();
    await account.value('MFA').filter({ hasText: 'Off' }).waitFor();
    expect(browser.pageErrors).toEqual([]);
  });
});
