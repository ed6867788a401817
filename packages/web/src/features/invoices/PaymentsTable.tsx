import { formatAmount } from '@billfold/contract/money';
import { paymentMethodLabel } from '@billfold/contract/payment-methods';
import type { Payment } from '@billfold/contract/payments';
import AttachFile from '@mui/icons-material/AttachFile';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import useMediaQuery from '@mui/material/useMediaQuery';

interface Props {
  payments: readonly Payment[];
  readOnly: boolean;
  /** Why edit and delete are disabled when the ledger is read-only for the user: their tooltip. */
  readOnlyReason?: string | null;
  onEdit: (payment: Payment) => void;
  onDelete: (payment: Payment) => void;
  /** Opens the payment's history (docs/decisions/0108-change-history.md). */
  onHistory: (payment: Payment) => void;
  /** Opens the payment's files (docs/api/attachments.md). */
  onFiles: (payment: Payment) => void;
}

/** Edit and delete of one payment. */
function PaymentActions({
  payment,
  readOnly,
  readOnlyReason,
  onEdit,
  onDelete,
  onHistory,
  onFiles,
  align,
}: Omit<Props, 'payments'> & { payment: Payment; align: 'left' | 'right' }) {
  return (
    <TableCell align={align} sx={{ whiteSpace: 'nowrap' }}>
      <Tooltip title="Files of this payment">
        <IconButton aria-label="Files of this payment" onClick={() => onFiles(payment)}>
          <AttachFile fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title="Changes to this payment">
        <IconButton aria-label="Changes to this payment" onClick={() => onHistory(payment)}>
          <HistoryOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={readOnlyReason ?? 'Edit payment'}>
        <span>
          <IconButton aria-label="Edit payment" onClick={() => onEdit(payment)} disabled={readOnly}>
            <EditOutlined fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title={readOnlyReason ?? 'Delete payment'}>
        <span>
          <IconButton aria-label="Delete payment" color="error" onClick={() => onDelete(payment)} disabled={readOnly}>
            <DeleteOutlined fontSize="small" />
          </IconButton>
        </span>
      </Tooltip>
    </TableCell>
  );
}

/**
 * The invoice's payments (docs/product.md, Invoice page (/entries/:id)): date, amount, method with an Auto badge,
 * notes, edit and delete. On a phone or small tablet the table scrolls sideways, so the actions come first, where
 * they can be seen and reached (decision 0801).
 */
export function PaymentsTable({
  payments,
  readOnly,
  readOnlyReason = null,
  onEdit,
  onDelete,
  onHistory,
  onFiles,
}: Props) {
  const theme = useTheme();
  const actionsFirst = useMediaQuery(theme.breakpoints.down('md'));
  const actions = (payment: Payment) => (
    <PaymentActions
      payment={payment}
      readOnly={readOnly}
      readOnlyReason={readOnlyReason}
      onEdit={onEdit}
      onDelete={onDelete}
      onHistory={onHistory}
      onFiles={onFiles}
      align={actionsFirst ? 'left' : 'right'}
    />
  );
  const actionsHeader = <TableCell align={actionsFirst ? 'left' : 'right'}>Actions</TableCell>;
  return (
    // On a phone the table scrolls sideways; with no payment (so no button in it) the scrolling region itself takes
    // the keyboard's focus, so it can still be scrolled without a pointer.
    <TableContainer {...(payments.length === 0 ? { tabIndex: 0, role: 'region', 'aria-label': 'Payments table' } : {})}>
      <Table size="small" aria-label="Payments" sx={{ minWidth: 640, '& th': { whiteSpace: 'nowrap' } }}>
        <TableHead>
          <TableRow>
            {actionsFirst && actionsHeader}
            <TableCell>Payment Date</TableCell>
            <TableCell align="right">Payment Amount</TableCell>
            <TableCell>Method</TableCell>
            <TableCell>Notes</TableCell>
            {!actionsFirst && actionsHeader}
          </TableRow>
        </TableHead>
        <TableBody>
          {payments.length === 0 ? (
            <TableRow>
              <TableCell colSpan={5} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                No payments found.
              </TableCell>
            </TableRow>
          ) : (
            payments.map((payment) => (
              <TableRow key={payment.paymentId} hover>
                {actionsFirst && actions(payment)}
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{payment.date}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {formatAmount(payment.amount)}
                </TableCell>
                <TableCell>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                    <span>{paymentMethodLabel(`${payment.type}|${payment.medium}`)}</span>
                    {payment.autopay && <Chip label="Auto" size="small" color="info" variant="outlined" />}
                  </Stack>
                </TableCell>
                <TableCell sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'break-word', minWidth: 140, maxWidth: 320 }}>
                  {payment.notes}
                </TableCell>
                {!actionsFirst && actions(payment)}
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
