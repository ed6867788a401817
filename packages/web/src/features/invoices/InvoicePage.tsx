import type { Entry } from '@billfold/contract/entries';
import { formatAmount } from '@billfold/contract/money';
import type { Payment } from '@billfold/contract/payments';
import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DoneOutlined from '@mui/icons-material/DoneOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { useEntities } from '../../api/entities/list-entities.ts';
import { useInvoiceHistory } from '../../api/history/get-invoice-history.ts';
import { useInvoice } from '../../api/invoices/get-invoice.ts';
import { useUpdateInvoice } from '../../api/invoices/update-invoice.ts';
import { failureMessage } from '../../api/outcome.ts';
import { usePayments } from '../../api/payments/list-payments.ts';
import { useUpdatePayment } from '../../api/payments/update-payment.ts';
import { ArchivedBanner } from '../../components/ArchivedBanner.tsx';
import { AttachmentsPanel } from '../../components/attachments/AttachmentsPanel.tsx';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { DetailItem, DetailList } from '../../components/DetailList.tsx';
import { DueDate } from '../../components/DueDate.tsx';
import { EstimatedChip, estimateDifference } from '../../components/estimates.tsx';
import { HistoryPanel } from '../../components/HistoryPanel.tsx';
import {
  FLOW_LABELS,
  FlowIcon,
  flowKind,
  PAID_LABELS,
  PaidIcon,
  paidState,
} from '../../components/invoice-grid/icons.tsx';
import { ReadOnlyBanner, ReadOnlyTip, useLedgerAccess } from '../../components/ledger-access.tsx';
import { useNotice } from '../../components/notices.tsx';
import { PageProgress } from '../../components/PageProgress.tsx';
import type { EntityOrigin } from '../../lib/entity-origin.ts';
import { provenance } from '../../lib/history-view.ts';
import { parseRouteId } from '../../lib/route-id.ts';
import { InvoiceNotFound } from './InvoiceNotFound.tsx';
import { PaymentDialog } from './PaymentDialog.tsx';
import { PaymentFilesDialog } from './PaymentFilesDialog.tsx';
import { PaymentHistoryDialog } from './PaymentHistoryDialog.tsx';
import { PaymentsTable } from './PaymentsTable.tsx';
import { PAYMENT_MESSAGES } from './payment-form.ts';

function Frame({ children }: { children: ReactNode }) {
  return <Container sx={{ py: 4, maxWidth: { lg: 1000 } }}>{children}</Container>;
}

/** `/entries/{id}` (docs/product.md, Invoice page (/entries/:id)): the invoice, its payments, and the actions on both. */
export default function InvoicePage() {
  const entryId = parseRouteId(useParams().id);
  const entry = useInvoice(entryId);
  // Payments are asked for once the invoice is known to exist.
  const payments = usePayments(entry.data ? entryId : null);

  if (entry.isPending || (entry.data && payments.isPending)) return <PageProgress />;
  if (entry.isError || payments.isError)
    return (
      <Frame>
        <Alert severity="error">Failed to load invoice or payments.</Alert>
      </Frame>
    );
  if (!entry.data)
    return (
      <Frame>
        <InvoiceNotFound entryId={entryId} />
      </Frame>
    );
  return (
    <Frame>
      <InvoiceDetail entry={entry.data} payments={payments.data ?? []} />
    </Frame>
  );
}

