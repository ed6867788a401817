import { type ColumnMapping, type DateFormat, IMPORT_FIELDS, type ImportField } from '@billfold/contract/imports';
import { OWN_CSV_HEADERS } from '../entries/entries-export.ts';

/**
 * Which column feeds which field: Billfold's own export is recognised by its exact header; other files by the
 * usual names banks and spreadsheets give their columns. The date format is the one every date of the file
 * parses in (docs/decisions/0902-csv-import.md).
 */

const SYNONYMS: Record<ImportField, string[]> = {
  date: [
    'date',
    'transaction date',
    'posted date',
    'posting date',
    'post date',
    'invoice date',
    'due date',
    'booking date',
    'value date',
  ],
  amount: ['amount', 'total', 'value', 'sum', 'transaction amount', 'amount (usd)'],
  debit: ['debit', 'debits', 'withdrawal', 'withdrawals', 'money out', 'paid out', 'debit amount', 'outflow'],
  credit: ['credit', 'credits', 'deposit', 'deposits', 'money in', 'paid in', 'credit amount', 'inflow'],
  entity: [
    'entity',
    'payee',
    'biller',
    'merchant',
    'vendor',
    'name',
    'counterparty',
    'party',
    'payee name',
    'customer',
    'company',
  ],
  description: [
    'description',
    'memo',
    'details',
    'narrative',
    'services',
    'notes',
    'reference',
    'transaction description',
  ],
  flow: ['flow', 'type', 'transaction type', 'direction', 'income/expense'],
  category: ['category', 'categories'],
  paid: ['paid', 'paid amount', 'amount paid', 'payment', 'payment amount'],
  method: ['method', 'payment method', 'paid with', 'payment type'],
  // A lone "Due Date" column is taken as the date above; beside a date column it is the due date.
  dueDate: ['due date', 'due', 'payment due', 'due by', 'date due'],
};

const key = (header: string) => header.trim().toLowerCase().replace(/\s+/g, ' ');

export function isOwnExport(headers: readonly string[]): boolean {
  return OWN_CSV_HEADERS.some((own) => headers.length === own.length && own.every((name, i) => headers[i] === name));
}

export function emptyMapping(): ColumnMapping {
  return {
    ...(Object.fromEntries(IMPORT_FIELDS.map((f) => [f, null])) as Record<ImportField, null>),
    dateFormat: null,
  };
}

export function detectMapping(headers: readonly string[]): ColumnMapping {
  const mapping = emptyMapping();
  const taken = new Set<number>();
  for (const field of IMPORT_FIELDS) {
    const index = headers.findIndex((h, i) => !taken.has(i) && SYNONYMS[field].includes(key(h)));
    if (index >= 0) {
      mapping[field] = index;
      taken.add(index);
    }
  }
  // A signed amount wins over a debit/credit pair only when the pair is incomplete.
  if (mapping.debit !== null && mapping.credit !== null && mapping.amount !== null) {
    mapping.debit = null;
    mapping.credit = null;
  }
  return mapping;
}

/** Problems that stop the whole import, in words. */
export function mappingProblems(mapping: ColumnMapping, columnCount: number): string[] {
  const problems: string[] = [];
  if (mapping.date === null) problems.push('Choose the column that holds the date.');
  if (mapping.amount === null && mapping.debit === null && mapping.credit === null)
    problems.push('Choose the column that holds the amount, or the debit and credit columns.');
  if (mapping.amount !== null && (mapping.debit !== null || mapping.credit !== null))
    problems.push('Use either a signed amount column or debit and credit columns, not both.');
  if (mapping.entity === null) problems.push('Choose the column that holds the entity (payee or biller).');
  const used = IMPORT_FIELDS.map((f) => mapping[f]).filter((c): c is number => c !== null);
  if (used.some((c) => c >= columnCount)) problems.push('The mapping names a column the file does not have.');
  if (new Set(used).size !== used.length) problems.push('Each column can feed one field only.');
  return problems;
}

