import type { Locator, Page } from 'playwright-core';

/**
 * Presses Tab (or Shift+Tab) until `target` (or an element inside it) has the focus, as a keyboard user would,
 * and fails after `max` presses. Returns how many presses it took.
 */
export async function tabTo(page: Page, target: Locator, { max = 80, backwards = false } = {}): Promise<number> {
  for (let presses = 1; presses <= max; presses += 1) {
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    // evaluateAll does not wait for the target to exist: a target that is not on the page is simply not reached.
    const focused = await target.evaluateAll((elements) =>
      elements.some((element) => element === document.activeElement || element.contains(document.activeElement)),
    );
    if (focused) return presses;
  }
  throw new Error(`${target} was not reached with ${max} presses of Tab`);
}

/**
 * What shows where the keyboard focus is: the outline of the focused element (or of the MUI control around a
 * focused input, whose border thickens), or null when nothing visible marks it.
 */
export function focusIndicator(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return null;
    const style = getComputedStyle(element);
    if (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2) {
      return `outline ${style.outlineWidth} ${style.outlineStyle} ${style.outlineColor}`;
    }
    const field = element.closest('.MuiInputBase-root.Mui-focused, .MuiPickersInputBase-root.Mui-focused');
    if (field) {
      const outline = field.querySelector('fieldset, .MuiPickersOutlinedInput-notchedOutline');
      const border = outline ? getComputedStyle(outline) : null;
      if (border && Number.parseFloat(border.borderTopWidth) >= 2) return `field border ${border.borderTopWidth}`;
    }
    return null;
  });
}
