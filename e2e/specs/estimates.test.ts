import type { Entry } from '@billfold/contract/entries';
import type { Schedule } from '@billfold/contract/schedules';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { EntityPage } from '../pages/entity-page.ts';
import { HomePage } from '../pages/home-page.ts';
import { InvoicePage } from '../pages/invoice-page.ts';
import { notice } from '../pages/notice.ts';
import { SchedulesSection } from '../pages/schedules-section.ts';
import { type ApiSession, apiLogin } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { screenshot, screenshotBothThemes, useBrowser } from '../support/browser.ts';
import { createEntity, createInvoice, daysAgo } from '../support/domain.ts';
import { loginAs, signUpAndLogin } from '../support/session.ts';

const browser = useBrowser();
const today = () => new Date().toISOString().slice(0, 10);

const overflows = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

/**
 * Estimated and actual amounts (docs/decisions/0212-estimated-amounts.md, 0213-confirming-estimates.md): a schedule
 * that averages the last two bills, the estimated invoice it creates marked in the grid and on its page, confirmed
 * there, and its estimate against the actual amount once that differs.
 */
describe('estimated amounts', () => {
  let api: ApiSession;
  let invoice: Entry;

  it('a schedule averaging the last two bills creates an estimated invoice, marked in the grid', async () => {
    const page = await browser.newPage({ timezoneId: 'UTC' });
    const user = await signUpAndLogin(page);
    api = await apiLogin(user);
    const entity = await createEntity(api, { name: 'City Power', category: 'Utilities' });
    // Within Home's default last 30 days, oldest first.
    for (const [date, amount] of [
      [daysAgo(20), 80],
      [daysAgo(10), 90.01],
      [daysAgo(5), 120],
    ] as const)
      await createInvoice(api, entity.id, { date, amount, services: `Power ${date}` });

    await new EntityPage(page, entity.name).goto(entity.id);
    const schedules = new SchedulesSection(page);
    await schedules.newButton.click();
    await schedules.fill({ description: 'Power {month}', amount: '50', firstDate: today() });
    await schedules.choose('Amount is', 'Average of the last');
    await schedules.field('Invoices').fill('2');
    await schedules.dialog
      .getByText('Each invoice is estimated at the average of the last confirmed invoices')
      .waitFor();
    await expectAccessible(page, 'the schedule editor with an average');
    await screenshot(page, 'estimates-schedule-editor');
    await schedules.submit();
    await notice(page).filter({ hasText: 'Schedule saved.' }).waitFor();
    // (120.00 + 90.01) / 2 = 105.005, half a cent up.
    await schedules.item('Power {month}').getByText('about $105.01 (average of the last 2)').waitFor();
    const [saved] = (await api.request<{ schedules: Schedule[] }>('GET', `/bills/${entity.id}/schedules`)).schedules;
    expect(saved).toMatchObject({ amountMode: 'average', averageOf: 2, estimate: 105.01 });

    const list = await api.request<{ entries: Entry[] }>('GET', '/entries?sortField=date&sortOrder=desc');
    invoice = list.entries[0] as Entry;
    expect(invoice).toMatchObject({ amount: 105.01, estimate: 105.01, estimated: true });

    const home = await new HomePage(page).goto();
    await expect.poll(() => home.rows.count()).toBe(4);
    const amount = home.cell(invoice.invoiceId, 'amount');
    await expect.poll(() => amount.textContent()).toBe('≈ 105.01 (estimated)');
    expect(await home.cell(invoice.invoiceId - 1, 'amount').textContent()).toBe('120.00');
    // The Estimate column is hidden until chosen.
    expect(await home.columnHeader('Estimate').count()).toBe(0);
    await home.toolbarButton('Columns').click();
    await page.getByRole('checkbox', { name: 'Estimate' }).click();
    await page.keyboard.press('Escape');
    await home.columnHeader('Estimate').waitFor();
    expect(await home.cell(invoice.invoiceId, 'estimate').textContent()).toBe('105.01');
    expect(await home.cell(invoice.invoiceId - 1, 'estimate').textContent()).toBe('');
    await expectAccessible(page, 'the home grid with an estimated invoice');
    await screenshotBothThemes(page, 'estimates-home-desktop');
  }, 180_000);

  async function openInvoice(page: Page) {
    await loginAs(page, api.user);
    return new InvoicePage(page).goto(invoice.entryId);
  }

  it('the invoice page marks it until its amount is confirmed as it is', async () => {
    const page = await browser.newPage();
    const invoicePage = await openInvoice(page);
    await invoicePage.value('Amount').getByText('Estimated').waitFor();
    expect(await page.locator('dt', { hasText: /^Estimate$/ }).count()).toBe(0);
    await expectAccessible(page, 'an estimated invoice');
    await screenshotBothThemes(page, 'estimates-invoice-estimated-desktop');
    await page.getByRole('button', { name: 'Confirm Amount' }).click();
    await invoicePage.notice.filter({ hasText: `Amount of invoice #${invoice.invoiceId} confirmed.` }).waitFor();
    await page.getByRole('button', { name: 'Confirm Amount' }).waitFor({ state: 'detached' });
    expect(await invoicePage.value('Amount').textContent()).toBe('105.01');
    await expect.poll(() => invoicePage.value('Estimate').textContent()).toBe('105.01As estimated');
    expect(await api.request<Entry>('GET', `/entries/${invoice.entryId}`)).toMatchObject({ estimated: false });
  }, 120_000);

  it('shows the estimate against the actual amount and the difference, on desktop and phone', async () => {
    await api.request('PUT', '/entries/edit', { entryId: invoice.entryId, amount: 130 });
    const page = await browser.newPage();
    const invoicePage = await openInvoice(page);
    await expect.poll(() => invoicePage.value('Estimate').textContent()).toBe('105.0124.99 more than estimated');
    expect(await invoicePage.value('Amount').textContent()).toBe('130.00');
    await expectAccessible(page, 'a confirmed invoice with its estimate');
    await screenshotBothThemes(page, 'estimates-invoice-confirmed-desktop');

    const phone = await browser.newPage({ viewport: { width: 360, height: 740 }, mobile: true });
    const onPhone = await openInvoice(phone);
    await onPhone.value('Estimate').getByText('24.99 more than estimated').waitFor();
    expect(await overflows(phone)).toBe(false);
    await screenshotBothThemes(phone, 'estimates-invoice-phone');
    await api.request('PUT', '/entries/edit', { entryId: invoice.entryId, amount: 105.01 });
  }, 120_000);

  it('marks an estimated invoice on a phone, light and dark', async () => {
    const billId = invoice.billId;
    const manual = await createInvoice(api, billId, { date: today(), amount: 1, services: 'Manual' });
    expect(manual).toMatchObject({ estimate: null, estimated: false });
    // A second schedule, same as last, on the same entity: its invoice is estimated at the last confirmed amount.
    await api.request('POST', `/bills/${billId}/schedules`, {
      cadence: 'monthly',
      firstDate: today(),
      amount: 9,
      amountMode: 'last',
      flow: 'expense',
      description: 'Meter {month}',
      duplicates: 'create',
    });
    const page = await browser.newPage({ viewport: { width: 360, height: 740 }, mobile: true });
    await loginAs(page, api.user);
    const list = await api.request<{ entries: Entry[] }>('GET', '/entries?sortField=invoiceId&sortOrder=desc');
    const meter = list.entries[0] as Entry;
    expect(meter).toMatchObject({ estimated: true });
    const invoicePage = await new InvoicePage(page).goto(meter.entryId);
    await invoicePage.value('Amount').getByText('Estimated').waitFor();
    expect(await overflows(page)).toBe(false);
    await expectAccessible(page, 'an estimated invoice on a phone');
    await screenshotBothThemes(page, 'estimates-invoice-estimated-phone');
    // The phone's list of invoices marks it too.
    await page.goto('/home');
    const item = page.getByRole('listitem').filter({ hasText: `Invoice #${meter.invoiceId}` });
    await expect.poll(() => item.textContent()).toContain(`≈ ${meter.amount.toFixed(2)} (estimated)`);
    expect(await overflows(page)).toBe(false);
    await screenshotBothThemes(page, 'estimates-home-phone');
  }, 120_000);
});
