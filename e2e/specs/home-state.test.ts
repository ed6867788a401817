import { beforeAll, describe, expect, it } from 'vitest';
import { HomePage, queryOf } from '../pages/home-page.ts';
import { TopBar } from '../pages/top-bar.ts';
import { useBrowser } from '../support/browser.ts';
import { daysAgo, type Ledger, seedLedger } from '../support/domain.ts';
import { loginAs, sessionStorageOf, waitForPath } from '../support/session.ts';

const browser = useBrowser();
let ledger: Ledger;

beforeAll(async () => {
  ledger = await seedLedger();
});

const VIEW_KEYS = [
  'filters',
  'includeArchived',
  'dateRange',
  'dateMode',
  'page',
  'pageSize',
  'columnVisibility',
  'columnWidths',
  'sortModel',
  'showMoreOptions',
];

/** Filters, sort, page size 5, the second page and a hidden column: the list query that results. */
async function customise(home: HomePage): Promise<Record<string, string | string[]>> {
  await home.openMoreOptions();
  await home.pickOptions(home.categorySelect, ['Financial', 'Utilities', 'Groceries']);
  await home.minAmount.fill('1');
  await home.nextRequest(() => home.typeDate('End Date', daysAgo(0)));
  await home.nextRequest(() => home.sortBy('Amount'));
  await home.nextRequest(() => home.sortBy('Amount'));
  await home.page.getByRole('combobox', { name: /rows per page/i }).click();
  await home.nextRequest(() => home.page.getByRole('option', { name: '5', exact: true }).click());
  const last = await home.nextRequest(() => home.goToPageBox().getByRole('button', { name: 'Last' }).click());
  await home.toolbarButton('Columns').click();
  await home.page.getByRole('checkbox', { name: 'Description' }).click();
  await home.page.keyboard.press('Escape');
  expect(await home.invoiceNumbers()).toEqual([5]);
  return queryOf(last);
}

