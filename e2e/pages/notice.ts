import type { Locator, Page } from 'playwright-core';

/** The top-centre (or bottom) snackbar notice of the app. */
export function notice(page: Page): Locator {
  return page.locator('.MuiSnackbar-root').getByRole('alert');
}
