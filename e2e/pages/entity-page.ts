import type { Locator, Page } from 'playwright-core';
import { DataGridModel } from './data-grid.ts';

/** `/entities/{id}`: header, the entity's invoices, its statistics. */
export class EntityPage {
  readonly editButton: Locator;
  readonly banner: Locator;
  readonly invoices: DataGridModel;

  constructor(
    readonly page: Page,
    readonly name: string,
  ) {
    this.editButton = page.getByRole('link', { name: 'Edit Entity' });
    this.banner = page.getByTestId('archived-banner');
    this.invoices = new DataGridModel(page, `Invoices of ${name}`);
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1, name: this.name, exact: true });
  }

  async goto(billId: number): Promise<this> {
    await this.page.goto(`/entities/${billId}`);
    await this.heading.waitFor();
    return this;
  }

  newInvoiceButton(): Locator {
    return this.page.getByRole('toolbar').getByRole('link', { name: 'New Invoice' });
  }

  statsCard(title: string): Locator {
    return this.page.getByRole('region', { name: title });
  }
}
