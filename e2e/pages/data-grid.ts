import type { Locator, Page } from 'playwright-core';

/**
 * A row of an answer: the loading overlay of a grid without rows yet draws skeleton rows (MUI X's `noRowsVariant`),
 * whose cells carry `data-field` like real ones.
 */
export const GRID_ROW = '.MuiDataGrid-row:not(.MuiDataGrid-rowSkeleton)';

/** An MUI X Data Grid named `name`, with its rows and paging controls. */
export class DataGridModel {
  /** The grid proper (`role="grid"`): headers and rows. */
  readonly grid: Locator;
  /** The whole component, toolbar and footer (paging) included. */
  readonly root: Locator;
  readonly rows: Locator;

  constructor(
    readonly page: Page,
    name: string,
  ) {
    this.grid = page.getByRole('grid', { name });
    this.root = this.grid.locator('xpath=ancestor-or-self::div[contains(@class, "MuiDataGrid-root")][1]');
    this.rows = this.grid.locator(GRID_ROW);
  }

  /**
   * No loading overlay, so the rows are those of the last answer: no progress bar (rows on screen) and no skeleton
   * rows (none yet, `GRID_ROW`).
   */
  async settled(): Promise<void> {
    await this.grid.waitFor();
    await this.page.waitForFunction(
      () =>
        !document.querySelector(
          '.MuiDataGrid-root [role="progressbar"], .MuiDataGrid-overlay .MuiLinearProgress-root, .MuiDataGrid-rowSkeleton',
        ),
    );
  }

  row(text: string): Locator {
    return this.rows.filter({ hasText: text });
  }

  cell(row: Locator, field: string): Locator {
    return row.locator(`[data-field="${field}"]`);
  }

  /** `1–25 of 30` */
  displayedRows(): Locator {
    return this.root.locator('.MuiTablePagination-displayedRows');
  }

  pageSizeSelect(): Locator {
    return this.root.getByRole('combobox', { name: /rows per page/i });
  }

  /** The rows-a-page choices, as offered by the select. */
  async pageSizeOptions(): Promise<string[]> {
    await this.pageSizeSelect().click();
    const options = await this.page.getByRole('listbox').getByRole('option').allInnerTexts();
    await this.page.keyboard.press('Escape');
    return options.map((o) => o.trim());
  }

  overlay(text: string): Locator {
    return this.grid.getByText(text, { exact: true });
  }
}
