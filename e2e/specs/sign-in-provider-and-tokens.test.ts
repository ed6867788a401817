/**
 * Sign-in with an identity provider and API tokens (docs/decisions/0721-api-tokens.md, 0722-openid-connect-sign-in.md),
 * on a server of this spec's own with a real OpenID provider beside it (support/identity-provider.ts): Chromium
 * walks the provider's redirects and the app's callback for real.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountPage } from '../pages/account-page.ts';
import { HomePage } from '../pages/home-page.ts';
import { createSignedInUser } from '../support/api.ts';
import { screenshotBothThemes, useBrowser } from '../support/browser.ts';
import { type IdentityProvider, startIdentityProvider } from '../support/identity-provider.ts';
import { freePort, startServer, type TestServer } from '../support/server.ts';
import { loginAs } from '../support/session.ts';

const browser = useBrowser();

let provider: IdentityProvider;
let server: TestServer;

beforeAll(async () => {
  const issuerPort = await freePort();
  server = await startServer((baseUrl) => ({
    OIDC_ISSUER: `http://127.0.0.1:${issuerPort}`,
    OIDC_CLIENT_ID: 'billfold-e2e',
    OIDC_CLIENT_SECRET: 'billfold-e2e-client-secret-0123456789',
    OIDC_NAME: 'Authelia',
    PUBLIC_URL: baseUrl,
  }));
  provider = await startIdentityProvider(`${server.baseUrl}/api/v1/auth/oidc/callback`, issuerPort);
});

afterAll(async () => {
  await server?.stop();
  await provider?.close();
});

/** Screenshots at desktop and phone width, light and dark. */
async function shoot(page: Page, name: string) {
  for (const [width, suffix] of [
    [1366, 'desktop'],
    [390, 'phone'],
  ] as const) {
    await page.setViewportSize({ width, height: width === 1366 ? 900 : 844 });
    await screenshotBothThemes(page, `${name}-${suffix}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('API tokens on the Account page', () => {
  it('creates a token shown once, which reads but cannot write, lists its last use, and revokes it', async () => {
    const api = await createSignedInUser({}, server.baseUrl);
    const page = await browser.newPage({ baseUrl: server.baseUrl });
    await loginAs(page, api.user);
    const account = await new AccountPage(page).goto();
    const section = page.getByRole('region', { name: 'API Tokens' });
    await expect.poll(() => section.getByText('You have no API tokens.').isVisible()).toBe(true);

    await section.getByRole('button', { name: 'New Token' }).click();
    await account.dialog.getByLabel('Name').fill('Home Assistant');
    await account.dialog.getByLabel('Read only').check();
    await shoot(page, 'api-token-form');
    await account.dialog.getByRole('button', { name: 'Create Token' }).click();
    await account.dialog.getByRole('heading', { name: 'Copy Your Token' }).waitFor();
    const token = (await account.dialog.getByTestId('new-api-token').textContent()) ?? '';
    expect(token).toMatch(/^bf_[A-Za-z0-9_-]{43}$/);
    await shoot(page, 'api-token-created');

    const call = (method: string, body?: object) =>
      fetch(`${server.baseUrl}/api/v1/bills`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    expect((await call('GET')).status).toBe(200);
    const write = await call('POST', { name: 'Power', status: 1, category: 'Utilities', internal: false });
    expect(write.status).toBe(403);
    expect((await write.json()).code).toBe('TOKEN_READ_ONLY');

    await account.dialog.getByRole('button', { name: 'Done' }).click();
    await account.dialog.waitFor({ state: 'hidden' });
    await page.reload();
    const row = page.getByTestId('api-token-row');
    await expect.poll(() => row.count()).toBe(1);
    await expect.poll(() => row.textContent()).toMatch(/Home Assistant\s*bf_.{4}….*Read only · Last used /);
    expect(await page.content()).not.toContain(token);
    await shoot(page, 'api-tokens-section');

    await row.getByRole('button', { name: 'Revoke Home Assistant' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => section.getByText('You have no API tokens.').isVisible()).toBe(true);
    expect((await call('GET')).status).toBe(401);
  });
});

describe('sign-in with the identity provider', () => {
  it('links the account from the Account page, then signs in with the "Sign in with Authelia" button', async () => {
    const api = await createSignedInUser({}, server.baseUrl);
    provider.signInAs({ sub: `e2e-${api.user.username}`, email: api.user.email, email_verified: true });

    const page = await browser.newPage({ baseUrl: server.baseUrl });
    await loginAs(page, api.user);
    const account = await new AccountPage(page).goto();
    await page.getByRole('button', { name: 'Link Authelia' }).click();
    await account.dialog.getByLabel('Password', { exact: true }).fill(api.user.password);
    await account.dialog.getByRole('button', { name: 'Continue' }).click();
    // Out to the provider and back.
    await page.waitForURL(`${server.baseUrl}/account`);
    await expect.poll(() => account.notice.textContent()).toContain('Linked to Authelia.');
    await expect
      .poll(() => account.value('Authelia').textContent())
      .toBe(`LinkedSign in with Authelia as ${api.user.email}`);
    await shoot(page, 'account-provider-linked');

    const fresh = await browser.newPage({ baseUrl: server.baseUrl });
    await fresh.goto('/');
    const button = fresh.getByRole('link', { name: 'Sign in with Authelia' });
    await button.waitFor();
    await shoot(fresh, 'login-provider-button');
    await button.click();
    await fresh.waitForURL('**/home');
    await new HomePage(fresh).heading.waitFor();
    const stored = await fresh.evaluate(() => sessionStorage.getItem('username'));
    expect(stored).toBe(api.user.username);
    // The one-time ticket left no trace in the history.
    expect(await fresh.evaluate(() => window.location.hash)).toBe('');
  });

  it('says why when the provider account is linked to no Billfold account', async () => {
    provider.signInAs({ sub: `stranger-${Date.now()}`, email: 'stranger@example.test', email_verified: true });
    const page = await browser.newPage({ baseUrl: server.baseUrl });
    await page.goto('/');
    await page.getByRole('link', { name: 'Sign in with Authelia' }).click();
    await page.waitForURL('**/login/oidc');
    await page
      .getByText(
        'No Billfold account is linked to this Authelia account. Sign in with your password, then link Authelia on the Account page.',
      )
      .waitFor();
    await shoot(page, 'login-provider-not-linked');
    await page.getByRole('link', { name: 'Back to Login' }).click();
    await page.getByRole('heading', { name: 'Login or Create User' }).waitFor();
  });
});
