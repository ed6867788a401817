import type { ImportRow } from '@billfold/contract/imports';
import { formatUsd } from '@billfold/contract/money';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';

interface Props {
  rows: readonly ImportRow[];
  keep: ReadonlySet<number>;
  onKeep: (line: number, keep: boolean) => void;
}

const FLOW_LABEL = { income: 'Income', expense: 'Expense', internal: 'Internal' } as const;
const DUPLICATE_LABEL = {
  file: 'Likely duplicate of an earlier row',
  stored: 'Likely duplicate of a stored invoice',
} as const;

const money = (text: string | null) => (text === null ? '' : formatUsd(Number(text)));

function Status({ row, keep, onKeep }: { row: ImportRow; keep: boolean; onKeep: (keep: boolean) => void }) {
  if (row.errors.length > 0)
    return (
      <Typography variant="body2" color="error">
        {row.errors.join(' ')}
      </Typography>
    );
  if (row.duplicate)
    return (
      <FormControlLabel
        control={<Checkbox size="small" checked={keep} onChange={(event) => onKeep(event.target.checked)} />}
        label={<Typography variant="body2">{`${DUPLICATE_LABEL[row.duplicate]}: import anyway`}</Typography>}
      />
    );
  return (
    <Typography variant="body2" color="success.main">
      Ready
    </Typography>
  );
}

/** The preview's rows: what each would become, with its errors in words or its duplicate flag. */
export function ImportRowsTable({ rows, keep, onKeep }: Props) {
  return (
    <TableContainer sx={{ maxHeight: 480, border: 1, borderColor: 'divider', borderRadius: 1 }}>
      <Table size="small" stickyHeader aria-label="Rows to import">
        <TableHead>
          <TableRow>
            <TableCell>Line</TableCell>
            <TableCell>Date</TableCell>
            <TableCell>Entity</TableCell>
            <TableCell>Description</TableCell>
            <TableCell>Flow</TableCell>
            <TableCell align="right">Amount</TableCell>
            <TableCell align="right">Paid</TableCell>
            <TableCell sx={{ minWidth: 220 }}>Status</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.line} hover selected={row.errors.length > 0}>
              <TableCell>{row.line}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{row.date}</TableCell>
              <TableCell>{row.entity}</TableCell>
              <TableCell>{row.description}</TableCell>
              <TableCell>{row.flow ? FLOW_LABEL[row.flow] : ''}</TableCell>
              <TableCell align="right">{money(row.amount)}</TableCell>
              <TableCell align="right">{money(row.paid)}</TableCell>
              <TableCell>
                <Status row={row} keep={keep.has(row.line)} onKeep={(checked) => onKeep(row.line, checked)} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
