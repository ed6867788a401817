import type { Locator, Page } from 'playwright-core';
import { dateField, typeDate } from './date-field.ts';
import { notice } from './notice.ts';

export interface PaymentInput {
  date?: string;
  amount?: string;
  /** The method's label, e.g. `Check (Mail)`. */
  method?: string;
  autopay?: boolean;
  notes?: string;
}

/** `/entries/{id}`: the invoice and its payments. */
export class InvoicePage {
  readonly heading: Locator;
  readonly payments: Locator;
  readonly dialog: Locator;
  readonly notice: Locator;
  readonly banner: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: /^Invoice #\d+$/ });
    this.payments = page.getByRole('table', { name: 'Payments' });
    this.dialog = page.getByRole('dialog');
    this.notice = notice(page);
    this.banner = page.getByTestId('archived-banner');
  }

  async goto(entryId: number): Promise<this> {
    await this.page.goto(`/entries/${entryId}`);
    await this.heading.waitFor();
    return this;
  }

  /** The value shown under a label (ID, Entity, Date, Amount, Paid, Flow, Description, Balance). */
  value(label: string): Locator {
    return this.page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');
  }

  /** The accessible name of the Paid icon: Paid, Overpaid, In Progress or Unpaid. */
  async paidIcon(): Promise<string | null> {
    return this.value('Paid').getByRole('img').getAttribute('aria-label');
  }

  button(name: string): Locator {
    return this.page.getByRole('button', { name, exact: true });
  }

  link(name: string): Locator {
    return this.page.getByRole('link', { name, exact: true });
  }

  paymentRows(): Locator {
    return this.payments.locator('tbody tr');
  }

  paymentRow(text: string): Locator {
    return this.paymentRows().filter({ hasText: text });
  }

  async openAddPayment(): Promise<void> {
    await this.button('Add Payment').click();
    await this.dialog.waitFor();
  }

  async fillPayment(input: PaymentInput): Promise<void> {
    if (input.date !== undefined) await typeDate(this.page, dateField(this.dialog, 'Payment Date'), input.date);
    if (input.amount !== undefined) await this.dialog.getByRole('textbox', { name: 'Amount' }).fill(input.amount);
    if (input.method !== undefined) {
      await this.dialog.getByRole('combobox', { name: 'Method' }).click();
      await this.page.getByRole('option', { name: input.method, exact: true }).click();
    }
    if (input.autopay !== undefined)
      await this.dialog.getByRole('checkbox', { name: 'Autopay' }).setChecked(input.autopay);
    if (input.notes !== undefined) await this.dialog.getByRole('textbox', { name: 'Notes' }).fill(input.notes);
  }

  async submitPayment(): Promise<void> {
    await this.dialog.getByRole('button', { name: /^(Add Payment|Save)$/ }).click();
  }
}
