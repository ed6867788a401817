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

const CURRENCY_CODE = /^(?:USD|US\$)\s*|\s*(?:USD)$/i;

/**
 * Signed cents of an amount in a bank's or a spreadsheet's CSV file: what `parseAmountText` reads, with one sign
 * (`-1,234.56`, `-$1,234.56`, `$-1,234.56`, `+12`, `(1,234.56)` and `1,234.56-` as negatives) and a currency code
 * (`USD 7.50`). `±Infinity` when it has more than 9 integer digits, so a caller can say it is out of range; `null`
 * when it is no amount at all.
 */
export function parseSignedAmountText(text: string): number | null {
  let rest = text.trim();
  let signs = 0;
  let negative = false;
  const sign = (minus: boolean) => {
    signs += 1;
    negative = negative !== minus;
  };
  if (/^\(.*\)$/.test(rest)) {
    sign(true);
    rest = rest.slice(1, -1).trim();
  }
  rest = rest.replace(CURRENCY_CODE, '').trim();
  for (let pass = 0; pass < 2; pass++) {
    if (/^[-+]/.test(rest)) {
      sign(rest.startsWith('-'));
      rest = rest.slice(1).trim();
    }
    if (pass === 0) rest = rest.replace(/^\$\s*/, '');
  }
  if (rest.endsWith('-')) {
    sign(true);
    rest = rest.slice(0, -1).trim();
  }
  if (signs > 1) return null;
  const cents = parseAmountText(rest);
  if (cents === null) {
    const digits = rest.replace(/^\$\s*/, '').replace(/[, ]/g, '');
    return /^\d{10,}(?:\.\d{0,2})?$/.test(digits) ? (negative ? -Infinity : Infinity) : null;
  }
  return negative && cents !== 0 ? -cents : cents;
}

/**
 * Exact cents of an amount the API sent. Unlike `toCents`, which checks what a person or a file may enter, any
 * size and sign: a sum or a balance may pass 999,999,999.99, a net may be below zero.
 */
export function centsOf(amount: number): number {
  return Math.round(amount * 100);
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
