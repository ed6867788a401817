import { beforeAll, describe, expect, it } from 'vitest';
import { HomePage, queryOf } from '../pages/home-page.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import { daysAgo, type Ledger, seedLedger } from '../support/domain.ts';
import { loginAs } from '../support/session.ts';

const browser = useBrowser();
let ledger: Ledger;

beforeAll(async () => {
  ledger = await seedLedger();
});

/** Signed in on /home with the default view loaded (invoices 5, 3, 1, 6, 2, 4). */
async function openHome(): Promise<HomePage> {
  const page = await browser.newPage();
  await loginAs(page, ledger.api.user);
  const home = new HomePage(page);
  expect(await home.invoiceNumbers()).toEqual([5, 3, 1, 6, 2, 4]);
  return home;
}

/** The list filters of a request, without paging. */
function filtersOf(query: URLSearchParams): Record<string, string | string[]> {
  const { pageNum: _page, pageSize: _size, ...rest } = queryOf(query);
  return rest;
}

const DEFAULT_FILTERS = () => ({ startDate: daysAgo(30), archives: 'false' });

describe('home: filter panel', () => {
  it('Invoice # takes digits only, and searches for that number after 500 ms', async () => {
    const home = await openHome();
    const typedAt: number[] = [];
    const query = await home.nextRequest(async () => {
      await home.invoiceInput.click();
      for (const key of ['x', '2', '-', '.', 'e']) {
        typedAt.push(Date.now());
        await home.page.keyboard.press(key);
      }
    });
    const waited = Date.now() - (typedAt[1] ?? 0);
    expect(await home.invoiceInput.inputValue()).toBe('2');
    expect(filtersOf(query)).toEqual({ ...DEFAULT_FILTERS(), invoiceNum: '2' });
    expect(waited).toBeGreaterThanOrEqual(450); // the debounce
    expect(await home.invoiceNumbers()).toEqual([2]);

    // Several keystrokes within 500 ms make one request, for the final text.
    const requests: string[] = [];
    home.page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/v1/entries') requests.push(r.url());
    });
    await home.invoiceInput.fill('');
    await home.invoiceInput.pressSequentially('13', { delay: 100 });
    await expect.poll(() => requests.length, { timeout: 3000 }).toBe(1);
    expect(new URL(requests[0] as string).searchParams.get('invoiceNum')).toBe('13');
    await home.page.waitForTimeout(700);
    expect(requests).toHaveLength(1);
    expect(await home.invoiceNumbers()).toEqual([]);
  });

  it('Select Categories lists Uncategorized first then A–Z, filters by the chosen ones, and deletes a chip', async () => {
    const home = await openHome();
    await home.categorySelect.click();
    const options = (await home.page.getByRole('listbox').getByRole('option').allTextContents()).map((o) => o.trim());
    expect(options[0]).toBe('Uncategorized');
    expect(options.slice(1)).toEqual([...options.slice(1)].sort((a, b) => a.localeCompare(b)));
    expect(options).toHaveLength(21);
    expect(options).toContain('HOA / Taxes');
    await home.page.keyboard.press('Escape');

    let query = await home.nextRequest(() => home.pickOptions(home.categorySelect, ['Utilities', 'Groceries']));
    expect(filtersOf(query)).toEqual({ ...DEFAULT_FILTERS(), categoryList: ['Utilities', 'Groceries'] });
    expect(await home.invoiceNumbers()).toEqual([5, 3, 4]);

    const chip = home.filters.locator('.MuiChip-root', { hasText: 'Groceries' });
    expect(await chip.evaluate((e) => getComputedStyle(e).maxWidth)).toBe('150px');
    query = await home.nextRequest(() => chip.locator('.MuiChip-deleteIcon').click());
    expect(filtersOf(query)).toEqual({ ...DEFAULT_FILTERS(), categoryList: 'Utilities' });
    expect(await home.invoiceNumbers()).toEqual([3, 4]);
    expect(await home.page.getByRole('listbox').count()).toBe(0); // deleting a chip does not open the list
  });

  it('Select Entities lists the entities from GET /bills and filters by name', async () => {
    const home = await openHome();
    await home.entitySelect.click();
    const options = (await home.page.getByRole('listbox').getByRole('option').allTextContents()).map((o) => o.trim());
    expect(options).toEqual(['Acme Corp', 'City Power', 'Corner Grocer', 'Old Landlord', 'Savings Transfer']);
    await home.page.keyboard.press('Escape');
    const query = await home.nextRequest(() => home.pickOptions(home.entitySelect, ['Acme Corp']));
    expect(filtersOf(query)).toEqual({ ...DEFAULT_FILTERS(), partyList: 'Acme Corp' });
    expect(await home.invoiceNumbers()).toEqual([1, 2]);
  });

  it('switches between Single Date and Date Range (docs/product.md, Date mode)', async () => {
    const home = await openHome();
    // Single Date with a start date: that whole day.
    let query = await home.nextRequest(() => home.dateMode('Single Date').click());
    expect(filtersOf(query)).toEqual({ startDate: daysAgo(30), endDate: daysAgo(30), archives: 'false' });
    expect(await home.invoiceNumbers()).toEqual([]);
    expect(await home.dateField('Date').boundingBox()).toMatchObject({});
    expect(
      Math.round((await home.filters.locator('.MuiPickersTextField-root').first().boundingBox())?.width ?? 0),
    ).toBe(320);

    // Picking a date in Single Date mode selects that day.
    query = await home.nextRequest(() => home.typeDate('Date', daysAgo(5)));
    expect(filtersOf(query)).toEqual({ startDate: daysAgo(5), endDate: daysAgo(5), archives: 'false' });
    expect(await home.invoiceNumbers()).toEqual([1]);

    // Date Range keeps the start and clears the end.
    query = await home.nextRequest(() => home.dateMode('Date Range').click());
    expect(filtersOf(query)).toEqual({ startDate: daysAgo(5), archives: 'false' });
    expect(await home.invoiceNumbers()).toEqual([5, 3, 1]);
    const widths = await home.filters
      .locator('.MuiPickersTextField-root')
      .evaluateAll((fields) => fields.map((f) => Math.round(f.getBoundingClientRect().width)));
    expect(widths).toEqual([160, 160]);

    query = await home.nextRequest(() => home.typeDate('End Date', daysAgo(3)));
    expect(filtersOf(query)).toEqual({ startDate: daysAgo(5), endDate: daysAgo(3), archives: 'false' });
    expect(await home.invoiceNumbers()).toEqual([3, 1]);

    // Clearing a picker empties that side: everything up to the end date, the 40-day-old invoice too.
    query = await home.nextRequest(() => home.clearDate('Start Date'));
    expect(filtersOf(query)).toEqual({ endDate: daysAgo(3), archives: 'false' });
    expect(await home.invoiceNumbers()).toEqual([3, 1, 6, 2, 4, 8]);

    // Single Date with no start date: no dates at all.
    query = await home.nextRequest(() => home.dateMode('Single Date').click());
    expect(filtersOf(query)).toEqual({ archives: 'false' });
    expect(await home.invoiceNumbers()).toEqual([5, 3, 1, 6, 2, 4, 8]);
  });

  it('shows the date range error on Start Date and disables Search', async () => {
    const home = await openHome();
    const sent: string[] = [];
    home.page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/v1/entries') sent.push(r.url());
    });
    await home.typeDate('End Date', daysAgo(31));
    await home.helperText('Start date must not exceed end date.').waitFor();
    expect(await home.searchButton.isDisabled()).toBe(true);
    await home.page.waitForTimeout(800);
    expect(sent).toEqual([]); // neither the debounce nor Search sends an invalid range
    // The error belongs to Start Date.
    const start = home.filters.locator('.MuiPickersTextField-root').first();
    expect(await start.getByRole('group', { name: 'Start Date' }).count()).toBe(1);
    expect(await start.getByText('Start date must not exceed end date.').count()).toBe(1);
    await screenshot(home.page, 'home-filter-date-error');
    const query = await home.nextRequest(() => home.typeDate('End Date', daysAgo(30)));
    expect(filtersOf(query)).toEqual({ startDate: daysAgo(30), endDate: daysAgo(30), archives: 'false' });
    expect(await home.helperText('Start date must not exceed end date.').count()).toBe(0);
    expect(await home.searchButton.isEnabled()).toBe(true);
  });

  it('Min and Max Amount: $ fields, values below 1 empty, the Min > Max error blocks Search', async () => {
    const home = await openHome();
    await home.openMoreOptions();
    expect(await home.filters.getByText('$', { exact: true }).count()).toBe(2);

    let query = await home.nextRequest(() => home.minAmount.fill('100'));
    expect(filtersOf(query)).toEqual({ ...DEFAULT_FILTERS(), min: '100' });
    expect(await home.invoiceNumbers()).toEqual([3, 1, 6, 2]);
    query = await home.nextRequest(() => home.maxAmount.fill('400.5'));
    expect(filtersOf(query)).toEqual({ ...DEFAULT_FILTERS(), min: '100', max: '400.5' });
    expect(await home.invoiceNumbers()).toEqual([3, 6]);

    // Min above Max: the message, Search disabled, nothing sent.
    const sent: string[] = [];
    home.page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/v1/entries') sent.push(r.url());
    });
    await home.minAmount.fill('500');
    await home.helperText('Min must be less than or equal to Max.').waitFor();
    expect(await home.searchButton.isDisabled()).toBe(true);
    await home.page.waitForTimeout(800);
    expect(sent).toEqual([]);
    await screenshot(home.page, 'home-filter-amount-error');

    // Max below 1 counts as empty: no error, no max.
    query = await home.nextRequest(() => home.maxAmount.fill('0.5'));
    expect(await home.helperText('Min must be less than or equal to Max.').count()).toBe(0);
    expect(filtersOf(query)).toEqual({ ...DEFAULT_FILTERS(), min: '500' });
    expect(await home.invoiceNumbers()).toEqual([1, 2]);

    // Letters and a third decimal do not go in.
    await home.maxAmount.fill('');
    await home.maxAmount.pressSequentially('1a2.345');
    expect(await home.maxAmount.inputValue()).toBe('12.34');
  });

  it('Status, Flow and Archives are single-choice groups that deselect on a second click', async () => {
    const home = await openHome();
    await home.openMoreOptions();

    let query = await home.nextRequest(() => home.choice('Status', 'Paid or Overpaid').click());
    expect(filtersOf(query)).toEqual({ ...DEFAULT_FILTERS(), paid: 'true' });
    expect(await home.invoiceNumbers()).toEqual([5, 1, 2]);
    expect(await home.choice('Status', 'Paid or Overpaid').getAttribute('aria-pressed')).toBe('true');
    query = await home.nextRequest(() => home.choice('Status', 'Unpaid or In Progress').click());
    expect(filtersOf(query)).toEqual({ ...DEFAULT_FILTERS(), paid: 'false' });
    expect(await home.invoiceNumbers()).toEqual([3, 6, 4]);
    query = await home.nextRequest(() => home.choice('Status', 'Overpaid').click());
    expect(filtersOf(query)).toEqual({ ...DEFAULT_FILTERS(), paid: 'overpaid' });
    expect(await home.invoiceNumbers()).toEqual([2]);
    query = await home.nextRequest(() => home.choice('Status', 'In Progress').click());
    expect(filtersOf(query)).toEqual({ ...DEFAULT_FILTERS(), paid: 'partial' });
    expect(await home.invoiceNumbers()).toEqual([3]);
    // Second click: deselected, every status again (the default list, already in the cache).
    await home.choice('Status', 'In Progress').click();
    await expect.poll(() => home.invoiceNumbers()).toEqual([5, 3, 1, 6, 2, 4]);
    expect(await home.choice('Status', 'In Progress').getAttribute('aria-pressed')).toBe('false');

    query = await home.nextRequest(() => home.choice('Flow', 'Income').click());
    expect(filtersOf(query)).toEqual({ ...DEFAULT_FILTERS(), flow: 'income' });
    expect(await home.invoiceNumbers()).toEqual([1, 2]);
    query = await home.nextRequest(() => home.choice('Flow', 'Expense').click());
    expect(filtersOf(query)).toEqual({ ...DEFAULT_FILTERS(), flow: 'expense' });
    expect(await home.invoiceNumbers()).toEqual([5, 3, 4]);
    query = await home.nextRequest(() => home.choice('Flow', 'Internal').click());
    expect(filtersOf(query)).toEqual({ ...DEFAULT_FILTERS(), flow: 'internal' });
    expect(await home.invoiceNumbers()).toEqual([6]);
    await home.choice('Flow', 'Internal').click();
    await expect.poll(() => home.invoiceNumbers()).toEqual([5, 3, 1, 6, 2, 4]);

    // Archives: Include → both (no parameter), Only → archived only, none → active only.
    query = await home.nextRequest(() => home.choice('Archives', 'Include').click());
    expect(filtersOf(query)).toEqual({ startDate: daysAgo(30) });
    expect(await home.invoiceNumbers()).toEqual([5, 3, 1, 6, 2, 7, 4]);
    query = await home.nextRequest(() => home.choice('Archives', 'Only').click());
    expect(filtersOf(query)).toEqual({ startDate: daysAgo(30), archives: 'true' });
    expect(await home.invoiceNumbers()).toEqual([7]);
    expect(await home.cell(7, 'archived').getByRole('img', { name: 'yes' }).count()).toBe(1);
    await home.choice('Archives', 'Only').click();
    await expect.poll(() => home.invoiceNumbers()).toEqual([5, 3, 1, 6, 2, 4]);
    await screenshot(home.page, 'home-more-options');
  });

  it('each Status label names exactly the states it returns, in the words of the Paid column', async () => {
    const home = await openHome();
    await home.openMoreOptions();
    const group = home.filters.getByRole('group', { name: 'Status' });
    expect(await group.getByRole('button').allTextContents()).toEqual([
      'Paid or Overpaid',
      'Unpaid or In Progress',
      'Overpaid',
      'In Progress',
    ]);
    const icons = async () => {
      const out = new Set<string>();
      for (const n of await home.invoiceNumbers()) {
        out.add((await home.cell(n, 'status').getByRole('img').getAttribute('aria-label')) ?? '');
      }
      return [...out].sort();
    };
    // The seeded ledger has every state, so each label's words are exactly the states of what it returns.
    for (const label of ['Paid or Overpaid', 'Unpaid or In Progress', 'Overpaid', 'In Progress']) {
      await home.nextRequest(() => home.choice('Status', label).click());
      await expect.poll(icons).toEqual(label.split(' or ').sort());
    }
    await home.page.mouse.move(0, 0);
    await screenshot(home.page, 'status-filter-words');
  });

  it('Search asks the server again now; Clear Filters resets everything to the defaults', async () => {
    const home = await openHome();
    let query = await home.nextRequest(() => home.searchButton.click());
    expect(filtersOf(query)).toEqual(DEFAULT_FILTERS());

    await home.openMoreOptions();
    await home.invoiceInput.fill('1');
    await home.pickOptions(home.categorySelect, ['Financial']);
    await home.pickOptions(home.entitySelect, ['Acme Corp']);
    await home.minAmount.fill('10');
    await home.choice('Status', 'Paid or Overpaid').click();
    await home.choice('Flow', 'Income').click();
    await home.choice('Archives', 'Include').click();
    query = await home.nextRequest(() => home.dateMode('Single Date').click());
    expect(filtersOf(query)).toEqual({
      startDate: daysAgo(30),
      endDate: daysAgo(30),
      invoiceNum: '1',
      categoryList: 'Financial',
      partyList: 'Acme Corp',
      min: '10',
      flow: 'income',
      paid: 'true',
    });
    expect(await home.invoiceNumbers()).toEqual([]);

    await home.clearButton.click();
    await expect.poll(() => home.invoiceNumbers()).toEqual([5, 3, 1, 6, 2, 4]);
    expect(await home.invoiceInput.inputValue()).toBe('');
    expect(await home.filters.locator('.MuiChip-root').count()).toBe(0);
    expect(await home.minAmount.inputValue()).toBe('');
    expect(await home.dateMode('Date Range').getAttribute('aria-pressed')).toBe('true');
    expect(await home.dateField('End Date').getByRole('spinbutton', { name: 'Year' }).textContent()).toBe('YYYY');
    for (const [group, option] of [
      ['Status', 'Paid or Overpaid'],
      ['Flow', 'Income'],
      ['Archives', 'Include'],
    ] as const) {
      expect(await home.choice(group, option).getAttribute('aria-pressed')).toBe('false');
    }
    query = await home.nextRequest(() => home.searchButton.click());
    expect(filtersOf(query)).toEqual(DEFAULT_FILTERS());
  });
});
