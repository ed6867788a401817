import type { Entry } from '@billfold/contract/entries';
import { describe, expect, it } from 'vitest';
import { dateField, typeDate } from '../pages/date-field.ts';
import { HomePage } from '../pages/home-page.ts';
import { InvoiceFormPage } from '../pages/invoice-form-page.ts';
import { type ApiSession, createSignedInUser } from '../support/api.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import { createEntity, createPayment, daysAgo } from '../support/domain.ts';
import { loginAs, waitForPath } from '../support/session.ts';

const browser = useBrowser();

/** `YYYY-MM-DD` of `days` after today in the local time zone. */
const daysAhead = (days: number) => daysAgo(-days);

/** A user with an overdue expense, one due in 3 days, one income due in 20 days, and paid or undated ones. */
async function dueLedger(): Promise<{
  api: ApiSession;
  overdue: Entry;
  soon: Entry;
  later: Entry;
  paid: Entry;
  undated: Entry;
}> {
  const api = await createSignedInUser();
  const power = await createEntity(api, { name: `Power Co ${Date.now().toString(36)}` });
  const client = await createEntity(api, { name: `Acme ${Date.now().toString(36)}` });
  const invoice = (billId: number, body: Record<string, unknown>) =>
    api.request<Entry>('POST', '/entries/new', { billId, flow: 'expense', services: 'Seeded', ...body });
  const overdue = await invoice(power.id, { date: daysAgo(40), dueDate: daysAgo(10), amount: 120.5 });
  const soon = await invoice(power.id, { date: daysAgo(5), dueDate: daysAhead(3), amount: 80 });
  const later = await invoice(client.id, { date: daysAgo(2), dueDate: daysAhead(20), amount: 500, flow: 'income' });
  const paid = await invoice(power.id, { date: daysAgo(30), dueDate: daysAgo(5), amount: 10 });
  await createPayment(api, paid.entryId, { date: daysAgo(6), amount: 10 });
  const undated = await invoice(power.id, { date: daysAgo(3), amount: 42 });
  return { api, overdue, soon, later, paid, undated };
}

