import type { Payment } from '@billfold/contract/payments';
import { usePaymentHistory } from '../../api/history/get-payment-history.ts';
import { HistoryList } from '../../components/HistoryPanel.tsx';
import { PaymentViewDialog } from './PaymentViewDialog.tsx';

/** A payment's changes (`GET /payments/{id}/history`), from the payments table's History button. */
export function PaymentHistoryDialog({ payment, onClose }: { payment: Payment; onClose: () => void }) {
  const history = usePaymentHistory(payment.paymentId);
  return (
    <PaymentViewDialog payment={payment} about="Changes to" onClose={onClose}>
      <HistoryList history={history} />
    </PaymentViewDialog>
  );
}
