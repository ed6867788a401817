import type { Locator, Page } from 'playwright-core';
import { dateField, typeDate } from './date-field.ts';

/** The entity page's Recurring Invoices section and its schedule editor. */
export class SchedulesSection {
  readonly section: Locator;
  readonly newButton: Locator;
  readonly dialog: Locator;
  /** The question a save asks before it creates past invoices or ones that exist already. */
  readonly question: Locator;
  readonly items: Locator;

  constructor(readonly page: Page) {
    this.section = page.getByRole('region', { name: 'Recurring Invoices' });
    this.newButton = this.section.getByRole('button', { name: 'New Schedule' });
    this.dialog = page.getByRole('dialog', { name: /^(New|Edit) Schedule$/ });
    this.question = page.getByRole('dialog', {
      name: /^(Create past invoices\?|Some of these invoices exist already)$/,
    });
    this.items = this.section.getByRole('listitem');
  }

  item(text: string): Locator {
    return this.items.filter({ hasText: text });
  }

  field(label: string): Locator {
    return this.dialog.getByRole('textbox', { name: label, exact: true });
  }

  async fill(values: { description?: string; amount?: string; firstDate?: string; dueDays?: string }): Promise<void> {
    if (values.description !== undefined) await this.field('Description').fill(values.description);
    if (values.amount !== undefined) await this.field('Amount').fill(values.amount);
    if (values.firstDate !== undefined)
      await typeDate(this.page, dateField(this.dialog, 'First invoice date'), values.firstDate);
    if (values.dueDays !== undefined) await this.field('Due after (days)').fill(values.dueDays);
  }

  async choose(label: string, option: string): Promise<void> {
    await this.dialog.getByRole('combobox', { name: label }).click();
    await this.page.getByRole('option', { name: option, exact: true }).click();
  }

  submit(label = 'Create Schedule'): Promise<void> {
    return this.dialog.getByRole('button', { name: label }).click();
  }
}
