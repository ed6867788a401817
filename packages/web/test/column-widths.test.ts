import { describe, expect, it } from 'vitest';
import {
  INVOICE_COLUMN_CONTENT,
  MIN_COLUMN_WIDTH,
  MONEY_SAMPLES,
  sizedInvoiceColumns,
} from '../src/components/invoice-grid/columns.tsx';
import { contentWidth } from '../src/lib/text-width.ts';

describe('column widths from content', () => {
  it('is the widest text plus the padding, within the bounds, and the floor where nothing measures', () => {
    const bounds = { min: 100, max: 300, padding: 20 };
    expect(contentWidth(150.2, bounds)).toBe(171);
    expect(contentWidth(40, bounds)).toBe(100);
    expect(contentWidth(900, bounds)).toBe(300);
    expect(contentWidth(null, bounds)).toBe(100);
  });

  it('money and date columns always have room for the widest amount and any date', () => {
    expect(MONEY_SAMPLES).toEqual(['-999,999,999.99', '999,999,999.99']);
    for (const field of ['amount', 'balance']) expect(INVOICE_COLUMN_CONTENT[field]?.samples).toEqual(MONEY_SAMPLES);
    for (const field of ['date', 'dueDate']) expect(INVOICE_COLUMN_CONTENT[field]?.samples).toContain('0000-00-00');
  });

  it('a width the user dragged wins over the content and stops the column from flexing; Description fills the rest', () => {
    const columns = sizedInvoiceColumns({ name: 230, date: 110 }, { date: 150, services: 300 });
    const byField = Object.fromEntries(columns.map((column) => [column.field, column]));
    expect(byField.name).toMatchObject({ width: 230 });
    expect(byField.date).toMatchObject({ width: 150, flex: 0, minWidth: MIN_COLUMN_WIDTH });
    expect(byField.services).toMatchObject({ width: 300, flex: 0 });
    const untouched = sizedInvoiceColumns({}, {});
    expect(untouched.find((column) => column.field === 'services')).toMatchObject({ flex: 1, minWidth: 100 });
    expect(untouched.find((column) => column.field === 'name')?.flex).toBeUndefined();
  });
});
