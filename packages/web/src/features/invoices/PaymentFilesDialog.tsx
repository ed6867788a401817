import type { Payment } from '@billfold/contract/payments';
import { AttachmentsPanel } from '../../components/attachments/AttachmentsPanel.tsx';
import { PaymentViewDialog } from './PaymentViewDialog.tsx';

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
  return (
    <PaymentViewDialog payment={payment} about="Files of" onClose={onClose}>
      <AttachmentsPanel
        owner={{ kind: 'payments', id: payment.paymentId }}
        readOnly={readOnly}
        readOnlyReason={readOnlyReason}
        title="Files"
        elevation="none"
      />
    </PaymentViewDialog>
  );
}
