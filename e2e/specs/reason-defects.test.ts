import type { Entry } from '@billfold/contract/entries';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { AccountPage } from '../pages/account-page.ts';
import { HomePage } from '../pages/home-page.ts';
import { InvoiceFormPage } from '../pages/invoice-form-page.ts';
import { InvoicePage } from '../pages/invoice-page.ts';
import { RecyclePage } from '../pages/recycle-page.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import { archiveEntity, createEntity, daysAgo, getEntity, seedInvoice } from '../support/domain.ts';
import { loginAs, pathOf, useSpecAccount, waitForPath } from '../support/session.ts';

const browser = useBrowser();
const account = useSpecAccount();
const WRONG = 'Wrong!Passw0rd';

describe('the server says why', () => {
  it('a wrong current password says so in every account dialog', async () => {
    const page = await browser.newPage();
    await loginAs(page, account.user);
    const screen = await new AccountPage(page).goto();

    await screen.changeEmail(`new.${account.user.email}`, WRONG);
    await screen.notice.filter({ hasText: 'Failed to update email. Current password is incorrect.' }).waitFor();
    await screen.dialogError.filter({ hasText: 'Current password is incorrect.' }).waitFor();
    await screenshot(page, 'account-email-wrong-password');
    await screen.dialog.getByRole('button', { name: 'Cancel' }).click();
    await screen.dialog.waitFor({ state: 'hidden' });

    await screen.changePassword(WRONG, 'N3w!Password');
    await screen.notice.filter({ hasText: 'Failed to change password. Current password is incorrect.' }).waitFor();
    await screen.dialogError.filter({ hasText: 'Current password is incorrect.' }).waitFor();
    await screen.dialog.getByRole('button', { name: 'Cancel' }).click();
    await screen.dialog.waitFor({ state: 'hidden' });

    await screen.deactivate(WRONG);
    await screen.dialogError.filter({ hasText: 'Current password is incorrect.' }).waitFor();
    await screen.notice.filter({ hasText: 'Failed to deactivate account. Current password is incorrect.' }).waitFor();
  });

  it('restoring an entity whose name is taken offers to restore it under another name', async () => {
    const page = await browser.newPage();
    await loginAs(page, account.user);
    const { entity, entry } = await seedInvoice(account.api, { entity: { name: 'Twin Co' } });
    await account.api.request('PUT', '/bills', { id: entity.id, recycle: true });
    await createEntity(account.api, { name: 'Twin Co' });

    const recycle = await new RecyclePage(page).goto();
    await recycle.restore(recycle.item('Entity', 'Twin Co'));
    const dialog = page.getByRole('dialog', { name: 'Restore Under Another Name' });
    await dialog.getByRole('alert').filter({ hasText: 'An entity named "Twin Co" already exists.' }).waitFor();
    const name = dialog.getByRole('textbox', { name: 'Entity Name' });
    expect(await name.inputValue()).toBe('Twin Co (2)');
    await screenshot(page, 'recycle-restore-under-another-name');
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await recycle.notice.filter({ hasText: 'Entity restored successfully.' }).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect((await getEntity(account.api, entity.id)).name).toBe('Twin Co (2)');
    // Its invoice came back with it.
    expect((await account.api.request<Entry>('GET', `/entries/${entry.entryId}`)).name).toBe('Twin Co (2)');
  });

  it('a typed or linked archived entity is said to be archived, with the way to Archives', async () => {
    const page = await browser.newPage();
    await loginAs(page, account.user);
    const { entity } = await seedInvoice(account.api, { entity: { name: 'Old Lodge' } });
    await archiveEntity(account.api, entity.id);
    const notice =
      '"Old Lodge" is archived, so it takes no new invoices. Restore it from Archives in the History menu first.';

    const form = await new InvoiceFormPage(page).gotoNew();
    await form.entity.fill('old lodge');
    const option = page.getByRole('option', { name: '"Old Lodge" is archived' });
    await option.waitFor();
    expect(await option.getAttribute('aria-disabled')).toBe('true');
    expect(await page.getByRole('option', { name: /Add new entity/ }).count()).toBe(0);
    await page.getByText(notice, { exact: true }).waitFor();
    await screenshot(page, 'invoice-form-archived-entity');

    await form.gotoNew('Old Lodge');
    await page.getByText(notice, { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Archives' }).last().click();
    await waitForPath(page, '/archives');
  });
});

/**
 * How many grid cells show `999,999,999.99` whole (not cut by their cell, nor scrolled out of the grid); throws
 * when one is cut.
 */
async function largestAmountsWhole(page: Page, allColumns = true): Promise<number> {
  const cells = page.locator('.MuiDataGrid-cell', { hasText: /^999,999,999\.99$/ });
  await cells.first().waitFor();
  const cut = await cells.evaluateAll(
    (all) =>
      all.filter((cell) => {
        const scroller = cell.closest('.MuiDataGrid-virtualScroller');
        const inside = scroller ? cell.getBoundingClientRect().right <= scroller.getBoundingClientRect().right : true;
        return cell.scrollWidth > cell.clientWidth || !inside;
      }).length,
  );
  if (cut > 0) throw new Error(`${cut} amounts are cut`);
  if (!allColumns) return cells.count();
  // Every column fits: the last one (Archived) ends inside the grid too.
  const overflow = await page
    .locator('.MuiDataGrid-root')
    .first()
    .evaluate((grid) => {
      const last = grid.querySelector('.MuiDataGrid-columnHeader[data-field="archived"]');
      return last ? last.getBoundingClientRect().right - grid.getBoundingClientRect().right : 0;
    });
  if (overflow > 0) throw new Error(`the Archived column ends ${overflow}px outside the grid`);
  return cells.count();
}

describe('history and display', () => {
  it('Back after deleting an invoice does not return to its page', async () => {
    const page = await browser.newPage();
    await loginAs(page, account.user);
    const { entry } = await seedInvoice(account.api, { invoice: { date: daysAgo(1) } });
    const home = new HomePage(page);
    await home.goto();
    await home.cell(entry.invoiceId, 'invoiceId').getByRole('link').click();
    const invoice = new InvoicePage(page);
    await invoice.heading.waitFor();
    await invoice.button('Delete Invoice').click();
    await invoice.dialog.getByRole('button', { name: 'Delete' }).click();
    await waitForPath(page, '/home');
    await page.goBack();
    await page.waitForTimeout(300);
    expect(pathOf(page)).not.toMatch(/^\/entries\//);
    expect(await page.getByText('Invoice not found.').count()).toBe(0);
  });

  it('a page past the end says why Go is disabled', async () => {
    const page = await browser.newPage();
    await loginAs(page, account.user);
    const home = new HomePage(page);
    await home.settled();
    const box = home.goToPageBox();
    await box.getByRole('textbox', { name: 'Page' }).fill('9');
    await box.getByText('The last page is 1.').waitFor();
    expect(await box.getByRole('button', { name: 'Go' }).isDisabled()).toBe(true);
    await box.getByRole('textbox', { name: 'Page' }).fill('0');
    await box.getByText('Pages start at 1.').waitFor();
    await box.getByRole('textbox', { name: 'Page' }).fill('1');
    expect(await box.getByText(/last page|start at 1/).count()).toBe(0);
  });

  it('the largest amounts show whole at 1280 px in the grids and on the chart axis', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await loginAs(page, account.user);
    const { entity } = await seedInvoice(account.api, { invoice: { amount: 999999999.99, date: daysAgo(1) } });
    // The same day for both, so that every chart sums them in one month on any day of the month.
    await seedInvoice(account.api, { invoice: { amount: 999999999.99, date: daysAgo(1) } });
    const home = new HomePage(page);
    await home.goto();
    await home.settled();
    await page
      .locator('.MuiDataGrid-cell', { hasText: /^999,999,999\.99$/ })
      .first()
      .waitFor();
    await screenshot(page, 'home-grid-largest-amounts');
    expect(await largestAmountsWhole(page)).toBe(4);

    await home.statsTab.click();
    // Two invoices of the largest amount: totals of 1,999,999,999.98 in the stats chart and in both trends charts.
    for (const chart of [
      page.getByRole('region', { name: 'Income and Expenses' }),
      page.getByTestId('trends-stacked-chart'),
      page.getByTestId('trends-yoy-chart'),
    ]) {
      const ticks = chart.locator('.MuiChartsAxis-left .MuiChartsAxis-tickLabel').filter({ visible: true });
      await ticks.filter({ hasText: '$2B' }).waitFor();
      expect((await ticks.allTextContents()).filter((label) => label.includes('…'))).toEqual([]);
    }
    await screenshot(page, 'home-stats-largest-amounts');

    await page.goto(`/entities/${entity.id}`);
    // The entity page's grid is narrower: it may scroll sideways, but its amounts show whole.
    expect(await largestAmountsWhole(page, false)).toBe(2);
    await screenshot(page, 'entity-grid-largest-amounts');
  });
});