describe('home: saved state', () => {
  it('keeps filters, date range and mode, page, page size, sort and columns in session storage across a reload', async () => {
    const page = await browser.newPage();
    await loginAs(page, ledger.api.user);
    const home = new HomePage(page);
    await home.settled();
    const query = await customise(home);
    expect(query).toEqual({
      startDate: daysAgo(30),
      endDate: daysAgo(0),
      categoryList: ['Financial', 'Utilities', 'Groceries'],
      min: '1',
      archives: 'false',
      pageNum: '1',
      pageSize: '5',
      sortField: 'amount',
      sortOrder: 'desc',
    });

    const saved = await sessionStorageOf(page);
    expect(JSON.parse(saved.filters ?? 'null')).toEqual({
      invoice: '',
      category: ['Financial', 'Utilities', 'Groceries'],
      biller: [],
      amountMin: 1,
      amountMax: null,
      status: null,
      flow: null,
      due: null,
      files: null,
    });
    expect(JSON.parse(saved.dateRange ?? 'null')).toEqual({ start: daysAgo(30), end: daysAgo(0) });
    expect(JSON.parse(saved.dateMode ?? 'null')).toBe('range');
    expect(JSON.parse(saved.includeArchived ?? 'null')).toBe(false);
    expect(JSON.parse(saved.page ?? 'null')).toBe(1);
    expect(JSON.parse(saved.pageSize ?? 'null')).toBe(5);
    expect(JSON.parse(saved.sortModel ?? 'null')).toEqual([{ field: 'amount', sort: 'desc' }]);
    expect(JSON.parse(saved.columnVisibility ?? 'null')).toMatchObject({ services: false });
    expect(JSON.parse(saved.showMoreOptions ?? 'null')).toBe(true);

    // Reload: the very same request, and the controls show what was chosen.
    const again = await home.nextRequest(() => page.reload());
    expect(queryOf(again)).toEqual(query);
    expect(await home.invoiceNumbers()).toEqual([5]);
    expect(await home.filters.locator('.MuiChip-root').allTextContents()).toEqual([
      'Financial',
      'Utilities',
      'Groceries',
    ]);
    expect(await home.showMoreOptions.isChecked()).toBe(true);
    expect(await home.minAmount.inputValue()).toBe('1');
    expect(await home.dateField('End Date').getByRole('spinbutton', { name: 'Day' }).textContent()).toBe(
      daysAgo(0).slice(8),
    );
    expect(await home.columnHeader('Description').count()).toBe(0);
    expect(await home.columnHeader('Amount').getAttribute('aria-sort')).toBe('descending');
    expect(await page.locator('.MuiTablePagination-displayedRows').textContent()).toBe('6–6 of 6');

    // A new filter goes back to the first page (and saves that).
    await home.nextRequest(() => home.choice('Flow', 'Expense').click());
    await expect.poll(async () => (await sessionStorageOf(page)).page).toBe('0');
  });

  it('reloads when the page comes back from the back-forward cache, keeping the saved state', async () => {
    const page = await browser.newPage();
    await loginAs(page, ledger.api.user);
    const home = new HomePage(page);
    await home.nextRequest(() => home.pickOptions(home.entitySelect, ['City Power']));
    await page.evaluate(() => {
      (window as { beforeReload?: boolean }).beforeReload = true;
    });
    const query = await home.nextRequest(() =>
      page.evaluate(() => window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }))),
    );
    expect(await page.evaluate(() => (window as { beforeReload?: boolean }).beforeReload)).toBeUndefined();
    expect(query.getAll('partyList')).toEqual(['City Power']);
    expect(await home.invoiceNumbers()).toEqual([3, 4]);
    // An ordinary pageshow (not from the cache) does nothing.
    await page.evaluate(() => {
      (window as { beforeReload?: boolean }).beforeReload = true;
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: false }));
    });
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as { beforeReload?: boolean }).beforeReload)).toBe(true);
  });

  it('saves Show more options under showMoreOptions', async () => {
    const page = await browser.newPage();
    await loginAs(page, ledger.api.user);
    const home = new HomePage(page);
    expect(await home.minAmount.count()).toBe(0); // the section is collapsed
    await home.openMoreOptions();
    await home.minAmount.waitFor();
    expect((await sessionStorageOf(page)).showMoreOptions).toBe('true');
    await page.reload();
    await home.minAmount.waitFor();
    expect(await home.showMoreOptions.isChecked()).toBe(true);
    await home.showMoreOptions.uncheck();
    expect((await sessionStorageOf(page)).showMoreOptions).toBe('false');
    await home.minAmount.waitFor({ state: 'detached' });
  });

  it('is cleared by logout: the next sign-in starts from the defaults', async () => {
    const page = await browser.newPage();
    await loginAs(page, ledger.api.user);
    const home = new HomePage(page);
    await home.settled();
    await customise(home);
    const before = await sessionStorageOf(page);
    for (const key of VIEW_KEYS) expect(before[key], key).toBeDefined();

    await new TopBar(page).logout(ledger.api.user.username);
    await waitForPath(page, '/');
    const after = await sessionStorageOf(page);
    for (const key of VIEW_KEYS) expect(after[key], key).toBeUndefined();

    const first = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/v1/entries');
    await loginAs(page, ledger.api.user);
    expect(queryOf(new URL((await first).url()).searchParams)).toEqual({
      startDate: daysAgo(30),
      archives: 'false',
      pageNum: '0',
      pageSize: '100',
    });
    expect(await home.showMoreOptions.isChecked()).toBe(false);
    expect(await home.columnHeader('Description').count()).toBe(1);
  });

  it("an entity page's grid keeps its own state, not the home page's keys", async () => {
    const page = await browser.newPage();
    await loginAs(page, ledger.api.user);
    const home = new HomePage(page);
    await home.settled();
    const saved = await sessionStorageOf(page);
    await page.goto(`/entities/${ledger.bills.acme.id}`);
    const grid = page.getByRole('grid').first();
    await grid.waitFor();
    await page.getByRole('combobox', { name: /rows per page/i }).click();
    await page.getByRole('option', { name: '5', exact: true }).click();
    await grid.getByRole('columnheader', { name: 'Amount' }).locator('.MuiDataGrid-columnHeaderTitle').click();
    await page.waitForTimeout(300);
    const now = await sessionStorageOf(page);
    for (const key of ['page', 'pageSize', 'sortModel', 'columnVisibility']) expect(now[key], key).toBe(saved[key]);
  });
});
