import { categoryLabel } from '@billfold/contract/categories';
import { centsToDecimalString } from '@billfold/contract/money';
import type { EntryRow } from '../../db/schema.ts';
import { PAY_STATE } from '../payment-totals/payment-totals.ts';

/** CSV (RFC 4180) encoding of the invoice export; see docs/decisions/0201-csv-export.md. */

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

export const CSV_COLUMNS = [
  'Invoice #',
  'Entity',
  'Date',
  'Flow',
  'Amount',
  'Paid',
  'Balance',
  'Overpaid',
  'Status',
  'Description',
  'Category',
  'Internal',
  'Archived',
  'Due Date',
  'Estimate',
  'Estimated',
] as const;

/**
 * The headers of Billfold's own exports, newest first: with estimates (docs/decisions/0216-csv-estimates.md), before
 * them, and before due dates. A file with any of them is still Billfold's own when imported.
 */
export const OWN_CSV_HEADERS: readonly (readonly string[])[] = [
  CSV_COLUMNS,
  CSV_COLUMNS.slice(0, -2),
  CSV_COLUMNS.slice(0, -3),
];

export type ExportRow = Pick<
  EntryRow,
  | 'invoice_number'
  | 'bill_name'
  | 'date'
  | 'flow'
  | 'amount_cents'
  | 'paid_cents'
  | 'balance_cents'
  | 'pay_state'
  | 'services'
  | 'category'
  | 'internal'
  | 'archived'
  | 'due_date'
  | 'estimate_cents'
  | 'estimated'
>;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One cell: text a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading
 * `'` (OWASP's CSV-injection advice); then a cell holding a quote, comma or line break is quoted, with
 * quotes doubled.
 */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The text a cell of our export stood for: the `'` that `csvCell` put before a formula start is dropped. */
export function csvCellText(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}

/** Cells joined by commas, ended by CRLF. */
export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export function csvHeader(): string {
  return csvLine(CSV_COLUMNS);
}

const STATUS_LABEL: Record<number, string> = {
  [PAY_STATE.unpaid]: 'Unpaid',
  [PAY_STATE.partial]: 'In Progress',
  [PAY_STATE.paid]: 'Paid',
  [PAY_STATE.overpaid]: 'Overpaid',
};

export function csvRow(row: ExportRow): string {
  const internal = row.internal === 1;
  return csvLine([
    String(row.invoice_number),
    row.bill_name,
    row.date,
    internal ? 'Internal' : row.flow === 'INCOMING' ? 'Income' : 'Expense',
    centsToDecimalString(row.amount_cents),
    centsToDecimalString(row.paid_cents),
    centsToDecimalString(row.balance_cents),
    centsToDecimalString(Math.max(row.paid_cents - row.amount_cents, 0)),
    STATUS_LABEL[row.pay_state] ?? 'Unpaid',
    row.services,
    categoryLabel(row.category),
    internal ? 'Yes' : 'No',
    row.archived === 1 ? 'Yes' : 'No',
    row.due_date ?? '',
    row.estimate_cents === null ? '' : centsToDecimalString(row.estimate_cents),
    Number(row.estimated) === 1 ? 'Yes' : 'No',
  ]);
}

/** `billfold-invoices-2026-11-22.csv`, dated by the server's clock in UTC. */
export function exportFileName(now: number): string {
  return `billfold-invoices-${new Date(now).toISOString().slice(0, 10)}.csv`;
}
