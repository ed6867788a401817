import type { Page } from 'playwright-core';

/** The rows of a table named `name` (a screen-reader table beside a chart) as text, header row first. */
export async function tableRows(page: Page, name: string): Promise<string[][]> {
  const table = page.getByRole('table', { name });
  const rows: string[][] = [];
  for (const row of await table.getByRole('row').all()) {
    rows.push((await row.locator('th, td').allTextContents()).map((t) => t.trim()));
  }
  return rows;
}
