import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureInitialJs } from '../../packages/web/scripts/size.ts';
import { DataGridModel } from '../pages/data-grid.ts';
import { HomePage, queryOf } from '../pages/home-page.ts';
import { createSignedInUser } from '../support/api.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import { daysAgo, seedLedger, seedMany } from '../support/domain.ts';
import { loginAs, pathOf } from '../support/session.ts';

const browser = useBrowser();

/** The list query of the default view: the last 30 days, no end, active entities, first page of 100. */
const DEFAULT_QUERY = () => ({ startDate: daysAgo(30), archives: 'false', pageNum: '0', pageSize: '100' });

describe('home: invoice grid', () => {
  it('lists the last 30 days of active entities in the 11 columns, with links, icons and en-US amounts', async () => {
    const ledger = await seedLedger();
    const { entries, bills } = ledger;
    const page = await browser.newPage();
    const home = new HomePage(page);
    const first = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/v1/entries');
    await loginAs(page, ledger.api.user);
    expect(queryOf(new URL((await first).url()).searchParams)).toEqual(DEFAULT_QUERY());
    // Server order: date descending. The archived entity's invoice (7) and the 40-day-old one (8) are not listed.
    expect(await home.invoiceNumbers()).toEqual([5, 3, 1, 6, 2, 4]);

    const headers = await home.grid.getByRole('columnheader').allInnerTexts();
    expect(headers.map((h) => h.trim())).toEqual([
      'Invoice #',
      'Entity',
      'Date',
      'Flow',
      'Amount',
      'Paid',
      'Balance',
      'Description',
      'Category',
      'Internal',
      'Archived',
    ]);

    // Invoice # → /entries/{entryId}; Entity → /entities/{billId}.
    expect(await home.cell(1, 'invoiceId').getByRole('link').getAttribute('href')).toBe(
      `/entries/${entries.acmePaid.entryId}`,
    );
    expect(await home.cell(1, 'name').getByRole('link', { name: 'Acme Corp' }).getAttribute('href')).toBe(
      `/entities/${bills.acme.id}`,
    );
    await expect.poll(() => home.cell(1, 'date').textContent()).toBe(daysAgo(5));
    expect(await home.cell(1, 'amount').textContent()).toBe('1,000.00');
    expect(await home.cell(3, 'balance').textContent()).toBe('70.50');
    expect(await home.cell(3, 'services').textContent()).toBe('Electricity');
    expect(await home.cell(6, 'category').textContent()).toBe('Financial');

    // Paid: paid, overpaid, in progress (partial balance), unpaid. Flow: income, expense, internal.
    const paid = (n: number) => home.cell(n, 'status').getByRole('img').getAttribute('aria-label');
    expect([await paid(1), await paid(2), await paid(3), await paid(4)]).toEqual([
      'Paid',
      'Overpaid',
      'In Progress',
      'Unpaid',
    ]);
    const flow = (n: number) => home.cell(n, 'flow').getByRole('img').getAttribute('aria-label');
    expect([await flow(1), await flow(3), await flow(6)]).toEqual(['Income', 'Expense', 'Internal']);
    // The icon's tooltip names it too.
    await home.cell(3, 'status').getByRole('img').hover();
    await expect.poll(() => page.getByRole('tooltip').textContent()).toBe('In Progress');
    // Internal column: only the internal entity's invoice.
    expect(await home.cell(6, 'internal').getByRole('img', { name: 'yes' }).count()).toBe(1);
    expect(await home.cell(1, 'internal').getByRole('img', { name: 'no' }).count()).toBe(1);
    expect(await home.cell(1, 'archived').getByRole('img', { name: 'no' }).count()).toBe(1);
    await page.mouse.move(0, 0);
    await screenshot(page, 'home-invoices');
  });

  it('pages on the server: page sizes 5/10/25/50/100, next page, and Go-to-page with Page, Go, First, Last', async () => {
    const api = await createSignedInUser();
    await seedMany(api, 12);
    const page = await browser.newPage();
    const home = new HomePage(page);
    await loginAs(page, api.user);
    expect(await home.invoiceNumbers()).toHaveLength(12);

    await page.getByRole('combobox', { name: /rows per page/i }).click();
    const sizes = await page.getByRole('listbox').getByRole('option').allInnerTexts();
    expect(sizes.map((s) => s.trim())).toEqual(['5', '10', '25', '50', '100']);
    let query = await home.nextRequest(() => page.getByRole('option', { name: '5', exact: true }).click());
    expect(query.get('pageSize')).toBe('5');
    expect(query.get('pageNum')).toBe('0');
    expect(await home.invoiceNumbers()).toHaveLength(5);

    const box = home.goToPageBox();
    const range = page.locator('.MuiTablePagination-displayedRows');
    await expect.poll(() => box.textContent()).toContain('of 3');
    query = await home.nextRequest(() => box.getByRole('button', { name: 'Last' }).click());
    expect(query.get('pageNum')).toBe('2');
    expect(await home.invoiceNumbers()).toHaveLength(2);
    expect(await box.getByRole('button', { name: 'Last' }).isDisabled()).toBe(true);

    // Back to a page already seen: it comes from the cache, no request needed.
    await box.getByRole('button', { name: 'First' }).click();
    await expect.poll(() => range.textContent()).toBe('1–5 of 12');
    expect(await box.getByRole('button', { name: 'First' }).isDisabled()).toBe(true);

    await box.getByLabel('Page').fill('3');
    await box.getByRole('button', { name: 'Go' }).click();
    await expect.poll(() => range.textContent()).toBe('11–12 of 12');

    // A page beyond the last cannot be asked for; only digits go in.
    await box.getByLabel('Page').fill('4');
    expect(await box.getByRole('button', { name: 'Go' }).isDisabled()).toBe(true);
    await box.getByLabel('Page').fill('');
    await box.getByLabel('Page').pressSequentially('x2');
    expect(await box.getByLabel('Page').inputValue()).toBe('2');
    query = await home.nextRequest(() => box.getByLabel('Page').press('Enter'));
    expect(query.get('pageNum')).toBe('1');
    await expect.poll(() => range.textContent()).toBe('6–10 of 12');
    // The grid's own arrows page too.
    await page.getByRole('button', { name: 'Go to next page' }).click();
    await expect.poll(() => range.textContent()).toBe('11–12 of 12');
  });

  it('sorts on the server by the clicked column, ascending then descending', async () => {
    const ledger = await seedLedger();
    const page = await browser.newPage();
    const home = new HomePage(page);
    await loginAs(page, ledger.api.user);
    await home.settled();

    let query = await home.nextRequest(() => home.sortBy('Amount'));
    expect(queryOf(query)).toMatchObject({ sortField: 'amount', sortOrder: 'asc', pageNum: '0' });
    await expect.poll(() => home.invoiceNumbers()).toEqual([5, 4, 3, 6, 2, 1]);

    query = await home.nextRequest(() => home.sortBy('Amount'));
    expect(queryOf(query)).toMatchObject({ sortField: 'amount', sortOrder: 'desc' });
    await expect.poll(() => home.invoiceNumbers()).toEqual([1, 2, 6, 3, 4, 5]);

    query = await home.nextRequest(() => home.sortBy('Paid'));
    expect(queryOf(query)).toMatchObject({ sortField: 'status', sortOrder: 'asc' });
    query = await home.nextRequest(() => home.sortBy('Entity'));
    expect(queryOf(query)).toMatchObject({ sortField: 'name', sortOrder: 'asc' });
    await expect.poll(() => home.invoiceNumbers()).toEqual([1, 2, 3, 4, 5, 6]); // by name, then invoice number;
  });

  it('has New Invoice, a column chooser and a density chooser in its toolbar', async () => {
    const ledger = await seedLedger();
    const page = await browser.newPage();
    const home = new HomePage(page);
    await loginAs(page, ledger.api.user);
    await home.settled();

    // Column chooser: hide Description.
    await home.toolbarButton('Columns').click();
    await page.getByRole('checkbox', { name: 'Description' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => home.columnHeader('Description').count()).toBe(0);

    // Density chooser: compact rows are lower than standard ones.
    const standard = (await home.rows.first().boundingBox())?.height ?? 0;
    await home.toolbarButton('Density').click();
    await page.getByRole('menuitem', { name: 'Compact' }).click();
    await expect.poll(async () => (await home.rows.first().boundingBox())?.height ?? 0).toBeLessThan(standard);

    await page.getByRole('toolbar').getByRole('link', { name: 'New Invoice' }).click();
    await page.waitForURL((url) => url.pathname === '/invoice');
    expect(pathOf(page)).toBe('/invoice');
  });

  it('exports the current filters and sort as a CSV download, with the bearer token', async () => {
    const ledger = await seedLedger();
    const page = await browser.newPage();
    const home = new HomePage(page);
    await loginAs(page, ledger.api.user);
    await home.settled();
    await home.nextRequest(() => home.sortBy('Amount'));
    await home.settled();

    const [request, download] = await Promise.all([
      page.waitForRequest((r) => new URL(r.url()).pathname === '/api/v1/entries/export'),
      page.waitForEvent('download'),
      home.toolbarButton('Export CSV').click(),
    ]);
    expect(queryOf(new URL(request.url()).searchParams)).toEqual({
      startDate: daysAgo(30),
      archives: 'false',
      sortField: 'amount',
      sortOrder: 'asc',
    });
    expect((await request.allHeaders()).authorization).toMatch(/^Bearer \S+$/);
    expect(download.suggestedFilename()).toMatch(/^billfold-invoices-\d{4}-\d{2}-\d{2}\.csv$/);
    const path = await download.path();
    const { readFileSync } = await import('node:fs');
    const lines = readFileSync(path, 'utf8').trim().split(/\r?\n/);
    expect(lines).toHaveLength(1 + 6); // header and the six listed invoices
    expect(lines[1]).toContain('Corner Grocer'); // the smallest amount first, as sorted
  });

  it('is 600 px high; a phone gets the invoice list instead of a shorter grid (decision 0801)', async () => {
    const ledger = await seedLedger();
    const wide = await browser.newPage();
    await loginAs(wide, ledger.api.user);
    const wideHome = new HomePage(wide);
    await wideHome.settled();
    expect(Math.round((await wide.locator('.MuiDataGrid-root').boundingBox())?.height ?? 0)).toBe(600);

    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await loginAs(phone, ledger.api.user);
    await phone.getByRole('list', { name: 'Invoices' }).getByRole('listitem').first().waitFor();
    expect(await phone.locator('.MuiDataGrid-root').count()).toBe(0);
    await screenshot(phone, 'home-invoices-phone');
  });

  it('loads the Data Grid, pickers and charts with the /home chunk, not the initial one', () => {
    const report = measureInitialJs(resolve(import.meta.dirname, '../../packages/web/dist'));
    const initial = report.files.map((f) => f.file).join(' ');
    for (const chunk of ['DataGrid', 'DatePicker', 'StatsPanel', 'BarChart', 'HomePage']) {
      expect(initial).not.toContain(chunk);
    }
  });
});

describe('home: failed loads (docs/product.md, Calls and failures)', () => {
  it('shows a list that could not be loaded as an empty one, says the stats could not be loaded, and logs both', async () => {
    const ledger = await seedLedger();
    const page = await browser.newPage();
    const logged: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') logged.push(message.text());
    });
    await page.route(
      (url) => url.pathname === '/api/v1/entries' || url.pathname === '/api/v1/entries/stats',
      (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"statusCode":500}' }),
    );
    await loginAs(page, ledger.api.user);
    const home = new HomePage(page);
    await home.grid.getByText('No invoices found.').waitFor();
    // An empty page, not an unknown one: nothing to page through.
    await new DataGridModel(page, 'Invoices')
      .displayedRows()
      .filter({ hasText: /^0–0 of 0$/ })
      .waitFor();
    await screenshot(page, 'home-failed-list');
    await home.statsTab.click();
    await page.getByRole('status').filter({ hasText: 'Statistics could not be loaded.' }).waitFor();
    await screenshot(page, 'home-failed-stats');
    expect(logged.some((text) => text.includes('[api] GET /entries failed'))).toBe(true);
    expect(logged.some((text) => text.includes('[api] GET /entries/stats failed'))).toBe(true);
  });
});
