import type { Trends } from '@billfold/contract/trends';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { HomePage, queryOf } from '../pages/home-page.ts';
import { type ApiSession, createSignedInUser } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { screenshotBothThemes, useBrowser } from '../support/browser.ts';
import { createEntity, createInvoice } from '../support/domain.ts';
import { loginAs } from '../support/session.ts';
import { tableRows } from '../support/tables.ts';

const browser = useBrowser();
let api: ApiSession;

const usd = (n: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(n);

/**
 * Expenses in the first half of 2025 and of 2026 (the power bill goes up by 10.00 a year), income in some months:
 * the trends card over Start Date 2025-01-01.
 */
beforeAll(async () => {
  api = await createSignedInUser();
  const power = await createEntity(api, { name: 'Power Co', category: 'Utilities' });
  const grocer = await createEntity(api, { name: 'Corner Grocer', category: 'Groceries' });
  const client = await createEntity(api, { name: 'Acme Corp', category: 'Financial' });
  for (const year of [2025, 2026]) {
    for (let month = 1; month <= 6; month++) {
      const date = `${year}-${String(month).padStart(2, '0')}-10`;
      await createInvoice(api, power.id, { date, amount: 80 + month + (year - 2025) * 10 });
      await createInvoice(api, grocer.id, { date, amount: 45.25 });
      if (month % 2 === 1) await createInvoice(api, client.id, { date, flow: 'income', amount: 1000 });
    }
  }
});

async function openTrends(page: Page, phone = false): Promise<HomePage> {
  await loginAs(page, api.user);
  const home = new HomePage(page);
  await home.statsTab.click();
  // On a phone the filter panel opens from its button.
  if (phone) await page.getByRole('button', { name: /^Filters/ }).click();
  // The trends of the date typed in, not those of the default filters the tab opened with.
  const [request] = await Promise.all([
    page.waitForRequest((r) => {
      const url = new URL(r.url());
      return url.pathname === '/api/v1/entries/trends' && url.searchParams.get('startDate') === '2025-01-01';
    }),
    home.typeDate('Start Date', '2025-01-01'),
  ]);
  expect(queryOf(new URL(request.url()).searchParams)).toEqual({
    startDate: '2025-01-01',
    archives: 'false',
    interval: 'month',
  });
  return home;
}

describe('home: stats tab trends', () => {
  it('stacks each month by category and compares the years, with tables for screen readers, on desktop', async () => {
    const page = await browser.newPage();
    await openTrends(page);
    const card = page.getByRole('region', { name: 'Trends' });
    await expect.poll(async () => (await tableRows(page, 'Expenses by category and month')).length).toBeGreaterThan(1);
    const server = await api.request<Trends>('GET', '/entries/trends?startDate=2025-01-01&interval=month');
    const rows = await tableRows(page, 'Expenses by category and month');
    expect(rows[0]).toEqual(['Period', 'Income', 'Expenses', 'Net', 'Utilities', 'Groceries']);
    // Every period of the server's answer, in order, with its figures.
    expect(rows.slice(1).map((r) => r.slice(1, 4))).toEqual(
      server.periods.map((p) => [usd(p.income), usd(p.expenses), usd(p.net)]),
    );
    expect(rows[1]).toEqual(['Jan 2025', '$1,000.00', '$126.25', '$873.75', '$81.00', '$45.25']);
    expect(rows.find((r) => r[0] === 'Feb 2026')).toEqual([
      'Feb 2026',
      '$0.00',
      '$137.25',
      '-$137.25',
      '$92.00',
      '$45.25',
    ]);
    // Year over year: Jan of 2025 and 2026 side by side, and the change.
    const yoy = await tableRows(page, 'Expenses, year over year');
    expect(yoy[0]).toEqual(['Period', '2025', '2026', 'Change 2025 to 2026']);
    expect(yoy[1]).toEqual(['Jan', '$126.25', '$136.25', '+7.9%']);
    expect(yoy[12]).toEqual(['Dec', '$0.00', '', '']);
    expect(await card.getByTestId('trends-stacked-chart').locator('svg').count()).toBeGreaterThan(0);
    expect(await card.getByTestId('trends-yoy-chart').locator('svg').count()).toBeGreaterThan(0);
    await expectAccessible(page, 'the stats tab with trends');
    await card.scrollIntoViewIfNeeded();
    await screenshotBothThemes(page, 'trends-desktop');

    // By quarter, income: the request names the interval and the table follows.
    await card.getByRole('button', { name: 'Quarter', exact: true }).click();
    await card.getByRole('button', { name: 'Income', exact: true }).click();
    await expect
      .poll(async () => (await tableRows(page, 'Income by category and quarter'))[1])
      .toEqual(['Q1 2025', '$2,000.00', '$381.75', '$1,618.25', '$2,000.00']);
    const quarters = await tableRows(page, 'Income, year over year');
    expect(quarters[2]).toEqual(['Q2', '$1,000.00', '$1,000.00', '+0.0%']);
  }, 120_000);

  it('fits a phone, light and dark', async () => {
    // A 360 px screen with a fine pointer, so that the date picker takes typing (a touch one opens a dialog).
    const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
    await openTrends(page, true);
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await tableRows(page, 'Expenses by category and month')).length).toBeGreaterThan(1);
    const card = page.getByRole('region', { name: 'Trends' });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    await card.scrollIntoViewIfNeeded();
    await expectAccessible(page, 'the trends on a phone');
    await screenshotBothThemes(page, 'trends-phone');
  }, 120_000);
});