// ---------------------------------------------------------------- dates

const PATTERNS: Record<DateFormat, RegExp> = {
  'YYYY-MM-DD': /^(?<y>\d{4})[-/](?<m>\d{1,2})[-/](?<d>\d{1,2})$/,
  'MM/DD/YYYY': /^(?<m>\d{1,2})[/-](?<d>\d{1,2})[/-](?<y>\d{4})$/,
  'DD/MM/YYYY': /^(?<d>\d{1,2})[/-](?<m>\d{1,2})[/-](?<y>\d{4})$/,
  'DD.MM.YYYY': /^(?<d>\d{1,2})\.(?<m>\d{1,2})\.(?<y>\d{4})$/,
};

/** `YYYY-MM-DD` of `text` read in `format`, or null when it is not a real date in that format. */
export function parseDate(text: string, format: DateFormat): string | null {
  const groups = PATTERNS[format].exec(text.trim())?.groups;
  if (!groups) return null;
  const [y, m, d] = [Number(groups.y), Number(groups.m), Number(groups.d)];
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${groups.y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** One layout of a mixed date column: an example and every line written in it. */
export interface DateLayout {
  shape: DateFormat;
  example: string;
  lines: number[];
}

export type DateDetection = { format: DateFormat } | { mixed: DateLayout[] } | { none: true };

/** How a layout is named to the user: day/month/year order is unknown until the file is read whole. */
export const layoutName = (shape: DateFormat) => (shape === 'MM/DD/YYYY' ? 'MM/DD/YYYY or DD/MM/YYYY' : shape);

/** "lines 2, 3 and 5", at most `max` of them named ("lines 2, 3, … and 40 more"). */
export function lineList(lines: readonly number[], max = 10): string {
  if (lines.length === 1) return `line ${lines[0]}`;
  if (lines.length <= max) return `lines ${lines.slice(0, -1).join(', ')} and ${lines.at(-1)}`;
  return `lines ${lines.slice(0, max).join(', ')} and ${lines.length - max} more`;
}

/** The layout of a date, before day and month order is known: year first, year last with / or -, or dots. */
function shapeOf(text: string): DateFormat | null {
  const t = text.trim();
  if (PATTERNS['YYYY-MM-DD'].test(t)) return 'YYYY-MM-DD';
  if (PATTERNS['MM/DD/YYYY'].test(t)) return 'MM/DD/YYYY';
  if (PATTERNS['DD.MM.YYYY'].test(t)) return 'DD.MM.YYYY';
  return null;
}

/**
 * The format of a date column: every date must have one layout (two layouts are "mixed", refused for the whole
 * file, since a reader cannot know which one a user meant); with day/month/year the order is month first, as in
 * en-US, unless a day above 12 shows up in the first place and no month does. Dates in no layout at all are the
 * rows' own errors.
 */
export function detectDateFormat(values: readonly { line: number; text: string }[]): DateDetection {
  const byShape = new Map<DateFormat, DateLayout>();
  const shaped: { line: number; text: string }[] = [];
  for (const value of values) {
    const shape = shapeOf(value.text);
    if (!shape) continue;
    const layout = byShape.get(shape);
    if (layout) layout.lines.push(value.line);
    else byShape.set(shape, { shape, example: value.text.trim(), lines: [value.line] });
    shaped.push(value);
  }
  if (byShape.size > 1) return { mixed: [...byShape.values()] };
  const [shape] = byShape.keys();
  if (!shape) return { none: true };
  if (shape !== 'MM/DD/YYYY') return { format: shape };
  const monthFirst = shaped.every((v) => parseDate(v.text, 'MM/DD/YYYY') !== null);
  const dayFirst = shaped.every((v) => parseDate(v.text, 'DD/MM/YYYY') !== null);
  return { format: !monthFirst && dayFirst ? 'DD/MM/YYYY' : 'MM/DD/YYYY' };
}
