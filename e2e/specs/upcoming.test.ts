import type { Entry } from '@billfold/contract/entries';
import type { Schedule } from '@billfold/contract/schedules';
import { describe, expect, it } from 'vitest';
import { HomePage } from '../pages/home-page.ts';
import { type ApiSession, createSignedInUser } from '../support/api.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import { createEntity, daysAgo } from '../support/domain.ts';
import { loginAs } from '../support/session.ts';

const browser = useBrowser();

/** `YYYY-MM-DD` of `days` after today in the local time zone. */
const daysAhead = (days: number) => daysAgo(-days);

/**
 * An invoice due in 3 days, one due in 20 days, and a weekly schedule that has created nothing yet: its
 * occurrences fall in 3 (the 7 days), 10, 17 and 24 days (the 8–30 days).
 */
async function upcomingLedger(): Promise<{ api: ApiSession; soon: Entry; later: Entry; schedule: Schedule }> {
  const api = await createSignedInUser();
  const tag = Date.now().toString(36);
  const power = await createEntity(api, { name: `Power Co ${tag}` });
  const lawn = await createEntity(api, { name: `Lawn Care ${tag}` });
  const invoice = (body: Record<string, unknown>) =>
    api.request<Entry>('POST', '/entries/new', { billId: power.id, flow: 'expense', services: 'Seeded', ...body });
  const soon = await invoice({ date: daysAgo(5), dueDate: daysAhead(3), amount: 80 });
  const later = await invoice({ date: daysAgo(2), dueDate: daysAhead(20), amount: 45.5 });
  const schedule = await api.request<Schedule>('POST', `/bills/${lawn.id}/schedules`, {
    cadence: 'weekly',
    interval: 1,
    firstDate: daysAhead(3),
    amount: 100.01,
    flow: 'expense',
    description: 'Mowing {date}',
    dueDays: 0,
  });
  expect(schedule.createdCount).toBe(0);
  return { api, soon, later, schedule };
}

describe('the upcoming panel', () => {
  it('groups never repeat an invoice, every group lists its own, and scheduled invoices show marked', async () => {
    const { api, soon, later, schedule } = await upcomingLedger();
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    await loginAs(page, api.user);
    const panel = page.getByRole('region', { name: 'Upcoming and overdue' });
    const week = panel.getByRole('region', { name: 'Due in 7 days' });
    const month = panel.getByRole('region', { name: 'Due in 8–30 days' });
    await week.getByRole('heading', { name: 'Due in 7 days: 1 invoice · 1 scheduled' }).waitFor();
    expect(await month.getByRole('heading').textContent()).toBe('Due in 8–30 days: 1 invoice · 3 scheduled');

    // Each invoice is in exactly one group, with its own amount: no group repeats another's debt.
    const link = (e: Entry) => ({ name: `#${e.invoiceId} ${e.name}` });
    expect(await week.getByRole('link', link(soon)).count()).toBe(1);
    expect(await month.getByRole('link', link(soon)).count()).toBe(0);
    expect(await month.getByRole('link', link(later)).count()).toBe(1);
    expect(await panel.getByRole('link', link(soon)).count()).toBe(1);
    expect(await week.textContent()).toContain('$80.00 to pay');
    expect(await week.textContent()).not.toContain('$45.50');
    expect(await month.textContent()).toContain('$45.50 to pay');
    expect(await month.textContent()).not.toContain('$80.00');

    // What the schedule will create: marked, exact, linking to its entity, apart from the invoices' sums.
    expect(await week.textContent()).toContain('Scheduled: $100.01 to pay');
    expect(await month.textContent()).toContain('Scheduled: $300.03 to pay');
    const scheduledLines = month.getByRole('listitem').filter({ hasText: 'Scheduled' });
    expect(await scheduledLines.count()).toBe(3);
    expect(await scheduledLines.first().textContent()).toContain(daysAhead(10));
    const entityLink = week.getByRole('link', { name: `Lawn Care`, exact: false });
    expect(await entityLink.getAttribute('href')).toBe(`/entities/${schedule.entityId}`);
    // The 30-day link says it includes the first 7 days, as the grid's filter does.
    await month.getByRole('link', { name: 'Show the 2 due in 30 days in the grid' }).waitFor();

    await page.mouse.move(0, 0);
    await screenshot(page, 'upcoming-desktop-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'upcoming-desktop-dark');
  });

  it('on a phone, is one line of counts until opened, so the invoices stay on the first screen', async () => {
    const { api, soon } = await upcomingLedger();
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, mobile: true });
    await loginAs(page, api.user);
    const panel = page.getByRole('region', { name: 'Upcoming and overdue' });
    const summary = panel.getByText('0 overdue · 2 in 7 days · 4 in 8–30 days');
    await summary.waitFor();
    const details = panel.getByRole('button', { name: 'Details' });
    expect(await details.getAttribute('aria-expanded')).toBe('false');
    expect(await panel.getByRole('region', { name: 'Due in 7 days' }).count()).toBe(0);
    const box = await panel.boundingBox();
    expect(box?.height ?? 1000).toBeLessThan(120);
    // The first invoice of the list is on the first screen.
    const home = new HomePage(page);
    await expect.poll(() => home.page.getByText(`Invoice #${soon.invoiceId}`).count()).toBeGreaterThan(0);
    const first = await page.getByRole('listitem').filter({ hasText: 'Invoice #' }).first().boundingBox();
    expect((first?.y ?? 10_000) + 40).toBeLessThan(844);
    await screenshot(page, 'upcoming-phone-collapsed-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'upcoming-phone-collapsed-dark');

    await details.click();
    const week = panel.getByRole('region', { name: 'Due in 7 days' });
    await week.getByRole('heading', { name: 'Due in 7 days: 1 invoice · 1 scheduled' }).waitFor();
    expect(await panel.getByRole('button', { name: 'Hide' }).getAttribute('aria-expanded')).toBe('true');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await screenshot(page, 'upcoming-phone-open-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await screenshot(page, 'upcoming-phone-open-light');
  });
});
