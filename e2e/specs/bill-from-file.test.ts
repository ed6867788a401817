import { describe, expect, it } from 'vitest';

import { dateField, dateValue } from '../pages/date-field.ts';
import { InvoiceFormPage } from '../pages/invoice-form-page.ts';
import { createSignedInUser } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { screenshotBothThemes, useBrowser } from '../support/browser.ts';
import { createEntity, getEntry } from '../support/domain.ts';
import { textPdf } from '../support/files.ts';
import { loginAs } from '../support/session.ts';

const browser = useBrowser();
const PHONE = { width: 360, height: 740 };

/** A German power bill with a text layer. */
const BILL = [
  'Stadtwerke Musterstadt GmbH',
  'Rechnung Nr. 2026-0042',
  'Rechnungsdatum: 15.03.2026',
  'Nettobetrag 1.037,44 EUR',
  'MwSt. 19 % 197,12 EUR',
  'Rechnungsbetrag 1.234,56 EUR',
  'Zahlbar bis 29.03.2026',
].join('\n');

describe('invoice from a file', () => {
  it('fills the new invoice from a PDF, marks what was read, and attaches the file to the invoice made', async () => {
    const api = await createSignedInUser();
    const power = await createEntity(api, { name: 'Stadtwerke Musterstadt' });
    await createEntity(api, { name: 'Musterstadt Wasser' });
    const page = await browser.newPage();
    await loginAs(page, api.user);
    const form = await new InvoiceFormPage(page).gotoNew();
    const part = page.getByRole('region', { name: 'Invoice from a file' });
    await part.waitFor();
    await page.getByTestId('bill-file-input').setInputFiles({
      name: 'strom-maerz.pdf',
      mimeType: 'application/pdf',
      buffer: textPdf(BILL),
    });
    const summary = page.getByTestId('bill-reading-summary');
    await summary.waitFor({ timeout: 90_000 });
    expect(await summary.textContent()).toContain(
      'Read the amount, the date, the due date and the entity from strom-maerz.pdf (from its text).',
    );
    expect(await form.entity.inputValue()).toBe('Stadtwerke Musterstadt');
    expect(await form.amount.inputValue()).toBe('1234.56');
    expect(await dateValue(form.date)).toBe('2026-03-15');
    expect(await dateValue(dateField(page, 'Due date'))).toBe('2026-03-29');
    expect(await page.getByText('Read from the file: check it.').count()).toBe(4);
    await screenshotBothThemes(page, 'bill-from-file-desktop');
    await expectAccessible(page, 'new invoice filled from a file (desktop)');

    // A field changed by hand is no longer marked.
    await form.amount.fill('1234.50');
    expect(await page.getByText('Read from the file: check it.').count()).toBe(3);
    await form.flow('Expense').check();
    await form.submitButton.click();
    // A new invoice leads Home (docs/product.md, Where a save leads); the file went with it.
    await page.waitForURL('**/home', { timeout: 30_000 });
    const made = await api.request<{ entries: Array<{ entryId: number; billId: number }> }>('GET', '/entries');
    const entryId = made.entries.find((e) => e.billId === power.id)?.entryId ?? 0;
    const entry = await getEntry(api, entryId);
    expect(entry).toMatchObject({ billId: power.id, amount: 1234.5, date: '2026-03-15', dueDate: '2026-03-29' });
    const files = await api.request<{ attachments: Array<{ fileName: string; contentType: string }> }>(
      'GET',
      `/entries/${entryId}/attachments`,
    );
    expect(files.attachments).toEqual([
      expect.objectContaining({ fileName: 'strom-maerz.pdf', contentType: 'application/pdf' }),
    ]);
    // On the invoice page its preview is the bill's first page, drawn (a PNG, not the generic sheet).
    await page.goto(`/entries/${entryId}`);
    const preview = page.getByTestId('attachment-preview');
    await preview.waitFor();
    await expect
      .poll(() => preview.evaluate((img) => (img as HTMLImageElement).naturalWidth), { timeout: 60_000 })
      .toBe(247);
    await page.getByTestId('attachments').scrollIntoViewIfNeeded();
    await screenshotBothThemes(page, 'bill-from-file-attached');
    expect(browser.pageErrors).toEqual([]);
  }, 180_000);

  it('on a phone: a file with nothing to read leaves the form to be typed in, with the camera one tap away', async () => {
    const api = await createSignedInUser();
    const page = await browser.newPage({ viewport: PHONE, mobile: true });
    await loginAs(page, api.user);
    const form = await new InvoiceFormPage(page).gotoNew();
    await page
      .getByRole('region', { name: 'Invoice from a file' })
      .getByRole('button', { name: 'Take photo' })
      .waitFor();
    await page.getByTestId('bill-file-input').setInputFiles({
      name: 'blank.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(500, 0x41)]),
    });
    await page.getByText('Nothing could be read from this file.', { exact: false }).waitFor({ timeout: 90_000 });
    expect(await form.amount.inputValue()).toBe('');
    expect(await page.getByText('Read from the file: check it.').count()).toBe(0);
    await screenshotBothThemes(page, 'bill-from-file-phone');
    await expectAccessible(page, 'new invoice, file not read (phone)');
    expect(browser.pageErrors).toEqual([]);
  }, 180_000);
});
