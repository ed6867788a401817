import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { AccountPage } from '../pages/account-page.ts';
import { ArchivesPage } from '../pages/archives-page.ts';
import { CategoriesPage } from '../pages/categories-page.ts';
import { CreateAccountPage } from '../pages/create-account-page.ts';
import { EditEntityPage } from '../pages/edit-entity-page.ts';
import { EntitiesPage } from '../pages/entities-page.ts';
import { HomePage } from '../pages/home-page.ts';
import { InvoiceFormPage } from '../pages/invoice-form-page.ts';
import { InvoicePage } from '../pages/invoice-page.ts';
import { LoginPage } from '../pages/login-page.ts';
import { RecyclePage } from '../pages/recycle-page.ts';
import { type AxeSummary, expectAccessible } from '../support/axe.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import { seedLedger } from '../support/domain.ts';
import { loginAs } from '../support/session.ts';

const browser = useBrowser();

const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;
const THEMES = ['light', 'dark'] as const;

/** Elements reaching past the right edge of the window (none when the page does not scroll sideways). */
const overflowing = (page: Page) =>
  page.evaluate(() => {
    if (document.documentElement.scrollWidth <= window.innerWidth) return [];
    return [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join('.')}`);
  });

/**
 * Data grids whose columns do not all fit, so that the last ones are cut off at the grid's right edge until it is
 * scrolled sideways (on a phone the lists take the grids' place).
 */
const cutGrids = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('.MuiDataGrid-root')].flatMap((grid) => {
      const headers = [...grid.querySelectorAll('.MuiDataGrid-columnHeader')];
      const shown = grid.querySelector('.MuiDataGrid-virtualScroller')?.getBoundingClientRect();
      const last = headers[headers.length - 1]?.getBoundingClientRect();
      if (!shown || !last || last.right <= shown.right + 1) return [];
      const name = grid.querySelector('[role="grid"]')?.getAttribute('aria-label') ?? 'a grid';
      return [
        `${name}: its last column ends at ${Math.round(last.right)} px, the grid at ${Math.round(shown.right)} px`,
      ];
    }),
  );

/** The page's background colour, to be sure which theme is on screen. */
const pageBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

/**
 * Every screen (and the dialogs, sheet and menus people open on them) at phone and desktop width, in the light and
 * dark theme the system asks for: no serious or critical axe-core violation, no sideways scrolling (nor, at desktop
 * width, a grid whose last columns are cut off), and a
 * screenshot of each in `e2e/screenshots/<screen>-<theme>-<size>.png` for a person to look at.
 */
describe.each(Object.keys(SIZES) as (keyof typeof SIZES)[])('every page at %s width', (size) => {
  it.each(THEMES)(
    'passes axe-core in the %s theme, without sideways scrolling',
    async (theme) => {
      const page = await browser.newPage({ viewport: SIZES[size], mobile: size === 'phone' });
      await page.emulateMedia({ colorScheme: theme });
      const results: Record<string, AxeSummary> = {};
      const check = async (name: string) => {
        await page.evaluate(() => document.fonts.ready);
        await page.mouse.move(0, SIZES[size].height - 1); // no tooltip from where the last click left the pointer
        results[name] = await expectAccessible(page, `${name} (${theme}, ${size})`);
        expect(await overflowing(page), `${name} scrolls sideways`).toEqual([]);
        await screenshot(page, `${name}-${theme}-${size}`);
        if (size === 'desktop') expect(await cutGrids(page), `${name}: grids with columns cut off`).toEqual([]);
      };

      await new LoginPage(page).goto();
      expect(await pageBackground(page)).toBe(theme === 'dark' ? 'rgb(18, 20, 18)' : 'rgb(245, 247, 245)');
      await check('login');
      await new CreateAccountPage(page).goto();
      await check('create-account');

      const ledger = await seedLedger();
      const { entries, bills } = ledger;
      await loginAs(page, ledger.api.user);
      const home = new HomePage(page);
      await page
        .getByText('Consulting March')
        .or(page.getByText(`Invoice #${entries.acmePaid.invoiceId}`))
        .first()
        .waitFor();
      await check('home');
      if (size === 'phone') {
        await page.getByRole('button', { name: /^Filters/ }).click();
        await home.filters.waitFor();
        await check('home-filters');
        await page.getByRole('button', { name: 'Close filters' }).click();
        await home.filters.waitFor({ state: 'hidden' });
      } else {
        await home.openMoreOptions();
        await check('home-filters');
        await home.showMoreOptions.uncheck();
      }
      await home.statsTab.click();
      await page.getByRole('region', { name: 'Income and Expenses' }).locator('svg').first().waitFor();
      await check('home-stats');

      await page.getByRole('button', { name: ledger.api.user.username.toUpperCase() }).click();
      await page.getByRole('menu').waitFor();
      await check('user-menu');
      await page.keyboard.press('Escape');

      const invoice = await new InvoicePage(page).goto(entries.powerPartial.entryId);
      await invoice.paymentRows().first().waitFor();
      await check('invoice');
      await invoice.openAddPayment();
      await check('payment-dialog');
      await invoice.dialog.getByRole('button', { name: 'Cancel' }).click();
      await invoice.dialog.waitFor({ state: 'hidden' });

      await new InvoiceFormPage(page).gotoNew();
      await check('invoice-new');
      await new InvoiceFormPage(page).gotoEdit(entries.powerUnpaid.entryId);
      await check('invoice-edit');

      await page.goto(`/entities/${bills.acme.id}`);
      await page.getByRole('heading', { level: 1, name: 'Acme Corp' }).waitFor();
      await page
        .getByRole('link', { name: `${entries.acmePaid.invoiceId}`, exact: false })
        .first()
        .waitFor();
      await check('entity');
      await new EditEntityPage(page).goto(bills.power.id);
      await check('entity-edit');

      const entitiesPage = await new EntitiesPage(page).goto();
      await entitiesPage.item('Acme Corp').first().waitFor();
      await check('entities');

      await new ArchivesPage(page).goto();
      await check('archives');
      await ledger.api.request('PUT', '/entries/edit', { entryId: entries.powerUnpaid.entryId, recycle: true });
      const recycle = await new RecyclePage(page).goto();
      await recycle.rows.first().waitFor();
      await check('recycle');

      await new AccountPage(page).goto();
      await check('account');
      await ledger.api.request('POST', '/categories', { name: 'Salary', flow: 'income' });
      const categories = await new CategoriesPage(page).goto();
      await categories.own.waitFor();
      await check('categories');
      await categories.addButton.click();
      await categories.dialog.getByRole('textbox', { name: 'Name' }).waitFor();
      await check('category-dialog');
      await categories.dialog.getByRole('button', { name: 'Cancel' }).click();
      await categories.dialog.waitFor({ state: 'hidden' });
      await page.goto('/no-such-page');
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      await check('not-found');

      const found = Object.values(results).flatMap((r) => r.violations.map((v) => `${v.id}:${v.impact}`));
      console.log(
        `axe ${theme} ${size}: ${Object.keys(results).length} screens, no serious or critical violations; ` +
          `minor/moderate: ${[...new Set(found)].join(', ') || 'none'}`,
      );
    },
    180_000,
  );
});
