import { formatUsd, formatUsdCompact } from '@billfold/contract/money';
import Box from '@mui/material/Box';
import { visuallyHidden } from './visually-hidden.ts';

/**
 * The pieces every money chart shares (Stats, Trends, the forecast on Home, an entity's price history): the money
 * axis, the legend's place, the tooltip's amounts, and the table beside each chart that gives screen readers every
 * figure.
 */

/** The money axis: amounts in short form ($1.2B) so that the largest totals fit; tooltip and table give every cent. */
export const MONEY_AXIS = { valueFormatter: (value: number) => formatUsdCompact(value), width: 72 };

/** The legend in a row under the chart. */
export const LEGEND_BELOW = {
  legend: { direction: 'horizontal', position: { vertical: 'bottom', horizontal: 'center' } },
} as const;

/** A series value in the tooltip: every cent; nothing for a missing value. */
export const moneyValue = (value: number | null) => (value === null ? '' : formatUsd(value));

/** One row of a chart's table: its heading cell (a period, a date) and one text per further column. */
export interface ChartTableRow {
  key: string;
  head: string;
  cells: readonly string[];
}

/**
 * A chart's figures as a table that screen readers read and that is not shown. `columns` names every column, the
 * rows' heading column first; column names are distinct.
 */
export function ChartTable({
  caption,
  columns,
  rows,
}: {
  caption: string;
  columns: readonly string[];
  rows: readonly ChartTableRow[];
}) {
  const cellColumns = columns.slice(1);
  return (
    <Box sx={visuallyHidden}>
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.head}</th>
              {cellColumns.map((column, i) => (
                <td key={column}>{row.cells[i] ?? ''}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </Box>
  );
}
