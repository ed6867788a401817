import { crc32, deflateSync } from 'node:zlib';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { notice } from '../pages/notice.ts';
import { RecyclePage } from '../pages/recycle-page.ts';
import { createSignedInUser } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { screenshotBothThemes, useBrowser } from '../support/browser.ts';
import { seedInvoice } from '../support/domain.ts';
import { loginAs } from '../support/session.ts';

const browser = useBrowser();
const PHONE = { width: 360, height: 740 };

/** Waits until the preview picture has loaded, and gives its width in pixels (0 while it is broken). */
async function loadedWidth(preview: Locator): Promise<number> {
  await preview.waitFor();
  await expect
    .poll(() => preview.evaluate((img) => (img as HTMLImageElement).naturalWidth), { timeout: 20_000 })
    .toBeGreaterThan(0);
  return preview.evaluate((img) => (img as HTMLImageElement).naturalWidth);
}

/** A PNG photo of a paper bill: a white sheet with grey lines of text on a dark table (300 × 400). */
function receiptPhoto(): Buffer {
  const width = 300;
  const height = 400;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const onSheet = x > 30 && x < 270 && y > 20 && y < 380;
      const line = onSheet && y > 60 && y % 24 < 8 && x > 50 && x < (y % 48 < 24 ? 250 : 190);
      const v = !onSheet ? 60 : line ? 110 : 250;
      row.set([v, v, onSheet ? v : 70], 1 + x * 3);
    }
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])));
    return Buffer.concat([length, Buffer.from(type), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('files on invoices', () => {
  it('attaches a photo on a phone, shows its preview, and keeps it through the recycle bin and back', async () => {
    const api = await createSignedInUser();
    const tag = Date.now().toString(36);
    const { entity, entry } = await seedInvoice(api, {
      entity: { name: `City Water ${tag}` },
      invoice: { amount: 64.2, services: 'Water, March' },
    });
    const page = await browser.newPage({ viewport: PHONE, mobile: true });
    await loginAs(page, api.user);
    await page.goto(`/entries/${entry.entryId}`);
    const files = page.getByTestId('attachments');
    await files.getByRole('heading', { name: 'Files' }).waitFor();
    // On a phone the camera is one tap away: an image input that asks for the back camera.
    await files.getByRole('button', { name: 'Take photo' }).waitFor();
    expect(await page.locator('input[capture="environment"]').getAttribute('accept')).toBe('image/*');

    await page.getByTestId('attach-file-input').setInputFiles({
      name: 'water-bill.png',
      mimeType: 'image/png',
      buffer: receiptPhoto(),
    });
    await notice(page).filter({ hasText: 'water-bill.png attached.' }).waitFor();
    const card = files.getByTestId('attachment').filter({ hasText: 'water-bill.png' });
    const preview = card.getByTestId('attachment-preview');
    await preview.waitFor();
    await expect.poll(() => preview.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(240);
    await page.getByTestId('attach-file-input').setInputFiles({
      name: 'water-bill.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4\n1 0 obj\n<< >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n'),
    });
    await files
      .getByTestId('attachment')
      .filter({ hasText: 'water-bill.pdf' })
      .getByTestId('attachment-preview')
      .waitFor();
    await files.getByRole('heading', { name: 'Files (2)' }).waitFor();
    await files.scrollIntoViewIfNeeded();
    await screenshotBothThemes(page, 'attachments-phone');
    await expectAccessible(page, 'invoice page with files (phone)');

    // A text file named like a bill is refused in words.
    await page.getByTestId('attach-file-input').setInputFiles({
      name: 'not-a-bill.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('plain text'),
    });
    await notice(page).filter({ hasText: 'Failed to attach not-a-bill.pdf.' }).waitFor();
    expect(await files.getByTestId('attachment').count()).toBe(2);

    // Into the bin with the invoice…
    await page.getByRole('button', { name: 'Delete Invoice' }).click();
    await page.getByRole('dialog', { name: 'Delete Invoice' }).getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL('**/home');
    const gone = await api.request('GET', `/entries/${entry.entryId}/attachments`).catch((error: Error) => error);
    expect(String(gone)).toMatch(/404/);
    // …and back with it.
    const recycle = await new RecyclePage(page).goto();
    await recycle.restore(recycle.item('Invoice', entity.name));
    await notice(page).filter({ hasText: 'restored' }).waitFor();
    await page.goto(`/entries/${entry.entryId}`);
    await files.getByRole('heading', { name: 'Files (2)' }).waitFor();
    expect(await loadedWidth(card.getByTestId('attachment-preview'))).toBe(240);
    expect(browser.pageErrors).toEqual([]);
  }, 120_000);

  it('shows the files on a desktop page, without the camera button', async () => {
    const api = await createSignedInUser();
    const { entry } = await seedInvoice(api, { invoice: { amount: 12 }, payments: [12] });
    const page = await browser.newPage();
    await loginAs(page, api.user);
    await page.goto(`/entries/${entry.entryId}`);
    await page.getByTestId('attach-file-input').setInputFiles({
      name: 'receipt.png',
      mimeType: 'image/png',
      buffer: receiptPhoto(),
    });
    const files = page.getByTestId('attachments');
    expect(await loadedWidth(files.getByTestId('attachment-preview'))).toBe(240);
    // The camera button is for phones.
    expect(await files.getByRole('button', { name: 'Take photo' }).isVisible()).toBe(false);
    await screenshotBothThemes(page, 'attachments-desktop');
    await expectAccessible(page, 'invoice page with files (desktop)');

    // A payment's own files, in its dialog.
    await page.getByRole('button', { name: 'Files of this payment' }).click();
    const dialog = page.getByRole('dialog', { name: /^Files of the payment of 12\.00/ });
    await dialog.getByText('No files yet.', { exact: false }).waitFor();
    await dialog.locator('input[data-testid="attach-file-input"]').setInputFiles({
      name: 'bank-receipt.png',
      mimeType: 'image/png',
      buffer: receiptPhoto(),
    });
    expect(await loadedWidth(dialog.getByTestId('attachment-preview'))).toBe(240);
    await screenshotBothThemes(page, 'attachments-payment-dialog');
    const own = await api.request<{ attachments: Array<{ fileName: string; paymentId: number }> }>(
      'GET',
      `/entries/${entry.entryId}/attachments`,
    );
    expect(own.attachments.map((a) => a.fileName)).toEqual(['receipt.png']);
  }, 120_000);
});
