import { describe, expect, it } from 'vitest';
import { ArchivesPage } from '../pages/archives-page.ts';
import { InvoicePage } from '../pages/invoice-page.ts';
import { RecyclePage } from '../pages/recycle-page.ts';
import { TopBar } from '../pages/top-bar.ts';
import { apiLogin } from '../support/api.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import {
  archiveEntity,
  createPayment,
  getEntity,
  getEntry,
  listPayments,
  listRecycleBin,
  seedInvoice,
} from '../support/domain.ts';
import { signUpAndLogin } from '../support/session.ts';

const browser = useBrowser();

/** The snackbar's distance from the bottom of the window (the recycle bin's notices sit at the bottom). */
async function noticeAtBottom(recycle: RecyclePage): Promise<boolean> {
  const box = await recycle.notice.first().boundingBox();
  const viewport = recycle.page.viewportSize();
  return box !== null && viewport !== null && box.y > viewport.height / 2;
}

describe('recycle bin', () => {
  it('deletes a payment, an invoice and an entity in the app, then restores each from the bin', async () => {
    const page = await browser.newPage();
    const user = await signUpAndLogin(page);
    const api = await apiLogin(user);
    const water = await seedInvoice(api, {
      entity: { name: 'Water Board', category: 'Utilities' },
      invoice: { amount: 80, date: '2026-03-05', services: 'March water' },
    });
    const payment = await createPayment(api, water.entry.entryId, {
      amount: 30,
      date: '2026-03-09',
      type: 'check',
      medium: 'mail',
      notes: 'cheque 1042',
    });
    const rent = await seedInvoice(api, {
      entity: { name: 'Landlord', category: 'Mortgage / Rent' },
      invoice: { amount: 1200, date: '2026-03-01', flow: 'expense', services: 'March rent' },
      payments: [1200],
    });
    const gym = await seedInvoice(api, { entity: { name: 'Gym Club', category: 'Personal Care / Fitness' } });

    // Payment: deleted on the invoice page.
    const invoice = await new InvoicePage(page).goto(water.entry.entryId);
    await invoice.paymentRow('cheque 1042').getByRole('button', { name: 'Delete payment' }).click();
    await invoice.dialog.getByRole('button', { name: 'Delete' }).click();
    await invoice.notice.filter({ hasText: 'Payment deleted successfully.' }).waitFor();
    // Invoice (with its payment): deleted on its page.
    await invoice.goto(rent.entry.entryId);
    await invoice.button('Delete Invoice').click();
    await invoice.dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL('**/home');
    // Entity: archived, then deleted on /archives.
    await archiveEntity(api, gym.entity.id);
    const archives = await new ArchivesPage(page).goto();
    await archives.deleteButton('Gym Club').click();
    await archives.dialog.getByRole('button', { name: 'Delete' }).click();
    await archives.notice.filter({ hasText: 'Entity recycled successfully.' }).waitFor();

    // The bin, reached through the History menu: newest first, the columns of docs/product.md, Recycle bin (/recycle).
    await (await new TopBar(page).openHistoryMenu()).getByRole('menuitem', { name: 'Recycle Bin' }).click();
    const recycle = new RecyclePage(page);
    await recycle.heading.waitFor();
    await recycle.settled();
    const headers = await recycle.grid.getByRole('columnheader').allInnerTexts();
    // Actions first (decision 0604): Restore stays in sight however wide the names make the other columns.
    expect(headers.map((h) => h.trim())).toEqual([
      'Actions',
      'Component',
      'Deletion Date',
      'Days Left',
      'Entity Name',
      'Invoice Number',
      'Invoice/Payment Date',
      'Amount',
      'Type',
      'Details',
    ]);
    expect(await recycle.rows.locator('[data-field="entityType"]').allInnerTexts()).toEqual([
      'Entity',
      'Invoice',
      'Payment',
    ]);
    const paymentRow = recycle.item('Payment', 'Water Board');
    await expect(recycle.cell(paymentRow, 'invoiceNumber').textContent()).resolves.toBe(String(water.entry.invoiceId));
    await expect(recycle.cell(paymentRow, 'entityDate').textContent()).resolves.toBe('2026-03-09');
    await expect(recycle.cell(paymentRow, 'amount').textContent()).resolves.toBe('30.00');
    await expect(recycle.cell(paymentRow, 'type').textContent()).resolves.toBe('Check (Mail)');
    await expect(recycle.cell(paymentRow, 'details').textContent()).resolves.toBe('cheque 1042');
    const invoiceRow = recycle.item('Invoice', 'Landlord');
    await expect(recycle.cell(invoiceRow, 'amount').textContent()).resolves.toBe('1,200.00');
    await expect(recycle.cell(invoiceRow, 'type').textContent()).resolves.toBe('Expense');
    await expect(recycle.cell(invoiceRow, 'details').textContent()).resolves.toBe('March rent');
    const entityRow = recycle.item('Entity', 'Gym Club');
    await expect(recycle.cell(entityRow, 'type').textContent()).resolves.toBe('Archived');
    await expect(recycle.cell(entityRow, 'details').textContent()).resolves.toBe('Personal Care / Fitness');
    await expect(recycle.cell(entityRow, 'recycleDate').textContent()).resolves.toMatch(
      /^\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}/,
    );
    expect(await recycle.pageSizeOptions()).toEqual(['10', '25', '50', '100']);
    await recycle.displayedRows().filter({ hasText: '1–3 of 3' }).waitFor();
    await screenshot(page, 'recycle');

    // Restore each: its notice sits at the bottom, and the item is back.
    await recycle.restore(paymentRow);
    await recycle.notice.filter({ hasText: 'Payment restored successfully.' }).waitFor();
    expect(await noticeAtBottom(recycle)).toBe(true);
    await screenshot(page, 'recycle-restored');
    await paymentRow.waitFor({ state: 'detached' });
    expect((await listPayments(api, water.entry.entryId)).map((p) => p.paymentId)).toEqual([payment.paymentId]);
    expect((await getEntry(api, water.entry.entryId)).balance.totalBalance).toBe(50);

    await recycle.restore(invoiceRow);
    await recycle.notice.filter({ hasText: 'Invoice restored successfully.' }).waitFor();
    await invoiceRow.waitFor({ state: 'detached' });
    // The invoice comes back with the payment deleted together with it.
    expect(await getEntry(api, rent.entry.entryId)).toMatchObject({ recycle: false, status: true });
    expect(await listPayments(api, rent.entry.entryId)).toHaveLength(1);

    await recycle.restore(entityRow);
    await recycle.notice.filter({ hasText: 'Entity restored successfully.' }).waitFor();
    await recycle.overlay('The recycle bin is empty.').waitFor();
    expect(await getEntity(api, gym.entity.id)).toMatchObject({ recycle: false, status: 0 });
    expect(await listRecycleBin(api)).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  });

  it('says Item not found for an item restored elsewhere, and Restore failed when the server refuses', async () => {
    const page = await browser.newPage();
    const user = await signUpAndLogin(page);
    const api = await apiLogin(user);
    const restored = await seedInvoice(api, { entity: { name: 'Stale Co' }, payments: [10] });
    const orphaned = await seedInvoice(api, { entity: { name: 'Orphan Co' }, payments: [20] });
    const first = restored.payments[0];
    const second = orphaned.payments[0];
    if (!first || !second) throw new Error('the payments were seeded');
    await api.request('PUT', '/payments', { paymentId: first.paymentId, recycle: true });
    await api.request('PUT', '/payments', { paymentId: second.paymentId, recycle: true });

    const recycle = await new RecyclePage(page).goto();
    await recycle.rows.nth(1).waitFor();
    // Behind the page's back: one payment is restored, the other's invoice is deleted.
    await api.request('PUT', '/payments', { paymentId: first.paymentId, recycle: false });
    await api.request('PUT', '/entries/edit', { entryId: orphaned.entry.entryId, recycle: true });

    await recycle.restore(recycle.item('Payment', 'Stale Co'));
    await recycle.notice.filter({ hasText: 'Item not found' }).waitFor();
    await recycle.restore(recycle.item('Payment', 'Orphan Co'));
    // The server's reason follows `Restore failed:` (docs/product.md, Messages).
    await recycle.notice.filter({ hasText: /^Restore failed: .*recycle bin/ }).waitFor();
    expect(await noticeAtBottom(recycle)).toBe(true);
  });

  it('pages the bin 25 at a time by default', async () => {
    const page = await browser.newPage();
    const user = await signUpAndLogin(page);
    const api = await apiLogin(user);
    const { entry } = await seedInvoice(api, { invoice: { amount: 1000 } });
    for (let i = 1; i <= 27; i += 1) {
      const p = await createPayment(api, entry.entryId, { amount: i });
      await api.request('PUT', '/payments', { paymentId: p.paymentId, recycle: true });
    }
    const recycle = await new RecyclePage(page).goto();
    await recycle.displayedRows().filter({ hasText: '1–25 of 27' }).waitFor();
    expect(await recycle.rows.count()).toBe(25);
    await recycle.pageSizeSelect().click();
    await page.getByRole('option', { name: '50' }).click();
    await recycle.displayedRows().filter({ hasText: '1–27 of 27' }).waitFor();
  });
});
