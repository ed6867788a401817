/**
 * Money is integer cents everywhere but at the edges. These helpers are the only place where
 * decimals and cents meet, so conversion is exact: no float arithmetic ever touches a sum.
 */
export const MAX_CENTS = 99_999_999_999; // 999,999,999.99
const DECIMAL = /^(\d{1,9})(?:\.(\d{1,2}))?$/;

/** Exact cents of a decimal number or numeric string with at most 2 decimals and 9 integer digits; `null` if it has no such form. */
export function toCents(value: number | string): number | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const [, whole = '0', fraction = ''] = match;
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/**
 * Exact cents of an amount as people write or paste it (a bank statement, a spreadsheet): surrounding spaces, a
 * leading `$`, and thousands separators (`,` or a space, in groups of three) are allowed; `12.` is 12. `null` when
 * the text is not such an amount: a sign, a decimal comma (`12,50`), more than 2 decimals or 9 integer digits.
 */
export function parseAmountText(text: string): number | null {
  const bare = text.trim().replace(/^\$\s*/, '');
  const grouped = /^\d{1,3}(?:([, ])\d{3})?(?:\1\d{3})*(?:\.\d*)?$/.exec(bare);
  const plain = grouped ? bare.replace(/[, ]/g, '') : bare;
  if (!/^(?:\d+\.?\d*|\.\d+)$/.test(plain)) return null;
  const number = plain.replace(/\.$/, '');
  return toCents(number.startsWith('.') ? `0${number}` : number);
}

/** The JSON number for a cents amount: `12345` → `123.45` (shortest round-trip form of the exact decimal). */
export function fromCents(cents: number): number {
  return cents / 100;
}

/** `12345` → `"123.45"`, `-5` → `"-0.05"`; for CSV and other plain-text edges. */
export function centsToDecimalString(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Integer mean rounded half-up, in cents. */
export function meanCents(totalCents: number, count: number): number {
  if (count === 0) return 0;
  return Math.floor((2 * totalCents + count) / (2 * count));
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const plain = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** `1234.5` → `"$1,234.50"` */
export function formatUsd(amount: number): string {
  return usd.format(amount);
}

const usdCompact = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  minimumFractionDigits: 0,
  maximumFractionDigits: 1,
});

/** `1200000000` → `"$1.2B"`, `950000` → `"$950K"`: for chart axes, where a full amount does not fit. */
export function formatUsdCompact(amount: number): string {
  return usdCompact.format(amount);
}

/** `1234.5` → `"1,234.50"` */
export function formatAmount(amount: number): string {
  return plain.format(amount);
}
