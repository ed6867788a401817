import { describe, expect, it } from 'vitest';
import { HomePage } from '../pages/home-page.ts';
import { createSignedInUser } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { screenshotBothThemes, useBrowser } from '../support/browser.ts';
import { attachFile, createInvoice, createPayment, daysAgo, seedInvoice } from '../support/domain.ts';
import { loginAs } from '../support/session.ts';

const browser = useBrowser();
const PHONE = { width: 360, height: 740 };

describe('files on Home (docs/decisions/1143-attachment-count-and-filter.md)', () => {
  it('the Files column counts an invoice’s and its payments’ files, and the Files filter picks with or without', async () => {
    const api = await createSignedInUser();
    const tag = Date.now().toString(36);
    const { entity, entry: withOwn } = await seedInvoice(api, {
      entity: { name: `Paper Trail ${tag}` },
      invoice: { amount: 80, services: 'Rent', date: daysAgo(2) },
    });
    const withPaid = await createInvoice(api, entity.id, { amount: 40, services: 'Power', date: daysAgo(2) });
    const without = await createInvoice(api, entity.id, { amount: 15, services: 'Water', date: daysAgo(2) });
    await attachFile(api, 'entries', withOwn.entryId, 'lease.pdf');
    await attachFile(api, 'entries', withOwn.entryId, 'addendum.pdf');
    const payment = await createPayment(api, withPaid.entryId, { amount: 40 });
    await attachFile(api, 'payments', payment.paymentId, 'transfer.pdf');

    const page = await browser.newPage();
    const home = new HomePage(page);
    await loginAs(page, api.user);
    const all = [without.invoiceId, withPaid.invoiceId, withOwn.invoiceId];
    await expect.poll(() => home.invoiceNumbers()).toEqual(all);
    // Hidden until chosen from the column chooser.
    expect(await home.columnHeader('Files').count()).toBe(0);
    await home.toolbarButton('Columns').click();
    await page.getByRole('checkbox', { name: 'Files' }).click();
    await page.keyboard.press('Escape');
    await home.columnHeader('Files').waitFor();
    expect(await home.cell(withOwn.invoiceId, 'attachmentCount').textContent()).toBe('22 files');
    expect(await home.cell(withPaid.invoiceId, 'attachmentCount').textContent()).toBe('11 file');
    expect(await home.cell(without.invoiceId, 'attachmentCount').textContent()).toBe('No files');

    await home.openMoreOptions();
    const withFiles = await home.nextRequest(() => home.choice('Files', 'With files').click());
    expect(withFiles.get('hasAttachment')).toBe('true');
    await expect
      .poll(() => home.invoiceNumbers())
      .toEqual([withOwn.invoiceId, withPaid.invoiceId].sort((a, b) => b - a));
    await screenshotBothThemes(page, 'home-files-desktop');
    await expectAccessible(page, 'Home with the Files column and filter');

    const withoutFiles = await home.nextRequest(() => home.choice('Files', 'Without files').click());
    expect(withoutFiles.get('hasAttachment')).toBe('false');
    await expect.poll(() => home.invoiceNumbers()).toEqual([without.invoiceId]);

    // A phone's list shows the paperclip on the cards with files.
    // A second click chooses neither: every invoice again (from the query cache, so no request need be sent).
    await home.choice('Files', 'Without files').click();
    await expect.poll(() => home.invoiceNumbers()).toEqual(all);
    const phone = await browser.newPage({ viewport: PHONE, mobile: true });
    await loginAs(phone, api.user);
    const list = phone.getByRole('list', { name: 'Invoices' });
    await list.getByRole('listitem').first().waitFor();
    await expect.poll(() => list.getByText('2 files').count()).toBe(1);
    expect(await list.getByText('1 file', { exact: true }).count()).toBe(1);
    await screenshotBothThemes(phone, 'home-files-phone');
    await expectAccessible(phone, 'Home list with files (phone)');
  }, 300_000); // two pages, three filters, four screenshots and two axe runs on a shared machine
});
