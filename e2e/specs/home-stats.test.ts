import type { Stats } from '@billfold/contract/stats';
import type { Locator } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { HomePage, queryOf } from '../pages/home-page.ts';
import { createSignedInUser } from '../support/api.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import { daysAgo, type Ledger, seedLedger } from '../support/domain.ts';
import { loginAs } from '../support/session.ts';

const browser = useBrowser();
let ledger: Ledger;

beforeAll(async () => {
  ledger = await seedLedger();
});

const usd = (n: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(n);

/** The figure shown next to `label` in a breakdown card. */
async function figure(card: Locator, label: string): Promise<string> {
  const term = card.locator('dt', { hasText: new RegExp(`^${label}$`) });
  return ((await term.locator('xpath=following-sibling::dd[1]').textContent()) ?? '').trim();
}

async function figures(card: Locator, labels: string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const label of labels) out[label] = await figure(card, label);
  return out;
}

/** Each insight list as title → ["name amount", …] or ["No data available"]. */
async function insights(home: HomePage): Promise<Record<string, string[]>> {
  const section = home.page.getByRole('region', { name: 'Top Payment Insights' });
  const out: Record<string, string[]> = {};
  for (const list of await section.getByRole('region').all()) {
    const title = ((await list.getByRole('heading').textContent()) ?? '').trim();
    const items = await list.getByRole('listitem').allTextContents();
    out[title] = items.length > 0 ? items : [((await list.locator('p').textContent()) ?? '').trim()];
  }
  return out;
}

const INCOME = ['Total Income', 'Received', 'Outstanding', 'Avg Payment Received', 'Max Payment Received'];
const EXPENSES = ['Total Expenses', 'Paid', 'Balance', 'Avg Payment Made', 'Max Payment Made'];

describe('home: stats tab', () => {
  it("shows the server's figures for the same filters as the grid, in USD, with the six top-5 lists", async () => {
    const page = await browser.newPage();
    await loginAs(page, ledger.api.user);
    const home = new HomePage(page);
    await home.settled();
    const request = await home.nextRequest(() => home.statsTab.click(), '/api/v1/entries/stats');
    expect(queryOf(request)).toEqual({ startDate: daysAgo(30), archives: 'false' });

    const income = page.getByRole('region', { name: 'Income Breakdown' });
    const expenses = page.getByRole('region', { name: 'Expenses Breakdown' });
    await expect.poll(() => figure(income, 'Total Income')).toMatch(/^\$/);

    // Equal to the server's own answer for those filters …
    const server = await ledger.api.request<Stats>('GET', `/entries/stats?startDate=${daysAgo(30)}&archives=false`);
    const n = (key: keyof Stats) => server[key] as number;
    expect(await figures(income, INCOME)).toEqual({
      'Total Income': usd(n('totalIncomeAmount')),
      Received: `${usd(n('totalReceivedPaymentAmount'))} (${usd(n('totalIncomeOverpaid'))} overpaid)`,
      Outstanding: usd(n('totalIncomeOutstanding')),
      'Avg Payment Received': usd(n('avgReceivedPaymentAmount')),
      'Max Payment Received': usd(n('maxReceivedPaymentAmount')),
    });
    expect(await figures(expenses, EXPENSES)).toEqual({
      'Total Expenses': usd(n('totalExpenseAmount')),
      Paid: `${usd(n('totalSentPaymentAmount'))} (${usd(n('totalExpenseOverpaid'))} overpaid)`,
      Balance: usd(n('totalExpenseUnpaid')),
      'Avg Payment Made': usd(n('avgSentPaymentAmount')),
      'Max Payment Made': usd(n('maxSentPaymentAmount')),
    });
    // … and to the ledger worked out by hand (internal and archived entities and old invoices left out).
    expect(await figures(income, INCOME)).toEqual({
      'Total Income': '$1,500.00',
      Received: '$1,500.00 ($50.00 overpaid)',
      Outstanding: '$0.00',
      'Avg Payment Received': '$775.00',
      'Max Payment Received': '$1,000.00',
    });
    expect(await figures(expenses, EXPENSES)).toEqual({
      'Total Expenses': '$245.75',
      Paid: '$95.25 ($0.00 overpaid)',
      Balance: '$150.50',
      'Avg Payment Made': '$47.63',
      'Max Payment Made': '$50.00',
    });

    // Payment methods by label, categories in title case, largest first.
    expect(await insights(home)).toEqual({
      'Top Income Sources': ['Acme Corp$1,550.00'],
      'Income by Type': ['Bank Transfer (ACH/EFT)$1,000.00', 'Check (Mail)$550.00'],
      'Income Categories': ['Financial$1,550.00'],
      'Top Expense Recipients': ['City Power$50.00', 'Corner Grocer$45.25'],
      'Expenses by Type': ['Credit Card (Online)$50.00', 'Debit Card (In Person)$45.25'],
      'Expense Categories': ['Utilities$50.00', 'Groceries$45.25'],
    });

    // The chart compares income and expenses.
    const chart = page.getByRole('region', { name: 'Income and Expenses' });
    expect(await chart.locator('svg').count()).toBeGreaterThan(0);
    expect(await chart.getByText('Income', { exact: true }).count()).toBeGreaterThan(0);
    expect(await chart.getByText('Expenses', { exact: true }).count()).toBeGreaterThan(0);
    await page.mouse.move(0, 0);
    await screenshot(page, 'home-stats');
  });

  it('follows the filter panel: Flow Internal counts internal invoices as expenses', async () => {
    const page = await browser.newPage();
    await loginAs(page, ledger.api.user);
    const home = new HomePage(page);
    await home.settled();
    await home.statsTab.click();
    await home.openMoreOptions();
    const request = await home.nextRequest(() => home.choice('Flow', 'Internal').click(), '/api/v1/entries/stats');
    expect(queryOf(request)).toEqual({ startDate: daysAgo(30), archives: 'false', flow: 'internal' });
    const expenses = page.getByRole('region', { name: 'Expenses Breakdown' });
    await expect.poll(() => figure(expenses, 'Total Expenses')).toBe('$300.00');
    expect(await figure(expenses, 'Balance')).toBe('$300.00');
    // Nothing but zeros on the income side: its card is left out while the expenses have figures.
    expect(await page.getByRole('region', { name: 'Income Breakdown' }).count()).toBe(0);
    const lists = await insights(home);
    expect(Object.values(lists)).toEqual(Array.from({ length: 6 }, () => ['No data available']));
  });

  it('shows $0.00 and No data available for a user without invoices', async () => {
    const api = await createSignedInUser();
    const page = await browser.newPage();
    await loginAs(page, api.user);
    const home = new HomePage(page);
    await home.statsTab.click();
    const income = page.getByRole('region', { name: 'Income Breakdown' });
    await expect.poll(() => figure(income, 'Total Income')).toBe('$0.00');
    expect(await figure(income, 'Received')).toBe('$0.00 ($0.00 overpaid)');
    expect(await page.getByText('No data available', { exact: true }).count()).toBe(6);
    await screenshot(page, 'home-stats-empty');
  });
});
