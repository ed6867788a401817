import { fromCents, toCents } from '@billfold/contract/money';
import { isValidAmountInput } from '@billfold/contract/validation';

/** Whether an amount box takes this text while the user types (spec §5: 9 digits + 2 decimals, length 12). */
export const acceptAmountInput = isValidAmountInput;

/** The typed amount as a JSON number, or null when it is not a whole amount yet (`''`, `'.'`); `'12.'` is 12. */
export function parseAmountInput(text: string): number | null {
  const trimmed = text.trim();
  if (!isValidAmountInput(trimmed)) return null;
  const whole = trimmed.replace(/\.$/, '');
  if (whole === '') return null;
  const cents = toCents(whole.startsWith('.') ? `0${whole}` : whole);
  return cents === null ? null : fromCents(cents);
}

/** What an amount box shows for a stored amount: `1234.5` → `"1234.50"`, `12` → `"12"`. */
export function amountInputText(amount: number): string {
  const cents = toCents(amount);
  if (cents === null) return '';
  return cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
}
