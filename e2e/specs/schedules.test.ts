import type { Schedule } from '@billfold/contract/schedules';
import { describe, expect, it } from 'vitest';
import { EntityPage } from '../pages/entity-page.ts';
import { notice } from '../pages/notice.ts';
import { SchedulesSection } from '../pages/schedules-section.ts';
import { apiLogin } from '../support/api.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import { createEntity } from '../support/domain.ts';
import { signUpAndLogin } from '../support/session.ts';

const browser = useBrowser();

const iso = (date: Date) => date.toISOString().slice(0, 10);
/** The 1st of the month `offset` months from this one (UTC, the server's calendar). */
function firstOfMonth(offset: number): string {
  const now = new Date();
  return iso(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)));
}

const overflows = (page: import('playwright-core').Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe('recurring invoices on the entity page', () => {
  it('creates a schedule whose past invoices appear at once, then edits, pauses, resumes and deletes it', async () => {
    const page = await browser.newPage({ timezoneId: 'UTC' });
    const user = await signUpAndLogin(page);
    const api = await apiLogin(user);
    const entity = await createEntity(api, { name: 'Maple Street Landlord', category: 'Mortgage / Rent' });
    const entityPage = await new EntityPage(page, entity.name).goto(entity.id);
    const schedules = new SchedulesSection(page);
    await schedules.section.getByText('No recurring invoices.').waitFor();

    await schedules.newButton.click();
    await schedules.submit();
    await schedules.dialog.getByRole('alert').filter({ hasText: 'Amount is required.' }).waitFor();
    await schedules.fill({ description: 'Rent {Month}', amount: '1250' });
    await schedules.submit();
    await schedules.dialog
      .getByRole('alert')
      .filter({ hasText: 'Description has an unknown placeholder {Month}' })
      .waitFor();

    const first = firstOfMonth(-2);
    await schedules.fill({ description: 'Rent {month} {year}', firstDate: first, dueDays: '5' });
    await schedules.choose('Day of month', '1');
    await schedules.dialog.getByRole('checkbox', { name: 'Pay automatically on the due date' }).check();
    await schedules.submit();
    await schedules.dialog.getByRole('alert').filter({ hasText: 'Choose the payment method' }).waitFor();
    await schedules.choose('Payment method', 'Bank Transfer (ACH/EFT)');
    const preview = schedules.dialog.getByTestId('schedule-preview');
    await expect.poll(() => preview.textContent()).toContain('3 invoices dated up to today will be created at once.');
    expect(await preview.textContent()).toContain(`Monthly on the 1st. Next invoices: ${firstOfMonth(1)}, `);
    await screenshot(page, 'schedule-editor');
    await schedules.submit();
    // A first date in the past asks first, saying how many invoices it creates at once.
    await schedules.question
      .getByText(`This creates 3 invoices at once, dated ${first} to ${firstOfMonth(0)}.`)
      .waitFor();
    await schedules.question.getByRole('button', { name: 'Create 3 invoices' }).click();
    await notice(page).filter({ hasText: 'Schedule saved. 3 invoices created.' }).waitFor();
    await schedules.dialog.waitFor({ state: 'hidden' });

    const rent = schedules.item('Rent {month} {year}');
    await rent.getByText(`Next: ${firstOfMonth(1)}`).waitFor();
    // The fourth invoice's description, its placeholders filled in.
    const nextMonth = new Date(`${firstOfMonth(1)}T00:00:00Z`).toLocaleString('en-US', {
      month: 'long',
      timeZone: 'UTC',
    });
    expect(await rent.textContent()).toContain(
      `Next: ${firstOfMonth(1)} “Rent ${nextMonth} ${firstOfMonth(1).slice(0, 4)}”`,
    );
    expect(await rent.textContent()).toContain(
      'Monthly on the 1st · due 5 days after · autopay: Bank Transfer (ACH/EFT)',
    );
    await entityPage.invoices.settled();
    await expect.poll(() => entityPage.invoices.rows.count()).toBe(3);
    const month = new Date(`${first}T00:00:00Z`).toLocaleString('en-US', { month: 'long', timeZone: 'UTC' });
    await entityPage.invoices.row(`Rent ${month} ${first.slice(0, 4)}`).waitFor();
    await screenshot(page, 'schedules-section');

    // Edit: the amount of future invoices; the three created stay as they were.
    await rent.getByRole('button', { name: 'Edit schedule' }).click();
    expect(await schedules.field('Amount').inputValue()).toBe('1250.00');
    await schedules.fill({ amount: '1300' });
    await schedules.submit('Save');
    await notice(page).filter({ hasText: 'Schedule saved.' }).waitFor();
    await rent.getByText('$1,300.00').waitFor();
    expect(await entityPage.invoices.rows.count()).toBe(3);

    await rent.getByRole('button', { name: 'Pause schedule' }).click();
    await notice(page).filter({ hasText: 'Schedule paused.' }).waitFor();
    await rent.getByText('Paused').waitFor();
    await rent.getByRole('button', { name: 'Resume schedule' }).click();
    await notice(page).filter({ hasText: 'Schedule resumed.' }).waitFor();
    await rent.getByText(`Next: ${firstOfMonth(1)}`).waitFor();

    await rent.getByRole('button', { name: 'Delete schedule' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Schedule' });
    await confirm.getByText('The invoices it already created stay.').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await notice(page).filter({ hasText: 'Schedule deleted.' }).waitFor();
    await schedules.section.getByText('No recurring invoices.').waitFor();
    expect(await entityPage.invoices.rows.count()).toBe(3);
  });

  it('fits a phone in dark mode, and an archived entity’s schedules are read only', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, mobile: true, timezoneId: 'UTC' });
    await page.emulateMedia({ colorScheme: 'dark' });
    const user = await signUpAndLogin(page);
    const api = await apiLogin(user);
    const entity = await createEntity(api, { name: 'Streaming Service With A Long Name', category: 'Entertainment' });
    await api.request('POST', `/bills/${entity.id}/schedules`, {
      cadence: 'monthly',
      firstDate: firstOfMonth(1),
      dayOfMonth: 31,
      amount: 15.99,
      flow: 'expense',
      description: 'Subscription {month} {year}, family plan with a description long enough to wrap',
      dueDays: 0,
      autopay: 'credit|web',
    });
    const weekly = await api.request<Schedule>('POST', `/bills/${entity.id}/schedules`, {
      cadence: 'weekly',
      interval: 2,
      firstDate: firstOfMonth(1),
      amount: 40,
      flow: 'expense',
      description: 'Cleaning',
      count: 10,
    });
    await api.request('POST', `/schedules/${weekly.id}/pause`);
    await new EntityPage(page, entity.name).goto(entity.id);
    const schedules = new SchedulesSection(page);
    await schedules.item('Cleaning').getByText('Paused').waitFor();
    await schedules
      .item('Subscription')
      .getByText('Monthly on the 31st (the last day in shorter months) · autopay: Credit Card (Online)')
      .waitFor();
    expect(await overflows(page)).toBe(false);
    await screenshot(page, 'schedules-phone-dark');
    await schedules.item('Cleaning').getByRole('button', { name: 'Edit schedule' }).click();
    await schedules.dialog.getByRole('radio', { name: 'After a number of invoices' }).waitFor();
    expect(await schedules.field('Number of invoices').inputValue()).toBe('10');
    expect(await overflows(page)).toBe(false);
    await screenshot(page, 'schedule-editor-phone-dark');
    await schedules.dialog.getByRole('button', { name: 'Cancel' }).click();

    await api.request('PUT', '/bills', { id: entity.id, status: 0 });
    await page.reload();
    await schedules.item('Cleaning').waitFor();
    expect(await schedules.newButton.isDisabled()).toBe(true);
    expect(await schedules.item('Cleaning').getByRole('button', { name: 'Edit schedule' }).isDisabled()).toBe(true);
    expect(await schedules.item('Cleaning').getByRole('button', { name: 'Delete schedule' }).isDisabled()).toBe(true);
  });
});
