import type { RecycleType } from '@billfold/contract/recycle';
import type { Locator, Page } from 'playwright-core';
import { DataGridModel } from './data-grid.ts';
import { notice } from './notice.ts';

/** `/recycle`: what was deleted in the last 14 days. */
export class RecyclePage extends DataGridModel {
  readonly heading: Locator;
  readonly notice: Locator;

  constructor(page: Page) {
    super(page, 'Recycle bin');
    this.heading = page.getByRole('heading', { name: 'Recycle Bin', level: 1 });
    this.notice = notice(page);
  }

  async goto(): Promise<this> {
    await this.page.goto('/recycle');
    await this.heading.waitFor();
    await this.settled();
    return this;
  }

  /** The row of one item, by its Component (Entity, Invoice, Payment) and a text it shows. */
  item(type: RecycleType, text: string): Locator {
    return this.rows.filter({ has: this.page.locator('[data-field="entityType"]', { hasText: type }) }).filter({
      hasText: text,
    });
  }

  async restore(row: Locator): Promise<void> {
    await row.getByRole('button', { name: /^Restore/ }).click();
  }
}
