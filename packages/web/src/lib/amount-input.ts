import { centsToDecimalString, fromCents, parseAmountText, toCents } from '@billfold/contract/money';
import { isValidAmountInput, MESSAGES } from '@billfold/contract/validation';

/** Whether an amount box takes this text while the user types (9 digits + 2 decimals, length 12; docs/product.md, Validation). */
export const acceptAmountInput = isValidAmountInput;

/** The typed amount as a JSON number, or null when it is not a whole amount yet (`''`, `'.'`); `'12.'` is 12. */
export function parseAmountInput(text: string): number | null {
  const cents = parseAmountText(text);
  return cents === null ? null : fromCents(cents);
}

/**
 * What an amount box does with new text: keeps what is being typed (`12.`), turns a pasted amount such as
 * `$1,234.56` into the box's plain form (`1234.56`), and refuses anything else with the reason to show.
 */
export function readAmountInput(text: string): { text: string; error: null } | { text: null; error: string } {
  if (acceptAmountInput(text.trim())) return { text: text.trim(), error: null };
  const cents = parseAmountText(text);
  return cents === null
    ? { text: null, error: MESSAGES.amountNotUnderstood }
    : { text: centsToDecimalString(cents), error: null };
}

/** What an amount box shows for a stored amount: `1234.5` → `"1234.50"`, `12` → `"12"`. */
export function amountInputText(amount: number): string {
  const cents = toCents(amount);
  if (cents === null) return '';
  return cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
}
