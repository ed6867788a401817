import { formatAmount } from '@billfold/contract/money';
import type { Payment } from '@billfold/contract/payments';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { type ReactNode, useId } from 'react';

/**
 * A dialog that shows something of one payment, opened by a button of the payments table: its title names the
 * payment after `about` ("Files of the payment of 40.00 on 2026-01-15"); Close is its only action.
 */
export function PaymentViewDialog({
  payment,
  about,
  onClose,
  children,
}: {
  payment: Payment;
  about: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle
        id={titleId}
      >{`${about} the payment of ${formatAmount(payment.amount)} on ${payment.date}`}</DialogTitle>
      <DialogContent>{children}</DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
