import type { RecycleItem } from '@billfold/contract/recycle';
import { describe, expect, it } from 'vitest';
import { RecyclePage } from '../pages/recycle-page.ts';
import { type ApiSession, createSignedInUser } from '../support/api.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import { listRecycleBin, seedInvoice } from '../support/domain.ts';
import { loginAs } from '../support/session.ts';

const browser = useBrowser();

/** A deleted invoice with two payments, a deleted entity with an invoice, and a payment deleted on its own. */
async function binWithItems(api: ApiSession) {
  const tag = Date.now().toString(36);
  const water = await seedInvoice(api, {
    entity: { name: `Water Board ${tag}` },
    invoice: { amount: 80, date: '2026-03-05', services: 'March water' },
    payments: [30, 20],
  });
  const gym = await seedInvoice(api, { entity: { name: `Gym Club ${tag}` }, invoice: { amount: 45 } });
  const power = await seedInvoice(api, { entity: { name: `Power Co ${tag}` }, payments: [10, 5] });
  await api.request('PUT', '/entries/edit', { entryId: water.entry.entryId, recycle: true });
  await api.request('PUT', '/bills', { id: gym.entity.id, recycle: true });
  const [, loose] = power.payments;
  await api.request('PUT', '/payments', { ...loose, recycle: true });
  return { water, gym, power, loose };
}

/** Whether the API still finds the item (with the bypass that shows recycled ones). */
async function exists(api: ApiSession, path: string): Promise<boolean> {
  const res = await fetch(`${api.origin}/api/v1${path}`, { headers: { authorization: `Bearer ${api.accessToken}` } });
  return res.ok;
}

describe('the recycle bin', () => {
  it('shows the days left before each item is purged', async () => {
    const api = await createSignedInUser();
    const { water } = await binWithItems(api);
    const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
    await loginAs(page, api.user);
    const recycle = await new RecyclePage(page).goto();
    await recycle.grid.getByRole('columnheader', { name: 'Days Left' }).waitFor();
    const row = recycle.item('Invoice', water.entity.name);
    // Deleted moments ago: the full 14 days, the exact moment in the title.
    expect(await recycle.cell(row, 'purgeDate').textContent()).toBe('14 days');
    const items = await listRecycleBin(api);
    const item = items.find((i) => i.entityType === 'Invoice') as RecycleItem;
    expect(Date.parse(`${item.purgeDate}Z`) - Date.parse(`${item.recycleDate}Z`)).toBe(14 * 24 * 3600 * 1000);
    expect(await recycle.rows.locator('[data-field="purgeDate"]').allTextContents()).toEqual([
      '14 days',
      '14 days',
      '14 days',
    ]);
    // Both actions are on screen beside the other columns at 1366 px.
    const grid = await recycle.grid.boundingBox();
    const remove = await row.getByRole('button', { name: /^Delete forever/ }).boundingBox();
    expect(remove && grid && remove.x + remove.width <= grid.x + grid.width).toBe(true);
    await page.mouse.move(0, 0);
    await screenshot(page, 'recycle-bin-days-left-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'recycle-bin-days-left-dark');
  });

  it('deletes an item forever after a confirmation, with what was deleted with it', async () => {
    const api = await createSignedInUser();
    const { water, gym, power, loose } = await binWithItems(api);
    const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
    await loginAs(page, api.user);
    const recycle = await new RecyclePage(page).goto();

    // Cancel leaves it in the bin.
    const invoiceRow = recycle.item('Invoice', water.entity.name);
    await invoiceRow.getByRole('button', { name: `Delete forever Invoice ${water.entity.name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete forever?' });
    await dialog
      .getByText(
        `Invoice #${water.entry.invoiceId} of ${water.entity.name} and its payments will be deleted permanently. This cannot be undone.`,
      )
      .waitFor();
    await screenshot(page, 'recycle-bin-delete-forever-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'recycle-bin-delete-forever-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await exists(api, `/entries/${water.entry.entryId}?filter=bypass`)).toBe(true);

    // Confirmed: the invoice and its payments are gone for good.
    await invoiceRow.getByRole('button', { name: `Delete forever Invoice ${water.entity.name}` }).click();
    await dialog.getByRole('button', { name: 'Delete Forever' }).click();
    await recycle.notice.filter({ hasText: 'Invoice deleted permanently.' }).waitFor();
    await expect.poll(() => invoiceRow.count()).toBe(0);
    expect(await exists(api, `/entries/${water.entry.entryId}?filter=bypass`)).toBe(false);
    for (const p of water.payments) expect(await exists(api, `/payments/${p.paymentId}`)).toBe(false);

    // An entity takes its invoices; a payment deleted on its own goes alone.
    await recycle
      .item('Entity', gym.entity.name)
      .getByRole('button', { name: `Delete forever Entity ${gym.entity.name}` })
      .click();
    await dialog
      .getByText(`The entity ${gym.entity.name}, its invoices and their payments will be deleted permanently.`, {
        exact: false,
      })
      .waitFor();
    await dialog.getByRole('button', { name: 'Delete Forever' }).click();
    await recycle.notice.filter({ hasText: 'Entity deleted permanently.' }).waitFor();
    expect(await exists(api, `/bills/${gym.entity.id}?bypass=1`)).toBe(false);
    expect(await exists(api, `/entries/${gym.entry.entryId}?filter=bypass`)).toBe(false);
    await recycle
      .item('Payment', power.entity.name)
      .getByRole('button', { name: `Delete forever Payment ${power.entity.name}` })
      .click();
    await dialog.getByRole('button', { name: 'Delete Forever' }).click();
    await recycle.notice.filter({ hasText: 'Payment deleted permanently.' }).waitFor();
    expect(await exists(api, `/payments/${loose?.paymentId}`)).toBe(false);
    // The live invoice keeps its balance: the deleted payment counted for nothing already.
    const entry = await api.request<{ balance: { totalBalance: number } }>('GET', `/entries/${power.entry.entryId}`);
    expect(entry.balance.totalBalance).toBe(90);
    await page.getByText('The recycle bin is empty.').waitFor();
    expect(browser.pageErrors).toEqual([]);
  });

  it('on a phone, the actions come first and the confirmation fits', async () => {
    const api = await createSignedInUser();
    const { water } = await binWithItems(api);
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, mobile: true });
    await loginAs(page, api.user);
    const recycle = await new RecyclePage(page).goto();
    const row = recycle.item('Invoice', water.entity.name);
    const button = row.getByRole('button', { name: `Delete forever Invoice ${water.entity.name}` });
    const box = await button.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'recycle-bin-phone-light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'recycle-bin-phone-dark');
    await button.click();
    const dialog = page.getByRole('dialog', { name: 'Delete forever?' });
    await dialog.getByRole('button', { name: 'Delete Forever' }).waitFor();
    await screenshot(page, 'recycle-bin-phone-confirm-dark');
  });
});
