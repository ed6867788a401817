import type { Locator, Page } from 'playwright-core';

/**
 * Types `YYYY-MM-DD` into an MUI X date field (sections, not a plain input): focus the first section, select all
 * sections, type the digits; the field moves from section to section by itself.
 */
export async function typeDate(page: Page, field: Locator, iso: string): Promise<void> {
  const sections = field.locator('[role="spinbutton"]');
  await sections.first().click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(iso.replace(/-/g, ''));
}

/** The date field of a labelled MUI X picker: the group its label names. */
export function dateField(scope: Page | Locator, label: string): Locator {
  return scope.getByRole('group', { name: label, exact: true });
}

/** What a date field shows, e.g. `2026-01-15` (its hidden input holds the value). */
export async function dateValue(field: Locator): Promise<string> {
  return field.locator('xpath=..').locator('input').inputValue();
}
