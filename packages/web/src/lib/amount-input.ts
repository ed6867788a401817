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
  if (cents !== null) return { text: centsToDecimalString(cents), error: null };
  return { text: null, error: NEGATIVE.test(text) ? MESSAGES.amountNegative : MESSAGES.amountNotUnderstood };
}

/** A minus sign (ASCII or typographic) in front or behind, or an accountant's brackets: a negative amount. */
const NEGATIVE = /^\s*[-\u2212(]|[-\u2212]\s*$/;

/** What an amount box shows for a stored amount, always with its cents: `1234.5` → `"1234.50"`, `12` → `"12.00"`. */
export function amountInputText(amount: number): string {
  const cents = toCents(amount);
  return cents === null ? '' : centsToDecimalString(cents);
}
