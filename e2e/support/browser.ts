import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import { launchChromium } from './chromium.ts';

const SCREENSHOT_DIR = resolve(import.meta.dirname, '../screenshots');

export function baseUrl(): string {
  return inject('baseUrl');
}

export interface PageOptions {
  /** IANA zone the page believes it is in (e.g. to check UTC timestamps are shown in local time). */
  timezoneId?: string;
  viewport?: { width: number; height: number };
  /** A phone: touch events and a coarse pointer (MUI X pickers then open as dialogs), the mobile viewport meta. */
  mobile?: boolean;
  /** The server the page's relative addresses go to: the suite's unless a spec started its own (support/server.ts). */
  baseUrl?: string;
}

export interface BrowserHarness {
  /** A page in a brand-new context: its own session storage, so each test starts signed out. */
  newPage: (options?: PageOptions) => Promise<Page>;
  /** Errors the app logged or threw on pages of the current test (console.error and uncaught). */
  pageErrors: string[];
}

/**
 * Debian's Chromium driven by playwright-core, one browser per spec file. Playwright gives it a fresh
 * temporary profile (its own `--user-data-dir`); contexts are closed after every test.
 */
export function useBrowser(): BrowserHarness {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const harness: BrowserHarness = {
    pageErrors: [],
    async newPage(options = {}) {
      if (!browser) throw new Error('the browser is not running (useBrowser must be called at the top of a file)');
      const contextOptions: BrowserContextOptions = {
        baseURL: options.baseUrl ?? baseUrl(),
        viewport: options.viewport ?? { width: 1280, height: 800 },
        locale: 'en-US',
        ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
        ...(options.mobile ? { isMobile: true, hasTouch: true } : {}),
      };
      const context = await browser.newContext(contextOptions);
      context.setDefaultTimeout(10_000);
      contexts.push(context);
      const page = await context.newPage();
      page.on('pageerror', (error) => harness.pageErrors.push(error.message));
      return page;
    },
  };
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    harness.pageErrors.length = 0;
  });
  afterAll(async () => {
    await browser?.close();
  });
  return harness;
}

/** Saves `e2e/screenshots/<name>.png` (git-ignored) for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true, animations: 'disabled' });
}

/**
 * Both colour schemes of what is on screen: `<name>-light.png` and `<name>-dark.png`, the pointer parked in the
 * corner so no hover or tooltip shows; the page is left in `restore` (light unless said).
 */
export async function screenshotBothThemes(
  page: Page,
  name: string,
  restore: 'light' | 'dark' = 'light',
): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.mouse.move(0, 0);
    await screenshot(page, `${name}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: restore });
}
