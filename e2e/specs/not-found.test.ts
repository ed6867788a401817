import { describe, expect, it } from 'vitest';
import { AccountPage } from '../pages/account-page.ts';
import { HomePage } from '../pages/home-page.ts';
import { TopBar } from '../pages/top-bar.ts';
import { createSignedInUser } from '../support/api.ts';
import { baseUrl, screenshot, useBrowser } from '../support/browser.ts';
import { seedInvoice } from '../support/domain.ts';
import { loginAs, pathOf, signUpAndLogin, waitForPath } from '../support/session.ts';

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

describe('missing and recycled invoices and entities', () => {
  /** A live invoice, a deleted invoice of a live entity, and a deleted entity. */
  async function seeded() {
    const api = await createSignedInUser();
    const tag = Date.now().toString(36);
    const live = await seedInvoice(api, { entity: { name: `Power Co ${tag}` } });
    const gone = await seedInvoice(api, { entity: { name: `Water Board ${tag}` } });
    await api.request('PUT', '/entries/edit', { entryId: gone.entry.entryId, recycle: true });
    const binned = await seedInvoice(api, { entity: { name: `Old Gym ${tag}` } });
    await api.request('PUT', '/bills', { id: binned.entity.id, recycle: true });
    return { api, live, gone, binned };
  }

  it('an unknown invoice or entity says so with a way home, and nothing about the bin', async () => {
    const { api } = await seeded();
    const page = await browser.newPage();
    await loginAs(page, api.user);
    for (const [path, message] of [
      ['/entries/99999', 'Invoice not found.'],
      ['/entries/abc', 'Invoice not found.'],
      ['/invoice/99999', 'Invoice not found.'],
      ['/entities/99999', 'Entity not found.'],
      ['/entities/abc', 'Entity not found.'],
      ['/bills/99999', 'Entity not found.'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('alert').filter({ hasText: message }).waitFor();
      expect(await page.getByRole('link', { name: 'Open Recycle Bin' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Go to Home' }).waitFor();
    }
    await page.getByRole('link', { name: 'Go to Home' }).click();
    await waitForPath(page, '/home');
  });

  it('a recycled invoice or entity says it is in the recycle bin and links there', async () => {
    const { api, gone, binned } = await seeded();
    const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
    await loginAs(page, api.user);
    for (const [path, message, what] of [
      [`/entries/${gone.entry.entryId}`, 'Invoice not found.', 'invoice'],
      [`/invoice/${gone.entry.entryId}`, 'Invoice not found.', 'invoice'],
      // An invoice of an entity in the bin is in the bin with it.
      [`/entries/${binned.entry.entryId}`, 'Invoice not found.', 'invoice'],
      [`/entities/${binned.entity.id}`, 'Entity not found.', 'entity'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('alert').filter({ hasText: message }).waitFor();
      await page.getByText(`This ${what} is in the recycle bin.`, { exact: false }).waitFor();
      await page.getByRole('link', { name: 'Go to Home' }).waitFor();
    }
    await page.goto(`/entries/${gone.entry.entryId}`);
    await page.getByRole('link', { name: 'Open Recycle Bin' }).waitFor();
    await screenshot(page, 'not-found-recycled-invoice-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'not-found-recycled-invoice-dark');
    await page.getByRole('link', { name: 'Open Recycle Bin' }).click();
    await waitForPath(page, '/recycle');
    await page.getByRole('heading', { name: 'Recycle Bin', level: 1 }).waitFor();
  });

  it('reads right on a phone', async () => {
    const { api, binned } = await seeded();
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, mobile: true });
    await loginAs(page, api.user);
    await page.goto(`/entities/${binned.entity.id}`);
    await page.getByRole('link', { name: 'Open Recycle Bin' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'not-found-recycled-entity-phone-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'not-found-recycled-entity-phone-dark');
    await page.goto('/entries/99999');
    await page.getByRole('link', { name: 'Go to Home' }).waitFor();
    await screenshot(page, 'not-found-invoice-phone-dark');
  });
});
