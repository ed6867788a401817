import { formatAmount } from '@billfold/contract/money';
import type { Payment } from '@billfold/contract/payments';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { AttachmentsPanel } from '../../components/attachments/AttachmentsPanel.tsx';

/** A payment's files (a receipt, a bank statement), from the payments table's Files button. */
export function PaymentFilesDialog({
  payment,
  readOnly,
  readOnlyReason,
  onClose,
}: {
  payment: Payment;
  readOnly: boolean;
  readOnlyReason: string | null;
  onClose: () => void;
}) {
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle
        id={titleId}
      >{`Files of the payment of ${formatAmount(payment.amount)} on ${payment.date}`}</DialogTitle>
      <DialogContent>
        <AttachmentsPanel
          owner={{ kind: 'payments', id: payment.paymentId }}
          readOnly={readOnly}
          readOnlyReason={readOnlyReason}
          title="Files"
          elevation="none"
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
