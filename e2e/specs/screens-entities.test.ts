import { describe, expect, it } from 'vitest';
import { ArchivesPage } from '../pages/archives-page.ts';
import { EditEntityPage } from '../pages/edit-entity-page.ts';
import { EntityPage } from '../pages/entity-page.ts';
import { InvoiceFormPage } from '../pages/invoice-form-page.ts';
import { InvoicePage } from '../pages/invoice-page.ts';
import { TopBar } from '../pages/top-bar.ts';
import { apiLogin } from '../support/api.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import {
  archiveEntity,
  createEntity,
  createInvoice,
  createPayment,
  getEntity,
  listRecycleBin,
  seedInvoice,
} from '../support/domain.ts';
import { pathOf, signUpAndLogin, waitForPath } from '../support/session.ts';
import { shownUntilPath, watchTimeline } from '../support/timeline.ts';

const browser = useBrowser();

const BANNER = 'restore it from Archives in the History menu';

describe('entity page', () => {
  it('shows the entity, only its invoices (10 a page of 2/5/10/25/50/100) and its stats without insights', async () => {
    const page = await browser.newPage();
    const user = await signUpAndLogin(page);
    const api = await apiLogin(user);
    const entity = await createEntity(api, { name: 'Northwind Traders', category: 'Shopping' });
    const other = await createEntity(api, { name: 'Other Vendor' });
    for (let day = 1; day <= 12; day += 1) {
      await createInvoice(api, entity.id, { date: `2026-01-${String(day).padStart(2, '0')}`, amount: day * 10 });
    }
    await createInvoice(api, other.id, { amount: 999 });
    const paid = await createInvoice(api, entity.id, { flow: 'income', amount: 200, date: '2026-02-01' });
    await createPayment(api, paid.entryId, { amount: 150 });

    const entityPage = await new EntityPage(page, entity.name).goto(entity.id);
    await entityPage.invoices.settled();
    await entityPage.invoices.displayedRows().filter({ hasText: '1–10 of 13' }).waitFor();
    expect(await entityPage.invoices.rows.count()).toBe(10);
    expect(await entityPage.invoices.row('Other Vendor').count()).toBe(0);
    expect(await entityPage.invoices.pageSizeOptions()).toEqual(['2', '5', '10', '25', '50', '100']);
    await page.locator('.MuiChip-label', { hasText: 'Shopping' }).waitFor();
    await entityPage.statsCard('Income Breakdown').waitFor();
    await entityPage.statsCard('Expenses Breakdown').waitFor();
    await entityPage.statsCard('Income Breakdown').getByText('$200.00').first().waitFor();
    expect(await page.getByText('Top Payment Insights').count()).toBe(0);
    expect(await entityPage.banner.count()).toBe(0);
    await screenshot(page, 'entity');

    // New Invoice in the grid's toolbar preselects this entity.
    await entityPage.newInvoiceButton().click();
    const form = new InvoiceFormPage(page);
    await form.heading('New Invoice').waitFor();
    expect(new URL(page.url()).searchParams.get('entityName')).toBe('Northwind Traders');
    expect(await form.entity.inputValue()).toBe('Northwind Traders');
    expect(browser.pageErrors).toEqual([]);
  });

  it('edits the entity and returns to the page it came from; an empty name is refused', async () => {
    const page = await browser.newPage();
    const user = await signUpAndLogin(page);
    const api = await apiLogin(user);
    const { entity, entry } = await seedInvoice(api, { entity: { name: 'Gas Works', category: 'Utilities' } });

    // From the entity page back to the entity page.
    const entityPage = await new EntityPage(page, 'Gas Works').goto(entity.id);
    await entityPage.editButton.click();
    const edit = new EditEntityPage(page);
    await edit.heading.waitFor();
    expect(await edit.name.inputValue()).toBe('Gas Works');
    await edit.name.fill('   ');
    await edit.saveButton.click();
    await page.getByText('Entity name cannot be empty.', { exact: true }).waitFor();
    await screenshot(page, 'entity-edit-empty-name');
    await edit.name.fill('  Gas Works Ltd  ');
    await edit.pickCategory('Home Services');
    await edit.saveButton.click();
    await edit.notice.filter({ hasText: 'Entity updated successfully.' }).waitFor();
    await waitForPath(page, `/entities/${entity.id}`);
    await new EntityPage(page, 'Gas Works Ltd').heading.waitFor();
    expect(await getEntity(api, entity.id)).toMatchObject({ name: 'Gas Works Ltd', category: 'Home Services' });

    // From the invoice page back to the invoice page.
    const invoice = await new InvoicePage(page).goto(entry.entryId);
    await invoice.link('Edit Entity').click();
    await edit.heading.waitFor();
    await edit.internal.check();
    await screenshot(page, 'entity-edit');
    await edit.saveButton.click();
    await edit.notice.filter({ hasText: 'Entity updated successfully.' }).waitFor();
    await waitForPath(page, `/entries/${entry.entryId}`);
    await invoice.value('Flow').filter({ hasText: 'Internal' }).waitFor();
    expect(await getEntity(api, entity.id)).toMatchObject({ internal: true });
  });

  it('archives after a confirmation, shows the archived entity read only everywhere, and restores it from Archives', async () => {
    const page = await browser.newPage();
    const user = await signUpAndLogin(page);
    const api = await apiLogin(user);
    const { entity, entry } = await seedInvoice(api, { entity: { name: 'Old Gym' }, payments: [20] });

    await new EntityPage(page, 'Old Gym').goto(entity.id);
    await page.getByRole('link', { name: 'Edit Entity' }).click();
    const edit = new EditEntityPage(page);
    await edit.heading.waitFor();
    await edit.archiveButton.click();
    await edit.dialog.getByText('Archive Old Gym?').waitFor();
    await screenshot(page, 'entity-archive-confirm');
    await watchTimeline(page, 'Entity updated successfully.');
    await edit.dialog.getByRole('button', { name: 'Archive' }).click();
    await edit.notice.filter({ hasText: 'Entity updated successfully.' }).waitFor();
    await waitForPath(page, '/home');
    expect(await shownUntilPath(page, '/home')).toBeGreaterThanOrEqual(1000);
    expect(await getEntity(api, entity.id)).toMatchObject({ status: 0 });

    // Entity page: banner, no edit, no new invoice.
    const entityPage = await new EntityPage(page, 'Old Gym').goto(entity.id);
    await entityPage.banner.filter({ hasText: BANNER }).waitFor();
    expect(await entityPage.editButton.getAttribute('aria-disabled')).toBe('true');
    expect(await entityPage.newInvoiceButton().getAttribute('aria-disabled')).toBe('true');
    expect(await entityPage.newInvoiceButton().getAttribute('tabindex')).toBe('-1');
    await screenshot(page, 'entity-archived');

    // Invoice page: every edit, add and delete control is off.
    const invoice = await new InvoicePage(page).goto(entry.entryId);
    await invoice.banner.filter({ hasText: BANNER }).waitFor();
    for (const name of ['Edit Invoice', 'Edit Entity']) {
      expect(await invoice.link(name).getAttribute('aria-disabled')).toBe('true');
    }
    expect(await invoice.button('Delete Invoice').isDisabled()).toBe(true);
    expect(await invoice.button('Add Payment').isDisabled()).toBe(true);
    expect(await invoice.paymentRows().first().getByRole('button', { name: 'Edit payment' }).isDisabled()).toBe(true);
    expect(await invoice.paymentRows().first().getByRole('button', { name: 'Delete payment' }).isDisabled()).toBe(true);
    await screenshot(page, 'invoice-archived');

    // Invoice form and entity form: fields and Save off.
    const form = await new InvoiceFormPage(page).gotoEdit(entry.entryId);
    await page.getByTestId('archived-banner').waitFor();
    expect(await form.submitButton.isDisabled()).toBe(true);
    expect(await form.amount.isDisabled()).toBe(true);
    expect(await form.entity.isDisabled()).toBe(true);
    await edit.goto(entity.id);
    await edit.banner.waitFor();
    expect(await edit.saveButton.isDisabled()).toBe(true);
    expect(await edit.archiveButton.isDisabled()).toBe(true);
    expect(await edit.name.isDisabled()).toBe(true);

    // Archives (through the History menu): Restore makes it active again.
    await (await new TopBar(page).openHistoryMenu()).getByRole('menuitem', { name: 'Archives' }).click();
    const archives = new ArchivesPage(page);
    await archives.heading.waitFor();
    await archives.settled();
    await archives.row('Old Gym').waitFor();
    expect(await archives.pageSizeOptions()).toEqual(['10', '25', '50', '100']);
    await screenshot(page, 'archives');
    await archives.restoreButton('Old Gym').click();
    await archives.notice.filter({ hasText: 'Entity restored successfully.' }).waitFor();
    await archives.overlay('No archived entities found.').waitFor();
    await screenshot(page, 'archives-empty');
    expect(await getEntity(api, entity.id)).toMatchObject({ status: 1 });
    await invoice.goto(entry.entryId);
    expect(await invoice.button('Add Payment').isEnabled()).toBe(true);
    expect(await invoice.banner.count()).toBe(0);
    expect(pathOf(page)).toBe(`/entries/${entry.entryId}`);
  });

  it('deletes an archived entity from Archives after the 14-day warning', async () => {
    const page = await browser.newPage();
    const user = await signUpAndLogin(page);
    const api = await apiLogin(user);
    const entity = await createEntity(api, { name: 'Closed Account' });
    await archiveEntity(api, entity.id);
    for (let i = 0; i < 26; i += 1) await archiveEntity(api, (await createEntity(api, { name: `Filler ${i}` })).id);

    const archives = await new ArchivesPage(page).goto();
    await archives.displayedRows().filter({ hasText: '1–25 of 27' }).waitFor();
    await archives.deleteButton('Closed Account').click();
    await archives.dialog.getByText('14 days').waitFor();
    await screenshot(page, 'archives-delete-confirm');
    await archives.dialog.getByRole('button', { name: 'Delete' }).click();
    await archives.notice.filter({ hasText: 'Entity recycled successfully.' }).waitFor();
    await archives.displayedRows().filter({ hasText: '1–25 of 26' }).waitFor();
    expect(await listRecycleBin(api)).toEqual([
      expect.objectContaining({ entityType: 'Entity', entityId: entity.id, partyName: 'Closed Account' }),
    ]);
  });
});
