import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { EntitiesPage } from '../pages/entities-page.ts';
import { EntityPage } from '../pages/entity-page.ts';
import { type ApiSession, apiLogin } from '../support/api.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import {
  archiveEntity,
  createEntity,
  createInvoice,
  createPayment,
  daysAgo,
  getEntity,
  listRecycleBin,
} from '../support/domain.ts';
import { pathOf, signUpAndLogin, waitForPath } from '../support/session.ts';

const browser = useBrowser();

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

/**
 * 27 plain entities, plus Oakwood Properties (an overdue rent and a monthly schedule) and Zenith Payroll (income
 * owed to the user): 29 active entities, two pages of 25.
 */
async function seedEntities(api: ApiSession) {
  for (let i = 1; i <= 27; i++) {
    await createEntity(api, { name: `Biller ${String(i).padStart(2, '0')}`, category: 'Utilities' });
  }
  const oakwood = await createEntity(api, { name: 'Oakwood Properties', category: 'Mortgage / Rent' });
  const rent = await createInvoice(api, oakwood.id, {
    date: daysAgo(40),
    dueDate: daysAgo(10),
    amount: 1250,
    flow: 'expense',
  });
  await createPayment(api, rent.entryId, { amount: 250, date: daysAgo(20) });
  await createInvoice(api, oakwood.id, { date: daysAgo(5), amount: 80, flow: 'expense' });
  await api.request('POST', `/bills/${oakwood.id}/schedules`, {
    cadence: 'monthly',
    interval: 1,
    firstDate: '2099-01-01',
    amount: 1250,
    flow: 'expense',
    description: 'Rent {month} {year}',
    dueDays: 5,
  });
  // Estimated at the last confirmed expense (80.00), not at its stand-in amount.
  await api.request('POST', `/bills/${oakwood.id}/schedules`, {
    cadence: 'monthly',
    interval: 1,
    firstDate: '2099-01-15',
    amount: 1,
    amountMode: 'last',
    flow: 'expense',
    description: 'Parking {month} {year}',
    dueDays: 0,
  });
  const zenith = await createEntity(api, { name: 'Zenith Payroll', category: 'Financial' });
  await createInvoice(api, zenith.id, { date: daysAgo(3), amount: 4000, flow: 'income' });
  return { oakwood, zenith };
}

