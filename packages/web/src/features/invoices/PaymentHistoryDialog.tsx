import { formatAmount } from '@billfold/contract/money';
import type { Payment } from '@billfold/contract/payments';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { usePaymentHistory } from '../../api/history/get-payment-history.ts';
import { HistoryList } from '../../components/HistoryPanel.tsx';

/** A payment's changes (`GET /payments/{id}/history`), from the payments table's History button. */
export function PaymentHistoryDialog({ payment, onClose }: { payment: Payment; onClose: () => void }) {
  const titleId = useId();
  const history = usePaymentHistory(payment.paymentId);
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle
        id={titleId}
      >{`Changes to the payment of ${formatAmount(payment.amount)} on ${payment.date}`}</DialogTitle>
      <DialogContent>
        <HistoryList history={history} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
