import type { PriceHistory } from '@billfold/contract/price-history';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiSession, createSignedInUser } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { screenshotBothThemes, useBrowser } from '../support/browser.ts';
import { createEntity, createInvoice } from '../support/domain.ts';
import { loginAs } from '../support/session.ts';
import { tableRows } from '../support/tables.ts';

const browser = useBrowser();
let api: ApiSession;
let entityId: number;

/** An electricity bill over thirteen months: it creeps up, and January is compared with the January before. */
beforeAll(async () => {
  api = await createSignedInUser();
  entityId = (await createEntity(api, { name: 'City Power', category: 'Utilities' })).id;
  const amounts = [80, 82, 85, 84, 88, 90, 91, 95, 97, 94, 99, 100, 96];
  for (const [i, amount] of amounts.entries()) {
    const month = i + 1;
    const date = month <= 12 ? `2025-${String(month).padStart(2, '0')}-15` : '2026-01-15';
    await createInvoice(api, entityId, { date, amount, flow: 'expense' });
  }
});

async function openEntity(page: Page) {
  await loginAs(page, api.user);
  await page.goto(`/entities/${entityId}`);
  await page.getByRole('heading', { name: 'Price history' }).waitFor();
  await page.getByTestId('price-chart').locator('svg').first().waitFor();
}

describe('entity page: price history', () => {
  it('draws the amounts, says the latest changes, and lists every invoice for screen readers', async () => {
    const page = await browser.newPage();
    await openEntity(page);
    const server = await api.request<PriceHistory>('GET', `/bills/${entityId}/price-history`);
    expect(server.count).toBe(13);
    // 96.00 after 100.00 is -4.00 (-4.0%); after the 80.00 of 2025-01-15, +16.00 (+20.0%).
    await expect
      .poll(() => page.getByTestId('price-latest').textContent())
      .toBe('Latest $96.00 on 2026-01-15 · -$4.00 (-4.0%) vs previous · +$16.00 (+20.0%) vs a year before');
    const table = await tableRows(page, 'Invoice amounts over time');
    expect(table[0]).toEqual(['Date', 'Invoice', 'Amount', 'Change vs previous', 'Change vs a year before']);
    expect(table[1]?.slice(2)).toEqual(['$80.00', '—', '—']);
    expect(table[2]?.slice(2)).toEqual(['$82.00', '+$2.00 (+2.5%)', '—']);
    expect(table[13]).toEqual([
      '2026-01-15',
      String(server.points[12]?.invoiceId),
      '$96.00',
      '-$4.00 (-4.0%)',
      '+$16.00 (+20.0%)',
    ]);
    expect(table).toHaveLength(14);
    await expectAccessible(page, 'the entity page with its price history');
    await page.getByRole('heading', { name: 'Price history' }).scrollIntoViewIfNeeded();
    await screenshotBothThemes(page, 'price-history-desktop');
  }, 120_000);

  it('fits a phone, light and dark', async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 }, mobile: true });
    await openEntity(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await expectAccessible(page, 'the price history on a phone');
    await screenshotBothThemes(page, 'price-history-phone');
  }, 120_000);
});
