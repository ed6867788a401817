import { describe, expect, it } from 'vitest';
import { HomePage } from '../pages/home-page.ts';
import { LoginPage } from '../pages/login-page.ts';
import { TopBar } from '../pages/top-bar.ts';
import { baseUrl, useBrowser } from '../support/browser.ts';
import { signUpAndLogin, waitForPath } from '../support/session.ts';

const browser = useBrowser();

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  scope: string;
  display: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
}

/** Width and height from a PNG's header. */
function pngSize(bytes: Uint8Array): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return `${view.getUint32(16)}x${view.getUint32(20)}`;
}

describe('installable', () => {
  it('serves a manifest whose icons exist at their sizes, and Chromium finds nothing that stops installing', async () => {
    const res = await fetch(`${baseUrl()}/manifest.webmanifest`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = (await res.json()) as Manifest;
    expect(manifest).toMatchObject({
      name: 'Billfold',
      short_name: 'Billfold',
      start_url: '/home',
      display: 'standalone',
    });
    const pngs = manifest.icons.filter((icon) => icon.type === 'image/png');
    expect(pngs.map((icon) => `${icon.sizes} ${icon.purpose}`).sort()).toEqual([
      '192x192 any',
      '512x512 any',
      '512x512 maskable',
    ]);
    for (const icon of pngs) {
      const image = await fetch(`${baseUrl()}${icon.src}`);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(pngSize(new Uint8Array(await image.arrayBuffer()))).toBe(icon.sizes);
    }

    const page = await browser.newPage();
    await new LoginPage(page).goto();
    const cdp = await page.context().newCDPSession(page);
    const parsed = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
    expect(parsed.url).toBe(`${baseUrl()}/manifest.webmanifest`);
    expect(parsed.errors).toEqual([]);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    // The test browser's contexts are incognito profiles, where Chromium never offers to install; that is the
    // only reason allowed.
    expect(installabilityErrors.map((error) => error.errorId)).toEqual(['in-incognito']);
  });

  it('opens on the sign-in page when signed out and on /home when signed in', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto('/home');
    await waitForPath(page, '/');
    await new LoginPage(page).heading.waitFor();
    await signUpAndLogin(page);
    await page.goto('/home');
    await new HomePage(page).heading.waitFor();
  });
});

describe('dark mode', () => {
  const background = (page: import('playwright-core').Page) =>
    page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const LIGHT = 'rgb(245, 247, 245)';
  const DARK = 'rgb(18, 20, 18)';

  it('follows the system until the user picks a theme in the user menu, and remembers the pick', async () => {
    const page = await browser.newPage();
    await page.emulateMedia({ colorScheme: 'dark' });
    const user = await signUpAndLogin(page);
    expect(await background(page)).toBe(DARK);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => background(page)).toBe(LIGHT);

    const topBar = new TopBar(page);
    let menu = await topBar.openUserMenu(user.username);
    expect(await menu.getByRole('menuitemradio', { name: 'System theme' }).getAttribute('aria-checked')).toBe('true');
    await menu.getByRole('menuitemradio', { name: 'Dark theme' }).click();
    await expect.poll(() => background(page)).toBe(DARK);

    // Remembered on this device: after a reload, and while the system stays light.
    await page.reload();
    await new HomePage(page).heading.waitFor();
    expect(await background(page)).toBe(DARK);
    menu = await topBar.openUserMenu(user.username);
    expect(await menu.getByRole('menuitemradio', { name: 'Dark theme' }).getAttribute('aria-checked')).toBe('true');
    await menu.getByRole('menuitemradio', { name: 'Light theme' }).click();
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => background(page)).toBe(LIGHT);

    menu = await topBar.openUserMenu(user.username);
    await menu.getByRole('menuitemradio', { name: 'System theme' }).click();
    await expect.poll(() => background(page)).toBe(DARK);
  });
});
