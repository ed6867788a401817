import { formatAmount } from '@billfold/contract/money';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HomePage } from '../pages/home-page.ts';
import { InvoicePage } from '../pages/invoice-page.ts';
import { createSignedInUser } from '../support/api.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import { seedLedger, seedMany } from '../support/domain.ts';
import { loginAs, sessionStorageOf } from '../support/session.ts';

const browser = useBrowser();

const PHONE = { width: 360, height: 740 };
const TABLET = { width: 768, height: 1024 };

const invoiceList = (page: Page, name = 'Invoices') => page.getByRole('list', { name });
const itemTitles = (list: Locator) =>
  list
    .getByRole('listitem')
    .getByRole('link', { name: /^Invoice #/ })
    .allInnerTexts();

/** Inside the window: nothing to scroll sideways to reach it. */
async function fitsWidth(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  return box !== null && box.x >= 0 && box.x + box.width <= width;
}

describe('phones and tablets', () => {
  it('show the invoices as a list with number, entity, date, amount, balance and paid state (360 px)', async () => {
    const ledger = await seedLedger();
    const { entries } = ledger;
    const page = await browser.newPage({ viewport: PHONE, mobile: true });
    await loginAs(page, ledger.api.user);
    const list = invoiceList(page);
    await list.getByRole('listitem').first().waitFor();
    expect(await page.getByRole('grid').count()).toBe(0);
    expect(await list.getByRole('listitem').count()).toBe(6);

    const partial = list.getByRole('listitem').filter({ hasText: `Invoice #${entries.powerPartial.invoiceId}` });
    const text = (await partial.textContent()) ?? '';
    for (const expected of [
      'City Power',
      entries.powerPartial.date.slice(0, 10),
      formatAmount(entries.powerPartial.amount),
      `Balance ${formatAmount(entries.powerPartial.balance.totalBalance)}`,
      'In Progress',
    ]) {
      expect(text).toContain(expected);
    }
    expect(await fitsWidth(page, partial)).toBe(true);

    // The chart names all four measures on a phone too (side by side, one would be dropped for lack of room).
    await new HomePage(page).statsTab.click();
    const chart = page.getByRole('region', { name: 'Income and Expenses' });
    for (const measure of ['Total', 'Paid', 'Outstanding', 'Overpaid']) {
      await chart
        .locator('svg text', { hasText: new RegExp(`^${measure}$`) })
        .first()
        .waitFor();
    }
    await new HomePage(page).invoicesTab.click();
    await partial.getByRole('link', { name: 'City Power' }).click();
    await page.getByRole('heading', { level: 1, name: 'City Power' }).waitFor();
    await invoiceList(page, 'Invoices of City Power').getByRole('listitem').first().waitFor();
    expect(await itemTitles(invoiceList(page, 'Invoices of City Power'))).toHaveLength(2);
    await screenshot(page, 'phone-entity-list');
  });

  it('page (Go-to-page included) and sort the list like the grid, on the server, and keep the settings the grid keeps (768 px)', async () => {
    const api = await createSignedInUser();
    await seedMany(api, 12);
    const page = await browser.newPage({ viewport: TABLET, mobile: true });
    await loginAs(page, api.user);
    const list = invoiceList(page);
    await list.getByRole('listitem').first().waitFor();

    await page.getByRole('combobox', { name: /rows per page/i }).click();
    await page.getByRole('option', { name: '5', exact: true }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(5);
    await page.getByText('1–5 of 12').waitFor();
    await page.getByRole('button', { name: 'Go to next page' }).click();
    await page.getByText('6–10 of 12').waitFor();

    // Sorting by amount, largest first, starts again at the first page.
    const home = new HomePage(page);
    const request = home.nextRequest(async () => {
      await page.getByRole('combobox', { name: 'Sort by' }).click();
      await page.getByRole('option', { name: 'Amount', exact: true }).click();
    });
    expect(Object.fromEntries(await request)).toMatchObject({ sortField: 'amount', sortOrder: 'asc', pageNum: '0' });
    await page.getByText('1–5 of 12').waitFor();
    await page.getByRole('button', { name: 'Ascending, change to descending' }).click();
    await expect
      .poll(async () => ((await list.getByRole('listitem').first().textContent()) ?? '').includes('12.00'))
      .toBe(true);
    const stored = await sessionStorageOf(page);
    expect(JSON.parse(stored.sortModel ?? 'null')).toEqual([{ field: 'amount', sort: 'desc' }]);
    expect(stored.pageSize).toBe('5');

    // The same settings come back after a reload, as with the grid.
    await page.reload();
    await list.getByRole('listitem').first().waitFor();
    expect(await list.getByRole('listitem').count()).toBe(5);
    expect(await list.getByRole('listitem').first().textContent()).toContain('12.00');

    // The grid's Go-to-page box: Page, Go, First, Last.
    const goTo = page.getByRole('group', { name: 'Go to page' });
    await goTo.getByRole('textbox', { name: 'Page' }).fill('3');
    await goTo.getByRole('button', { name: 'Go' }).click();
    await page.getByText('11–12 of 12').waitFor();
    await goTo.getByRole('button', { name: 'First' }).click();
    await page.getByText('1–5 of 12').waitFor();
    await goTo.getByRole('button', { name: 'Last' }).click();
    await page.getByText('11–12 of 12').waitFor();
    await screenshot(page, 'tablet-home-list');
  });

  it('fold the filters into a sheet with a count of active filters; dialogs fill the screen; menus fit', async () => {
    const ledger = await seedLedger();
    const page = await browser.newPage({ viewport: PHONE, mobile: true });
    await loginAs(page, ledger.api.user);
    const home = new HomePage(page);
    expect(await home.filters.count()).toBe(0);
    await page.getByRole('button', { name: 'Filters, none active' }).click();
    await home.openMoreOptions();
    await home.choice('Status', 'Unpaid or In Progress').click();
    await home.choice('Flow', 'Expense').click();
    await screenshot(page, 'phone-filter-sheet');
    await home.searchButton.click();
    await home.filters.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Filters 2 active' }).waitFor();
    await expect.poll(() => itemTitles(invoiceList(page))).toHaveLength(2);
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await page.getByRole('button', { name: 'Filters, none active' }).waitFor();

    for (const menuName of ['History', ledger.api.user.username.toUpperCase()]) {
      await page.getByRole('button', { name: menuName, exact: true }).click();
      const menu = page.getByRole('menu');
      await menu.waitFor();
      expect(await fitsWidth(page, menu)).toBe(true);
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'hidden' });
    }

    const invoice = await new InvoicePage(page).goto(ledger.entries.powerUnpaid.entryId);
    await invoice.openAddPayment();
    const paper = invoice.dialog.locator('xpath=ancestor-or-self::*[contains(@class, "MuiDialog-paper")][1]');
    const box = await paper.boundingBox();
    expect(box).toMatchObject({ x: 0, y: 0, width: PHONE.width, height: PHONE.height });
  });

  it('leave the desktop as it was: the grid and the open filter panel (1280 px)', async () => {
    const ledger = await seedLedger();
    const page = await browser.newPage();
    await loginAs(page, ledger.api.user);
    const home = new HomePage(page);
    await home.filters.waitFor();
    expect(await home.invoiceNumbers()).toHaveLength(6);
    expect(await page.getByRole('button', { name: /^Filters/ }).count()).toBe(0);
    const invoice = await new InvoicePage(page).goto(ledger.entries.powerUnpaid.entryId);
    await invoice.openAddPayment();
    const box = await invoice.dialog
      .locator('xpath=ancestor-or-self::*[contains(@class, "MuiDialog-paper")][1]')
      .boundingBox();
    expect(box?.width).toBeLessThan(600);
  });
});
