import type { Locator, Page } from 'playwright-core';
import { DataGridModel } from './data-grid.ts';
import { notice } from './notice.ts';

/** `/archives`: archived entities with Restore and Delete. */
export class ArchivesPage extends DataGridModel {
  readonly heading: Locator;
  readonly notice: Locator;
  readonly dialog: Locator;

  constructor(page: Page) {
    super(page, 'Archived entities');
    this.heading = page.getByRole('heading', { name: 'Archives', level: 1 });
    this.notice = notice(page);
    this.dialog = page.getByRole('dialog');
  }

  async goto(): Promise<this> {
    await this.page.goto('/archives');
    await this.heading.waitFor();
    await this.settled();
    return this;
  }

  restoreButton(name: string): Locator {
    return this.grid.getByRole('button', { name: `Restore ${name}`, exact: true });
  }

  deleteButton(name: string): Locator {
    return this.grid.getByRole('button', { name: `Delete ${name}`, exact: true });
  }
}