function InvoiceDetail({ entry, payments }: { entry: Entry; payments: readonly Payment[] }) {
  const [dialog, setDialog] = useState<Payment | 'add' | null>(null);
  const [deletingPayment, setDeletingPayment] = useState<Payment | null>(null);
  const [deletingInvoice, setDeletingInvoice] = useState(false);
  const [paymentHistory, setPaymentHistory] = useState<Payment | null>(null);
  const [paymentFiles, setPaymentFiles] = useState<Payment | null>(null);
  const { readOnlyReason } = useLedgerAccess();
  const history = useInvoiceHistory(entry.entryId);
  const entities = useEntities('all');
  const entityName = (id: number) => entities.data?.find((bill) => bill.id === id)?.name ?? null;
  const added = history.data ? provenance(history.data) : null;
  const updateInvoice = useUpdateInvoice();
  const updatePayment = useUpdatePayment();
  const notify = useNotice();
  const navigate = useNavigate();
  // Read only when the entity is archived (the banner says so) or the ledger is read-only for the user.
  const readOnly = entry.archived || readOnlyReason !== null;
  const reason = entry.archived ? null : readOnlyReason;
  const paid = paidState(entry);
  const flow = flowKind(entry);
  const entityOriginState: EntityOrigin = { invoiceId: entry.entryId };

  const deletePayment = async () => {
    if (!deletingPayment) return;
    const outcome = await updatePayment.mutateAsync({ paymentId: deletingPayment.paymentId, recycle: true });
    setDeletingPayment(null);
    if (!outcome.ok) {
      notify(failureMessage(outcome, PAYMENT_MESSAGES.delete), { severity: 'error' });
      return;
    }
    notify(PAYMENT_MESSAGES.delete.success, { severity: 'success' });
  };

  // The amount as it is is the actual one (docs/decisions/0213-confirming-estimates.md).
  const confirmAmount = async () => {
    const outcome = await updateInvoice.mutateAsync({ entryId: entry.entryId, confirm: true });
    if (!outcome.ok) {
      notify(failureMessage(outcome, { failed: 'Failed to confirm amount.', error: 'Error confirming amount.' }), {
        severity: 'error',
      });
      return;
    }
    notify(`Amount of invoice #${entry.invoiceId} confirmed.`, { severity: 'success' });
  };

  const deleteInvoice = async () => {
    const outcome = await updateInvoice.mutateAsync({ entryId: entry.entryId, recycle: true });
    setDeletingInvoice(false);
    if (!outcome.ok) {
      notify(failureMessage(outcome, { failed: 'Failed to delete invoice.', error: 'Error deleting invoice.' }), {
        severity: 'error',
      });
      return;
    }
    notify(`Invoice #${entry.invoiceId} moved to the recycle bin.`, { severity: 'success' });
    // The invoice's page is gone: it leaves history too, so Back does not land on "Invoice not found.".
    navigate('/home', { replace: true });
  };

  return (
    <>
      {entry.archived && <ArchivedBanner />}
      {reason && <ReadOnlyBanner reason={reason} />}
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mb: 3 }}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ mb: 3, justifyContent: 'space-between', alignItems: { sm: 'center' } }}
        >
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="h5" component="h1" sx={{ fontWeight: 500 }}>
              Invoice #{entry.invoiceId}
            </Typography>
            {added && (
              <Typography variant="body2" color="text.secondary" data-testid="invoice-provenance">
                {added}
              </Typography>
            )}
          </Box>
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1, flexShrink: 0 }}>
            <ReadOnlyTip reason={reason}>
              <Button
                variant="contained"
                startIcon={<EditOutlined />}
                component={RouterLink}
                to={`/invoice/${entry.entryId}`}
                disabled={readOnly}
              >
                Edit Invoice
              </Button>
            </ReadOnlyTip>
            {entry.estimated && (
              <ReadOnlyTip reason={reason}>
                <Button variant="outlined" startIcon={<DoneOutlined />} onClick={confirmAmount} disabled={readOnly}>
                  Confirm Amount
                </Button>
              </ReadOnlyTip>
            )}
            <ReadOnlyTip reason={reason}>
              <Button
                variant="outlined"
                component={RouterLink}
                to={`/bills/${entry.billId}`}
                state={entityOriginState}
                disabled={readOnly}
              >
                Edit Entity
              </Button>
            </ReadOnlyTip>
            <ReadOnlyTip reason={reason}>
              <Button
                variant="outlined"
                color="error"
                startIcon={<DeleteOutlined />}
                onClick={() => setDeletingInvoice(true)}
                disabled={readOnly}
              >
                Delete Invoice
              </Button>
            </ReadOnlyTip>
          </Stack>
        </Stack>
        <DetailList>
          <DetailItem label="ID">{entry.invoiceId}</DetailItem>
          <DetailItem label="Entity">
            <Link component={RouterLink} to={`/entities/${entry.billId}`}>
              {entry.name}
            </Link>
          </DetailItem>
          <DetailItem label="Date">{entry.date}</DetailItem>
          <DetailItem label="Due date">
            <DueDate entry={entry} />
          </DetailItem>
          <DetailItem label="Amount">
            <span>{formatAmount(entry.amount)}</span>
            {entry.estimated && <EstimatedChip />}
          </DetailItem>
          {entry.estimate !== null && !entry.estimated && (
            <DetailItem label="Estimate">
              <span>{formatAmount(entry.estimate)}</span>
              <Typography component="span" variant="body2" color="text.secondary">
                {estimateDifference(entry)}
              </Typography>
            </DetailItem>
          )}
          <DetailItem label="Paid">
            <PaidIcon entry={entry} />
            <span>{PAID_LABELS[paid]}</span>
          </DetailItem>
          <DetailItem label="Flow">
            <FlowIcon entry={entry} />
            <span>{FLOW_LABELS[flow]}</span>
          </DetailItem>
          <DetailItem label="Balance">
            {formatAmount(entry.balance.totalBalance)}
            {entry.balance.totalOverpaid > 0 && (
              <Typography component="span" variant="body2" color="warning.dark">
                (overpaid {formatAmount(entry.balance.totalOverpaid)})
              </Typography>
            )}
          </DetailItem>
          <DetailItem label="Description" wide>
            <Typography
              component="span"
              sx={{ whiteSpace: 'pre-wrap' }}
              color={entry.services ? undefined : 'text.secondary'}
            >
              {entry.services || '—'}
            </Typography>
          </DetailItem>
        </DetailList>
      </Paper>

      <AttachmentsPanel owner={{ kind: 'entries', id: entry.entryId }} readOnly={readOnly} readOnlyReason={reason} />

      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack direction="row" sx={{ mb: 2, justifyContent: 'space-between', alignItems: 'center' }}>
          <Typography variant="h6" component="h2">
            Payments
          </Typography>
          <ReadOnlyTip reason={reason}>
            <Button variant="contained" startIcon={<Add />} onClick={() => setDialog('add')} disabled={readOnly}>
              Add Payment
            </Button>
          </ReadOnlyTip>
        </Stack>
        <PaymentsTable
          payments={payments}
          readOnly={readOnly}
          readOnlyReason={reason}
          onEdit={(payment) => setDialog(payment)}
          onDelete={(payment) => setDeletingPayment(payment)}
          onHistory={(payment) => setPaymentHistory(payment)}
          onFiles={(payment) => setPaymentFiles(payment)}
        />
      </Paper>

      <HistoryPanel history={history} entityName={entityName} />
      {paymentFiles && (
        <PaymentFilesDialog
          payment={paymentFiles}
          readOnly={readOnly}
          readOnlyReason={reason}
          onClose={() => setPaymentFiles(null)}
        />
      )}
      {paymentHistory && <PaymentHistoryDialog payment={paymentHistory} onClose={() => setPaymentHistory(null)} />}

      {dialog !== null && <PaymentDialog target={dialog} entry={entry} onClose={() => setDialog(null)} />}
      <ConfirmDialog
        open={deletingPayment !== null}
        title="Delete Payment"
        confirmLabel="Delete"
        destructive
        busy={updatePayment.isPending}
        onConfirm={deletePayment}
        onCancel={() => setDeletingPayment(null)}
      >
        {deletingPayment
          ? `Delete the payment of ${formatAmount(deletingPayment.amount)} made on ${deletingPayment.date}? It stays in the recycle bin for 14 days.`
          : ''}
      </ConfirmDialog>
      <ConfirmDialog
        open={deletingInvoice}
        title="Delete Invoice"
        confirmLabel="Delete"
        destructive
        busy={updateInvoice.isPending}
        onConfirm={deleteInvoice}
        onCancel={() => setDeletingInvoice(false)}
      >
        {`Delete invoice #${entry.invoiceId} and its payments? They stay in the recycle bin for 14 days.`}
      </ConfirmDialog>
    </>
  );
}
