import { describe, expect, it } from 'vitest';
import { AccountPage } from '../pages/account-page.ts';
import { HomePage } from '../pages/home-page.ts';
import { TopBar } from '../pages/top-bar.ts';
import { baseUrl, screenshot, useBrowser } from '../support/browser.ts';
import { pathOf, signUpAndLogin } from '../support/session.ts';

const browser = useBrowser();

describe('unknown routes', () => {
  it('show a not-found page to a signed-out visitor', async () => {
    const page = await browser.newPage();
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.getByText('There is no page at /no/such/page.').waitFor();
    expect(pathOf(page)).toBe('/no/such/page');
    await screenshot(page, 'not-found');
  });

  it('show a not-found page inside the signed-in layout, with a way home', async () => {
    const page = await browser.newPage();
    const user = await signUpAndLogin(page);
    await page.goto('/definitely-not-a-page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await new TopBar(page).userButton(user.username).waitFor();
    await screenshot(page, 'not-found-signed-in');
    await page.getByRole('link', { name: 'Go to Home' }).click();
    await new HomePage(page).heading.waitFor();
  });
});

describe('deep links and the banner', () => {
  it('a reload on a deep link keeps the signed-in user on that page', async () => {
    const page = await browser.newPage();
    await signUpAndLogin(page);
    const account = await new AccountPage(page).goto();
    await page.reload();
    await account.value('Username').waitFor();
    expect(pathOf(page)).toBe('/account');
  });

  it('the banner image links to /home', async () => {
    const page = await browser.newPage();
    await signUpAndLogin(page);
    await new AccountPage(page).goto();
    await new TopBar(page).banner.click();
    await new HomePage(page).heading.waitFor();
    expect(pathOf(page)).toBe('/home');
  });

  it('API paths stay JSON and missing files are not the app', async () => {
    const api = await fetch(`${baseUrl()}/api/v1/nope`);
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toContain('application/json');
    const chunk = await fetch(`${baseUrl()}/assets/does-not-exist.js`);
    expect(chunk.status).toBe(404);
    const deep = await fetch(`${baseUrl()}/entries/5`);
    expect(deep.status).toBe(200);
    expect(deep.headers.get('content-type')).toContain('text/html');
  });
});