describe('Entities page', () => {
  it('desktop: from the top bar; search, sort, page, all kept on reload', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    const user = await signUpAndLogin(page);
    const api = await apiLogin(user);
    await seedEntities(api);

    await page.getByRole('banner').getByRole('link', { name: 'Entities', exact: true }).click();
    await waitForPath(page, '/entities');
    const entities = new EntitiesPage(page);
    await entities.heading.waitFor();
    await entities.settled();
    await entities.displayedRows().filter({ hasText: '1–25 of 29' }).waitFor();
    expect((await entities.names()).slice(0, 3)).toEqual(['Biller 01', 'Biller 02', 'Biller 03']);

    // Oakwood's row: category, invoices, what is open, the overdue due date and the schedule.
    await entities.nameSearch.fill('  oak ');
    await entities.displayedRows().filter({ hasText: '1–1 of 1' }).waitFor();
    const row = entities.item('Oakwood Properties');
    expect(await entities.cell(row, 'category').textContent()).toBe('Mortgage / Rent');
    expect(await entities.cell(row, 'invoices').textContent()).toBe('2');
    expect(await entities.cell(row, 'balance').textContent()).toBe('$1,080.00 to pay');
    expect(await entities.cell(row, 'nextDue').textContent()).toMatch(new RegExp(`${daysAgo(10)}\\s*Overdue`));
    expect(await entities.cell(row, 'schedules').textContent()).toBe(
      'Monthly on the 1st · $1,250.00 · next 2099-01-01' +
        'Monthly on the 15th · about $80.00 (same as last) · next 2099-01-15',
    );
    await screenshot(page, 'entities-search-desktop');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'entities-search-desktop-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // Select Categories, then Clear Filters.
    await entities.nameSearch.fill('');
    await entities.filters.getByRole('combobox', { name: 'Select Categories' }).click();
    await page.getByRole('option', { name: 'Financial' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => entities.names()).toEqual(['Zenith Payroll']);
    await entities.filters.getByRole('button', { name: 'Clear Filters' }).click();
    await entities.displayedRows().filter({ hasText: '1–25 of 29' }).waitFor();

    // Sort by open balance, largest first; then the second page.
    await entities.grid.getByRole('columnheader', { name: 'Open Balance' }).click();
    await entities.grid.getByRole('columnheader', { name: 'Open Balance' }).click();
    await entities.settled();
    await expect
      .poll(async () => (await entities.names()).slice(0, 3))
      .toEqual(['Zenith Payroll', 'Oakwood Properties', 'Biller 01']);
    await entities.root.getByRole('button', { name: 'Go to next page' }).click();
    await entities.displayedRows().filter({ hasText: '26–29 of 29' }).waitFor();
    expect(await entities.names()).toEqual(['Biller 24', 'Biller 25', 'Biller 26', 'Biller 27']);

    // The page, the sort and the search are kept for the session.
    await page.reload();
    await entities.displayedRows().filter({ hasText: '26–29 of 29' }).waitFor();
    expect(await entities.names()).toEqual(['Biller 24', 'Biller 25', 'Biller 26', 'Biller 27']);
    await entities.root.getByRole('button', { name: 'Go to previous page' }).click();
    await entities.displayedRows().filter({ hasText: '1–25 of 29' }).waitFor();
    await screenshot(page, 'entities-desktop');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'entities-desktop-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(browser.pageErrors).toEqual([]);
  }, 90_000);

  it('desktop: archive → restore → delete with confirm', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    const user = await signUpAndLogin(page);
    const api = await apiLogin(user);
    const oakwood = await createEntity(api, { name: 'Oakwood Properties', category: 'Mortgage / Rent' });
    await createInvoice(api, oakwood.id, { amount: 80 });
    await createEntity(api, { name: 'Biller 01' });
    await createEntity(api, { name: 'Biller 02' });
    const entities = await new EntitiesPage(page).goto();
    await entities.displayedRows().filter({ hasText: '1–3 of 3' }).waitFor();

    // Archive asks first, then the entity leaves the active list.
    await entities.ask(
      'Archive',
      'Oakwood Properties',
      'Archive Oakwood Properties? It and its invoices and payments become read only until you restore it from Archives in the History menu.',
    );
    await entities.confirm('Archive', 'Entity updated successfully.');
    await entities.displayedRows().filter({ hasText: '1–2 of 2' }).waitFor();
    expect((await getEntity(api, oakwood.id)).status).toBe(0);

    // Archives: Only shows it, with Restore.
    await entities.filters.getByRole('button', { name: 'Only' }).click();
    await entities.displayedRows().filter({ hasText: '1–1 of 1' }).waitFor();
    await entities.item('Oakwood Properties').getByText('Archived', { exact: true }).waitFor();
    await screenshot(page, 'entities-archived-desktop');
    await entities.button('Restore', 'Oakwood Properties').click();
    await entities.notice.filter({ hasText: 'Entity restored successfully.' }).waitFor();
    await entities.overlay('No entities found.').waitFor();
    expect((await getEntity(api, oakwood.id)).status).toBe(1);

    // Delete asks first; Cancel keeps it; Delete sends it to the recycle bin.
    await entities.filters.getByRole('button', { name: 'Only' }).click();
    await entities.nameSearch.fill('Oakwood');
    await entities.displayedRows().filter({ hasText: '1–1 of 1' }).waitFor();
    await entities.ask(
      'Delete',
      'Oakwood Properties',
      'Delete Oakwood Properties with all its invoices and payments? They stay in the recycle bin for 14 days and are then deleted permanently.',
    );
    await entities.dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await entities.names()).toEqual(['Oakwood Properties']);
    await entities.button('Delete', 'Oakwood Properties').click();
    await entities.confirm('Delete', 'Entity recycled successfully.');
    await entities.overlay('No entities found.').waitFor();
    expect((await listRecycleBin(api)).map((item) => [item.entityType, item.partyName])).toContainEqual([
      'Entity',
      'Oakwood Properties',
    ]);
    expect(browser.pageErrors).toEqual([]);
  });

  it('phone: from the top bar; search, sort, page; archive → restore → delete with confirm', async () => {
    const page = await browser.newPage({ viewport: PHONE, mobile: true });
    const user = await signUpAndLogin(page);
    const api = await apiLogin(user);
    await seedEntities(api);

    await page.getByRole('banner').getByRole('link', { name: 'Entities', exact: true }).click();
    await waitForPath(page, '/entities');
    const entities = new EntitiesPage(page);
    await entities.list.waitFor();
    expect(await overflows(page)).toBe(false);
    await entities.pagination().getByText('1–25 of 29').waitFor();
    // Sort by invoices, most first: Oakwood and Zenith lead.
    await page.getByRole('combobox', { name: 'Sort by' }).click();
    await page.getByRole('option', { name: 'Invoices' }).click();
    await page.getByRole('button', { name: 'Ascending, change to descending' }).click();
    await expect
      .poll(async () => (await entities.names()).slice(0, 2))
      .toEqual(['Oakwood Properties', 'Zenith Payroll']);
    const oakwood = entities.item('Oakwood Properties');
    expect(await oakwood.textContent()).toMatch(/\$1,080\.00 to pay/);
    expect(await oakwood.textContent()).toMatch(/Monthly on the 1st · \$1,250\.00 · next 2099-01-01/);
    expect(await oakwood.textContent()).toMatch(
      /Monthly on the 15th · about \$80\.00 \(same as last\) · next 2099-01-15/,
    );
    expect(await entities.item('Zenith Payroll').textContent()).toMatch(/\$4,000\.00 to collect/);
    await screenshot(page, 'entities-phone');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'entities-phone-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await entities.pagination().getByRole('button', { name: 'Go to next page' }).click();
    await entities.pagination().getByText('26–29 of 29').waitFor();
    await entities.pagination().getByRole('button', { name: 'Go to previous page' }).click();

    await entities.nameSearch.fill('zenith');
    await entities.pagination().getByText('1–1 of 1').waitFor();
    await entities.button('Archive', 'Zenith Payroll').click();
    await entities.confirm('Archive', 'Entity updated successfully.');
    await page.getByRole('status').filter({ hasText: 'No entities found.' }).waitFor();
    await entities.filters.getByRole('button', { name: 'Include' }).click();
    await entities.button('Restore', 'Zenith Payroll').click();
    await entities.notice.filter({ hasText: 'Entity restored successfully.' }).waitFor();
    await entities.button('Archive', 'Zenith Payroll').waitFor();
    await entities.button('Delete', 'Zenith Payroll').click();
    await entities.confirm('Delete', 'Entity recycled successfully.');
    await page.getByRole('status').filter({ hasText: 'No entities found.' }).waitFor();
    expect(await overflows(page)).toBe(false);
    expect(browser.pageErrors).toEqual([]);
  }, 90_000);
});

