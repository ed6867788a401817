import type { Locator, Page } from 'playwright-core';
import { dateField, typeDate } from './date-field.ts';
import { notice } from './notice.ts';

export interface InvoiceFormInput {
  date?: string;
  flow?: 'Income' | 'Expense';
  amount?: string;
  description?: string;
}

/** `/invoice` and `/invoice/{id}`. */
export class InvoiceFormPage {
  readonly form: Locator;
  readonly entity: Locator;
  readonly date: Locator;
  readonly amount: Locator;
  readonly description: Locator;
  readonly error: Locator;
  readonly notice: Locator;
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.form = page.locator('form');
    this.entity = page.getByRole('combobox', { name: 'Entity' });
    this.date = dateField(page, 'Date');
    this.amount = page.getByRole('textbox', { name: 'Amount' });
    this.description = page.getByRole('textbox', { name: 'Description' });
    this.error = this.form.getByRole('alert');
    this.notice = notice(page);
    this.dialog = page.getByRole('dialog');
  }

  heading(name: 'New Invoice' | 'Edit Invoice'): Locator {
    return this.page.getByRole('heading', { name, level: 1 });
  }

  async gotoNew(entityName?: string): Promise<this> {
    await this.page.goto(entityName ? `/invoice?entityName=${encodeURIComponent(entityName)}` : '/invoice');
    await this.entity.waitFor();
    return this;
  }

  async gotoEdit(entryId: number): Promise<this> {
    await this.page.goto(`/invoice/${entryId}`);
    await this.entity.waitFor();
    return this;
  }

  flow(label: 'Income' | 'Expense' | 'Internal'): Locator {
    return this.page.getByRole('radio', { name: label });
  }

  get submitButton(): Locator {
    return this.form.getByRole('button', { name: /^(Create Invoice|Save)$/ });
  }

  async pickEntity(name: string): Promise<void> {
    await this.entity.fill(name);
    await this.page.getByRole('option', { name, exact: true }).click();
  }

  async fill(input: InvoiceFormInput): Promise<void> {
    if (input.date !== undefined) await typeDate(this.page, this.date, input.date);
    if (input.flow !== undefined) await this.flow(input.flow).check();
    if (input.amount !== undefined) await this.amount.fill(input.amount);
    if (input.description !== undefined) await this.description.fill(input.description);
  }
}
