import type { Locator, Page } from 'playwright-core';
import { notice } from './notice.ts';

/** `/bills/{id}`: edit an entity, archive it. */
export class EditEntityPage {
  readonly heading: Locator;
  readonly name: Locator;
  readonly category: Locator;
  readonly internal: Locator;
  readonly saveButton: Locator;
  readonly archiveButton: Locator;
  readonly banner: Locator;
  readonly notice: Locator;
  readonly dialog: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Edit Entity', level: 1 });
    this.name = page.getByRole('textbox', { name: 'Entity Name' });
    this.category = page.getByRole('combobox', { name: 'Category' });
    this.internal = page.getByRole('checkbox', { name: 'Internal' });
    this.saveButton = page.getByRole('button', { name: 'Save', exact: true });
    this.archiveButton = page.getByRole('button', { name: 'Archive', exact: true });
    this.banner = page.getByTestId('archived-banner');
    this.notice = notice(page);
    this.dialog = page.getByRole('dialog');
  }

  async goto(billId: number): Promise<this> {
    await this.page.goto(`/bills/${billId}`);
    await this.name.waitFor();
    return this;
  }

  async pickCategory(label: string): Promise<void> {
    await this.category.click();
    await this.page.getByRole('option', { name: label, exact: true }).click();
  }

  async archive(): Promise<void> {
    await this.archiveButton.click();
    await this.dialog.getByRole('button', { name: 'Archive' }).click();
  }
}