describe('due dates in the browser', () => {
  it('Home shows what is overdue and due soon, with links; the top bar counts the overdue ones', async () => {
    const { api, overdue, soon, later } = await dueLedger();
    const page = await browser.newPage();
    await loginAs(page, api.user);
    const panel = page.getByRole('region', { name: 'Upcoming and overdue' });
    await expect.poll(() => panel.getByRole('heading', { name: 'Overdue: 1 invoice' }).count()).toBe(1);
    expect(await panel.getByRole('heading', { name: 'Due in 7 days: 1 invoice' }).count()).toBe(1);
    expect(await panel.getByRole('heading', { name: 'Due in 8–30 days: 1 invoice' }).count()).toBe(1);
    const overdueGroup = panel.getByRole('region', { name: 'Overdue' });
    expect(await overdueGroup.textContent()).toContain('$120.50 to pay');
    expect(
      await overdueGroup.getByRole('link', { name: `#${overdue.invoiceId} ${overdue.name}` }).getAttribute('href'),
    ).toBe(`/entries/${overdue.entryId}`);
    expect(await panel.getByRole('link', { name: `#${soon.invoiceId} ${soon.name}` }).count()).toBe(1);
    const thirty = panel.getByRole('region', { name: 'Due in 8–30 days' });
    expect(await thirty.textContent()).toContain('$500.00 to collect');
    expect(await thirty.getByRole('link', { name: `#${later.invoiceId} ${later.name}` }).count()).toBe(1);

    const badge = page.getByRole('link', { name: '1 overdue invoice' });
    await badge.waitFor();
    await page.mouse.move(0, 0);
    await screenshot(page, 'due-home-panel-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'due-home-panel-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // "Show all" puts the overdue filter on the grid, with the date range cleared (the invoice is 40 days old).
    const home = new HomePage(page);
    const request = page.waitForRequest(
      (r) => new URL(r.url()).pathname === '/api/v1/entries' && new URL(r.url()).searchParams.get('due') === 'overdue',
    );
    await overdueGroup.getByRole('link', { name: 'Show all 1 in the grid' }).click();
    const query = new URL((await request).url()).searchParams;
    expect(query.get('startDate')).toBeNull();
    expect(query.get('today')).toBe(daysAgo(0));
    await expect.poll(() => home.invoiceNumbers()).toEqual([overdue.invoiceId]);
    expect(await home.filters.getByRole('button', { name: 'Overdue', pressed: true }).count()).toBe(1);
    await waitForPath(page, '/home');

    // The badge leads to the same selection from anywhere.
    await page.goto(`/entries/${soon.entryId}`);
    await badge.click();
    await waitForPath(page, '/home');
    await expect.poll(() => home.invoiceNumbers()).toEqual([overdue.invoiceId]);
  });

  it('the Due column is hidden until chosen, then sorts on the server with undated invoices last', async () => {
    const { api, soon, later, paid, undated } = await dueLedger();
    const page = await browser.newPage();
    const home = new HomePage(page);
    await loginAs(page, api.user);
    await expect.poll(() => home.rows.count()).toBeGreaterThan(0);
    expect(await home.columnHeader('Due').count()).toBe(0);
    // Show it from the column chooser.
    await home.toolbarButton('Columns').click();
    await page.getByRole('checkbox', { name: 'Due' }).click();
    await page.keyboard.press('Escape');
    await home.columnHeader('Due').waitFor();
    const sorted = page.waitForRequest((r) => new URL(r.url()).searchParams.get('sortField') === 'dueDate');
    await home.sortBy('Due');
    expect(new URL((await sorted).url()).searchParams.get('sortOrder')).toBe('asc');
    // The default 30 days leave out the 40-day-old invoice; the undated one comes last.
    await expect
      .poll(() => home.invoiceNumbers())
      .toEqual([paid.invoiceId, soon.invoiceId, later.invoiceId, undated.invoiceId]);
    expect(await home.cell(soon.invoiceId, 'dueDate').textContent()).toBe(daysAhead(3));
    await page.mouse.move(0, 0);
    await screenshot(page, 'due-grid-column');
  });

  it('the invoice form takes a due date, refuses one before the date, and the invoice page shows it', async () => {
    const api = await createSignedInUser();
    const entity = await createEntity(api, { name: `Landlord ${Date.now().toString(36)}` });
    const page = await browser.newPage();
    await loginAs(page, api.user);
    const form = await new InvoiceFormPage(page).gotoNew(entity.name);
    await form.flow('Expense').check();
    await form.amount.fill('1500');
    await typeDate(page, form.date, '2026-03-01');
    const due = dateField(page, 'Due date');
    await typeDate(page, due, '2026-02-20');
    await expect.poll(() => page.getByText('Due date must not be before the invoice date.').count()).toBe(1);
    await form.submitButton.click();
    expect(await form.notice.count()).toBe(0);
    await typeDate(page, due, '2026-03-15');
    await expect.poll(() => page.getByText('Due date must not be before the invoice date.').count()).toBe(0);
    const created = page.waitForResponse((r) => r.url().endsWith('/api/v1/entries/new'));
    await form.submitButton.click();
    const entry = (await (await created).json()) as Entry;
    expect(entry.dueDate).toBe('2026-03-15');
    await page.goto(`/entries/${entry.entryId}`);
    const dueItem = page.locator('dd', { hasText: '2026-03-15' });
    await dueItem.waitFor();
    // Unpaid and due in the past (the test machine's today is after 2026-03-15): marked overdue.
    expect(await dueItem.textContent()).toContain('Overdue');
    await screenshot(page, 'due-invoice-page');
  });

  it('works on a phone: the panel stacks and the list shows due dates', async () => {
    const { api, soon } = await dueLedger();
    const page = await browser.newPage({ viewport: { width: 360, height: 740 }, mobile: true });
    await loginAs(page, api.user);
    const panel = page.getByRole('region', { name: 'Upcoming and overdue' });
    await panel.getByRole('button', { name: 'Details' }).click();
    await panel.getByRole('heading', { name: 'Overdue: 1 invoice' }).waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    await expect.poll(() => page.getByText(`Due ${soon.dueDate}`, { exact: true }).count()).toBe(1);
    await screenshot(page, 'due-home-phone');
  });

  it('the account page turns on a private calendar feed and says reminders are not configured here', async () => {
    const { api, soon } = await dueLedger();
    const page = await browser.newPage();
    await loginAs(page, api.user);
    await page.goto('/account');
    const section = page.getByRole('region', { name: 'Due Dates' });
    await section.getByText('Email reminders are not configured on this server.', { exact: false }).waitFor();
    // Turning it on asks for the password; a wrong one is refused with the server's reason, in the dialog.
    await section.getByRole('button', { name: 'Turn On Feed' }).click();
    const dialog = page.getByRole('dialog', { name: 'Turn On Calendar Feed' });
    await dialog.getByLabel('Password', { exact: true }).fill('Wrong!Passw0rd');
    await dialog.getByRole('button', { name: 'Turn On' }).click();
    await dialog.getByText('Current password is incorrect.', { exact: true }).waitFor();
    await page.mouse.move(0, 0);
    await screenshot(page, 'due-account-feed-password');
    await dialog.getByLabel('Password', { exact: true }).fill(api.user.password);
    await dialog.getByRole('button', { name: 'Turn On' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const address = section.getByRole('textbox', { name: 'Calendar feed address' });
    await address.waitFor();
    const url = await address.inputValue();
    expect(url).toMatch(/\/api\/v1\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    await page.mouse.move(0, 0);
    await screenshot(page, 'due-account-feed');
    // A calendar app fetches it without a session.
    const feed = await fetch(url);
    expect(feed.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(await feed.text()).toContain(`UID:billfold-invoice-${soon.entryId}`);
    expect(feed.headers.get('cache-control')).toBe('private, max-age=300');
    // A new address asks for the password too, and the old address stops.
    await section.getByRole('button', { name: 'New Address' }).click();
    const again = page.getByRole('dialog', { name: 'New Calendar Address' });
    await again.getByLabel('Password', { exact: true }).fill(api.user.password);
    await again.getByRole('button', { name: 'Make New Address' }).click();
    await expect.poll(() => address.inputValue()).not.toBe(url);
    const second = await address.inputValue();
    expect((await fetch(url)).status).toBe(404);
    await section.getByRole('button', { name: 'Turn Off Feed' }).click();
    await section.getByRole('button', { name: 'Turn On Feed' }).waitFor();
    expect((await fetch(second)).status).toBe(404);
  });
});
