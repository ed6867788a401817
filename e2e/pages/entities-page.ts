import type { Locator, Page } from 'playwright-core';
import { DataGridModel, GRID_ROW } from './data-grid.ts';
import { notice } from './notice.ts';

/** `/entities`: the bills search filter panel and every entity, as a grid (desktop) or a list (phone). */
export class EntitiesPage extends DataGridModel {
  readonly heading: Locator;
  readonly notice: Locator;
  readonly dialog: Locator;
  readonly filters: Locator;
  readonly nameSearch: Locator;
  /** The phone's list of entities. */
  readonly list: Locator;

  constructor(page: Page) {
    super(page, 'Entities');
    this.heading = page.getByRole('heading', { name: 'Entities', level: 1 });
    this.notice = notice(page);
    this.dialog = page.getByRole('dialog');
    this.filters = page.getByRole('search', { name: 'Filters' });
    this.nameSearch = this.filters.getByLabel('Entity Name');
    this.list = page.getByRole('list', { name: 'Entities' });
  }

  async goto(): Promise<this> {
    await this.page.goto('/entities');
    await this.heading.waitFor();
    return this;
  }

  /** The names shown, in order: the grid's rows on a desktop, the list's items on a phone. */
  async names(): Promise<string[]> {
    if (await this.list.isVisible()) {
      return this.list
        .getByRole('listitem')
        .filter({ has: this.page.getByRole('link') })
        .getByRole('link')
        .allInnerTexts();
    }
    await this.settled();
    return this.rows.locator('[data-field="name"] a').allInnerTexts();
  }

  button(action: 'Archive' | 'Restore' | 'Delete', name: string): Locator {
    return this.page.getByRole('button', { name: `${action} ${name}`, exact: true });
  }

  /** Clicks an entity's Archive or Delete and waits for its dialog to ask `question`. */
  async ask(action: 'Archive' | 'Delete', name: string, question: string): Promise<void> {
    await this.button(action, name).click();
    await this.dialog.getByText(question).waitFor();
  }

  /** Confirms the open dialog with its `action` button and waits for the notice `done`. */
  async confirm(action: 'Archive' | 'Delete', done: string): Promise<void> {
    await this.dialog.getByRole('button', { name: action }).click();
    await this.notice.filter({ hasText: done }).waitFor();
  }

  /** The item or row of one entity. */
  item(name: string): Locator {
    return this.page
      .locator(`${GRID_ROW}, [aria-label="Entities"] > li`)
      .filter({ has: this.page.getByRole('link', { name, exact: true }) });
  }

  pagination(): Locator {
    return this.page.locator('.MuiTablePagination-root');
  }
}