describe('entity page', () => {
  it('an archived entity’s own page offers Restore, which makes it active and editable again', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    const user = await signUpAndLogin(page);
    const api = await apiLogin(user);
    const entity = await createEntity(api, { name: 'Old Gym' });
    await archiveEntity(api, entity.id);

    const entityPage = await new EntityPage(page, 'Old Gym').goto(entity.id);
    await entityPage.banner.waitFor();
    expect(await entityPage.editButton.getAttribute('aria-disabled')).toBe('true');
    await screenshot(page, 'entity-archived-restore');
    await page.getByRole('button', { name: 'Restore', exact: true }).click();
    await page.locator('.MuiSnackbar-root').getByText('Entity restored successfully.').waitFor();
    await page.locator('.MuiChip-label', { hasText: 'Active' }).waitFor();
    expect(await entityPage.banner.count()).toBe(0);
    expect(await entityPage.editButton.getAttribute('aria-disabled')).toBeNull();
    expect(await page.getByRole('button', { name: 'Restore', exact: true }).count()).toBe(0);
    expect((await getEntity(api, entity.id)).status).toBe(1);
    expect(pathOf(page)).toBe(`/entities/${entity.id}`);
  });

  it('shows no all-zero Income card for an expense-only entity, nor an all-zero Expenses card for an income-only one', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    const user = await signUpAndLogin(page);
    const api = await apiLogin(user);
    const expenses = await createEntity(api, { name: 'Only Expenses' });
    await createInvoice(api, expenses.id, { flow: 'expense', amount: 75 });
    const income = await createEntity(api, { name: 'Only Income' });
    await createInvoice(api, income.id, { flow: 'income', amount: 300 });
    const both = await createEntity(api, { name: 'Both Ways' });
    await createInvoice(api, both.id, { flow: 'income', amount: 10 });
    await createInvoice(api, both.id, { flow: 'expense', amount: 20 });

    const expensePage = await new EntityPage(page, 'Only Expenses').goto(expenses.id);
    await expensePage.statsCard('Expenses Breakdown').getByText('$75.00').first().waitFor();
    expect(await expensePage.statsCard('Income Breakdown').count()).toBe(0);
    await screenshot(page, 'entity-expense-only-stats');

    const incomePage = await new EntityPage(page, 'Only Income').goto(income.id);
    await incomePage.statsCard('Income Breakdown').getByText('$300.00').first().waitFor();
    expect(await incomePage.statsCard('Expenses Breakdown').count()).toBe(0);

    const bothPage = await new EntityPage(page, 'Both Ways').goto(both.id);
    await bothPage.statsCard('Income Breakdown').getByText('$10.00').first().waitFor();
    await bothPage.statsCard('Expenses Breakdown').getByText('$20.00').first().waitFor();
  });

  it('phone: a long name wraps and leaves the actions on one line', async () => {
    const page = await browser.newPage({ viewport: PHONE, mobile: true });
    const user = await signUpAndLogin(page);
    const api = await apiLogin(user);
    const name = 'The Extraordinarily Long-Named Municipal Water and Sewer Authority of Greater Springfield';
    const entity = await createEntity(api, { name });
    await archiveEntity(api, entity.id);

    await new EntityPage(page, name).goto(entity.id);
    const actions = page.getByTestId('entity-actions');
    const buttons = actions.locator('.MuiButton-root');
    expect(await buttons.count()).toBe(2);
    const boxes = await Promise.all([0, 1].map(async (i) => buttons.nth(i).boundingBox()));
    const heights = boxes.map((box) => box?.height ?? 0);
    // One line of text each (an MUI button is 36.5 px high), side by side.
    for (const height of heights) expect(height).toBeLessThan(40);
    expect(boxes[0]?.y).toBe(boxes[1]?.y);
    expect(await overflows(page)).toBe(false);
    await screenshot(page, 'entity-long-name-phone');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'entity-long-name-phone-dark');
  });
});
