import { describe, expect, it } from 'vitest';
import { EditEntityPage } from '../pages/edit-entity-page.ts';
import { EntityPage } from '../pages/entity-page.ts';
import { InvoiceFormPage } from '../pages/invoice-form-page.ts';
import { InvoicePage } from '../pages/invoice-page.ts';
import { RecyclePage } from '../pages/recycle-page.ts';
import { apiLogin } from '../support/api.ts';
import { screenshot, useBrowser } from '../support/browser.ts';
import { createPayment, seedInvoice } from '../support/domain.ts';
import { signUpAndLogin } from '../support/session.ts';

const browser = useBrowser();

const overflows = (page: import('playwright-core').Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe('screens on a phone (390 px)', () => {
  it('fit the width: invoice, payment dialog, invoice form, entity, edit entity, recycle bin', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const user = await signUpAndLogin(page);
    const api = await apiLogin(user);
    const { entity, entry } = await seedInvoice(api, {
      entity: { name: 'Metro Transit Authority' },
      invoice: { amount: 64.5, services: 'Monthly pass, with a description long enough to wrap on a phone' },
    });
    const payment = await createPayment(api, entry.entryId, {
      amount: 20,
      type: 'other',
      medium: 'service',
      autopay: true,
    });
    await api.request('PUT', '/payments', { paymentId: payment.paymentId, recycle: true });
    await createPayment(api, entry.entryId, { amount: 30, type: 'credit', medium: 'web', notes: 'online' });

    const invoice = await new InvoicePage(page).goto(entry.entryId);
    await invoice.paymentRows().first().waitFor();
    expect(await overflows(page)).toBe(false);
    await screenshot(page, 'invoice-detail-phone');
    await invoice.openAddPayment();
    expect(await overflows(page)).toBe(false);
    await screenshot(page, 'payment-dialog-phone');
    await invoice.dialog.getByRole('button', { name: 'Cancel' }).click();

    await new InvoiceFormPage(page).gotoEdit(entry.entryId);
    expect(await overflows(page)).toBe(false);
    await screenshot(page, 'invoice-edit-phone');

    await new EntityPage(page, entity.name).goto(entity.id);
    // Phones get the invoice list instead of the grid.
    await page
      .getByRole('list', { name: `Invoices of ${entity.name}` })
      .getByRole('listitem')
      .first()
      .waitFor();
    expect(await overflows(page)).toBe(false);
    await screenshot(page, 'entity-phone');

    await new EditEntityPage(page).goto(entity.id);
    expect(await overflows(page)).toBe(false);
    await screenshot(page, 'entity-edit-phone');

    const recycle = await new RecyclePage(page).goto();
    await recycle.rows.first().waitFor();
    expect(await overflows(page)).toBe(false);
    await screenshot(page, 'recycle-phone');
  });
});
