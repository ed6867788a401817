import type { Locator, Page, Request } from 'playwright-core';
import { DataGridModel } from './data-grid.ts';

/** `/home`: the filter panel, the Invoices tab (grid) and the Stats tab. */
export class HomePage {
  readonly heading: Locator;
  readonly filters: Locator;
  readonly invoiceInput: Locator;
  readonly categorySelect: Locator;
  readonly entitySelect: Locator;
  readonly searchButton: Locator;
  readonly clearButton: Locator;
  readonly showMoreOptions: Locator;
  readonly minAmount: Locator;
  readonly maxAmount: Locator;
  /** The Invoices grid (the Invoices tab on a desktop). */
  readonly table: DataGridModel;
  readonly grid: Locator;
  readonly rows: Locator;
  readonly invoicesTab: Locator;
  readonly statsTab: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'Home', level: 1 });
    this.filters = page.getByRole('search', { name: 'Filters' });
    this.invoiceInput = this.filters.getByLabel('Invoice #');
    this.categorySelect = this.filters.getByRole('combobox', { name: 'Select Categories' });
    this.entitySelect = this.filters.getByRole('combobox', { name: 'Select Entities' });
    this.searchButton = this.filters.getByRole('button', { name: 'Search' });
    this.clearButton = this.filters.getByRole('button', { name: 'Clear Filters' });
    this.showMoreOptions = this.filters.getByRole('checkbox', { name: 'Show more options' });
    this.minAmount = this.filters.getByLabel('Min Amount');
    this.maxAmount = this.filters.getByLabel('Max Amount');
    this.table = new DataGridModel(page, 'Invoices');
    this.grid = this.table.grid;
    this.rows = this.table.rows;
    this.invoicesTab = page.getByRole('tab', { name: 'Invoices' });
    this.statsTab = page.getByRole('tab', { name: 'Stats' });
  }

  async goto(): Promise<this> {
    await this.page.goto('/home');
    await this.heading.waitFor();
    return this;
  }

  // ---------- grid ----------

  /** The Invoice # column of the rows on screen, in order (waits for the grid to settle first). */
  async invoiceNumbers(): Promise<number[]> {
    await this.settled();
    const texts = await this.rows.locator('[data-field="invoiceId"]').allInnerTexts();
    return texts.map((text) => Number(text.trim()));
  }

  /** No loading overlay, so the rows are those of the last answer (`DataGridModel.settled`). */
  settled(): Promise<void> {
    return this.table.settled();
  }

  row(invoiceNumber: number): Locator {
    return this.rows.filter({
      has: this.page.locator(`[data-field="invoiceId"]`, { hasText: new RegExp(`^${invoiceNumber}$`) }),
    });
  }

  cell(invoiceNumber: number, field: string): Locator {
    return this.row(invoiceNumber).locator(`[data-field="${field}"]`);
  }

  columnHeader(name: string): Locator {
    return this.grid.getByRole('columnheader', { name });
  }

  /** Clicks a column's title (not its menu button), which sorts by that column. */
  async sortBy(name: string): Promise<void> {
    await this.columnHeader(name).locator('.MuiDataGrid-columnHeaderTitle').click();
  }

  toolbarButton(name: string): Locator {
    return this.page.getByRole('toolbar').getByRole('button', { name });
  }

  goToPageBox(): Locator {
    return this.page.getByRole('group', { name: 'Go to page' });
  }

  // ---------- filters ----------

  async pickOptions(select: Locator, labels: string[]): Promise<void> {
    await select.click();
    const listbox = this.page.getByRole('listbox');
    for (const label of labels) await listbox.getByRole('option', { name: label, exact: true }).click();
    await this.page.keyboard.press('Escape');
    await listbox.waitFor({ state: 'hidden' });
  }

  dateMode(name: 'Single Date' | 'Date Range'): Locator {
    return this.filters.getByRole('button', { name, exact: true });
  }

  /** A picker's field (a group of spinbuttons for year, month and day). */
  dateField(label: 'Date' | 'Start Date' | 'End Date'): Locator {
    return this.filters.getByRole('group', { name: label, exact: true });
  }

  /** Types `YYYY-MM-DD` into a picker, section by section. */
  async typeDate(label: 'Date' | 'Start Date' | 'End Date', iso: string): Promise<void> {
    const field = this.dateField(label);
    await field.getByRole('spinbutton').first().click();
    await this.page.keyboard.type(iso.replace(/-/g, ''));
    await this.page.keyboard.press('Tab');
  }

  /** Empties a picker with its clear button. */
  async clearDate(label: 'Date' | 'Start Date' | 'End Date'): Promise<void> {
    const field = this.dateField(label);
    await field.hover();
    await field.locator('..').getByRole('button', { name: /clear/i }).click();
  }

  /**
   * Ticks "Show more options" and waits until its panel has finished opening: while it grows, the page may scroll
   * to keep the grid in place, moving the buttons under a click.
   */
  async openMoreOptions(): Promise<void> {
    await this.showMoreOptions.check();
    const panel = this.filters.locator('.MuiCollapse-root', { has: this.page.getByRole('group', { name: 'Status' }) });
    await panel.and(this.page.locator('.MuiCollapse-entered')).waitFor();
  }

  choice(group: 'Status' | 'Flow' | 'Files' | 'Archives', option: string): Locator {
    return this.filters.getByRole('group', { name: group }).getByRole('button', { name: option, exact: true });
  }

  helperText(text: string): Locator {
    return this.filters.getByText(text, { exact: true });
  }

  // ---------- requests ----------

  /** The next `GET /api/v1/<path>` the page sends (list by default), started by `action`. */
  async nextRequest(action: () => Promise<unknown>, path = '/api/v1/entries'): Promise<URLSearchParams> {
    const [request] = await Promise.all([
      this.page.waitForRequest((r: Request) => r.method() === 'GET' && new URL(r.url()).pathname === path),
      action(),
    ]);
    return new URL(request.url()).searchParams;
  }
}

/** The query as a plain object (repeated keys as arrays), for equality checks. */
export function queryOf(search: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key);
    out[key] = values.length === 1 ? (values[0] as string) : values;
  }
  return out;
}
