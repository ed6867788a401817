import type { Forecast } from '@billfold/contract/forecast';
import { formatAmount } from '@billfold/contract/money';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiSession, createSignedInUser } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { screenshotBothThemes, useBrowser } from '../support/browser.ts';
import { createEntity, createInvoice, daysAgo } from '../support/domain.ts';
import { loginAs } from '../support/session.ts';
import { tableRows } from '../support/tables.ts';

const browser = useBrowser();
let api: ApiSession;

/** Rent due in 3 days, income in 10, and a monthly schedule from in 5 days: the balance dips and recovers. */
beforeAll(async () => {
  api = await createSignedInUser();
  const landlord = await createEntity(api, { name: 'Landlord', category: 'Mortgage / Rent' });
  const client = await createEntity(api, { name: 'Acme Corp', category: 'Financial' });
  await createInvoice(api, landlord.id, { date: daysAgo(20), dueDate: daysAgo(-3), amount: 300 });
  await createInvoice(api, client.id, { date: daysAgo(2), dueDate: daysAgo(-10), amount: 1000, flow: 'income' });
  await api.request('POST', `/bills/${landlord.id}/schedules`, {
    cadence: 'monthly',
    firstDate: daysAgo(-5),
    amount: 200,
    flow: 'expense',
    description: 'Storage {month}',
    dueDays: 0,
  });
});

async function openForecast(page: Page) {
  await loginAs(page, api.user);
  const card = page.getByRole('button', { name: /^Cash-flow forecast/ });
  await card.click();
  return card;
}

describe('home: cash-flow forecast', () => {
  it('marks the lowest point from the starting balance the user sets, with a table of the days', async () => {
    const page = await browser.newPage();
    const summary = await openForecast(page);
    await page.getByTestId('forecast-chart').locator('svg').first().waitFor();
    const field = page.getByRole('textbox', { name: 'Starting balance' });
    await field.fill('-120.50');
    // The answer, not only the request: the server has the balance once it has answered.
    const [saved] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/api/v1/forecast/balance')),
      page.getByRole('button', { name: 'Save', exact: true }).click(),
    ]);
    expect(saved.request().postDataJSON()).toEqual({ balance: -120.5 });
    const server = await api.request<Forecast>('GET', `/forecast?months=3&today=${daysAgo(0)}`);
    expect(server.startingBalance).toBe(-120.5);
    const lowest = `lowest: ${server.lowest.date}, ${formatAmount(server.lowest.balance)}`;
    await expect.poll(() => summary.textContent()).toContain(lowest);
    // The rent takes the balance to -420.50 in three days; the table lists every day with money in or out.
    const table = await tableRows(page, 'Days with money in or out');
    expect(table[0]).toEqual(['Date', 'In', 'Out', 'Balance', 'From']);
    expect(table[1]).toEqual([daysAgo(-3), '$0.00', '$300.00', '-$420.50', 'Landlord $300.00']);
    expect(table[2]).toEqual([daysAgo(-5), '$0.00', '$200.00', '-$620.50', 'Landlord $200.00 (scheduled)']);
    expect(table[3]).toEqual([daysAgo(-10), '$1,000.00', '$0.00', '$379.50', 'Acme Corp $1,000.00']);
    expect(table.length - 1).toBe(server.days.filter((d) => d.income !== 0 || d.expenses !== 0).length);
    await expectAccessible(page, 'Home with the forecast open');
    await screenshotBothThemes(page, 'forecast-desktop');
    // A longer horizon asks the server for it.
    const [longer] = await Promise.all([
      page.waitForRequest((r) => new URL(r.url()).pathname === '/api/v1/forecast' && r.url().includes('months=24')),
      page.getByRole('button', { name: '24 months', exact: true }).click(),
    ]);
    expect(new URL(longer.url()).searchParams.get('today')).toBe(daysAgo(0));
  }, 120_000);

  it('fits a phone, light and dark', async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 }, mobile: true });
    await openForecast(page);
    await page.getByTestId('forecast-chart').locator('svg').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await expectAccessible(page, 'the forecast on a phone');
    await screenshotBothThemes(page, 'forecast-phone');
  }, 120_000);
});
