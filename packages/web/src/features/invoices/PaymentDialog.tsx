import type { Entry } from '@billfold/contract/entries';
import type { Payment } from '@billfold/contract/payments';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type ReactNode, useState } from 'react';
import { useCreatePayment } from '../../api/payments/create-payment.ts';
import { useUpdatePayment } from '../../api/payments/update-payment.ts';
import { AmountTextField } from '../../components/AmountTextField.tsx';
import { FormDialog, useFormDialogState } from '../../components/FormDialog.tsx';
import { IsoDateField } from '../../components/IsoDateField.tsx';
import { useNotice } from '../../components/notices.tsx';
import { PaymentMethodField } from '../../components/PaymentMethodField.tsx';
import { SaveAnywayDialog } from '../../components/SaveAnywayDialog.tsx';
import { amountInputText } from '../../lib/amount-input.ts';
import { todayIso } from '../../lib/dates.ts';
import {
  canPayRemaining,
  checkPaymentForm,
  emptyPaymentForm,
  PAYMENT_MESSAGES,
  type PaymentFormValues,
  paymentFormFromPayment,
  paymentWarnings,
  toPaymentBody,
} from './payment-form.ts';

interface Props {
  /** A payment edits it; `'add'` adds one. */
  target: Payment | 'add';
  entry: Entry;
  onClose: () => void;
}

/** A field with a helper button beside it; under it, on the right, on a phone. */
function FieldWithButton({
  children,
  button,
  onClick,
  disabled,
}: {
  children: ReactNode;
  button: string;
  onClick: () => void;
  disabled: boolean;
}) {
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={{ xs: 0.5, sm: 1 }}
      sx={{ alignItems: { sm: 'flex-start' } }}
    >
      {children}
      <Button
        onClick={onClick}
        disabled={disabled}
        sx={{ flexShrink: 0, mt: { sm: 1 }, alignSelf: { xs: 'flex-end', sm: 'flex-start' }, whiteSpace: 'nowrap' }}
      >
        {button}
      </Button>
    </Stack>
  );
}

/**
 * Add Payment and Edit Payment (docs/product.md, Payment form). The page renders it only while open, so every
 * opening starts afresh.
 */
export function PaymentDialog({ target, entry, onClose }: Props) {
  const mode = target === 'add' ? 'add' : 'edit';
  const form = useFormDialogState<PaymentFormValues>(() =>
    target === 'add' ? emptyPaymentForm(todayIso()) : paymentFormFromPayment(target),
  );
  const { values, set, setError } = form;
  const create = useCreatePayment();
  const update = useUpdatePayment();
  const notify = useNotice();
  const busy = create.isPending || update.isPending;
  const readOnly = entry.archived;
  const balance = entry.balance.totalBalance;
  // What the "Save anyway" question lists; null while it is not asked.
  const [warnings, setWarnings] = useState<string[] | null>(null);

  const submit = async (anyway = false) => {
    if (readOnly) return;
    const dateProblem = form.dateProblem('date');
    const problem = checkPaymentForm(values, dateProblem);
    setError(problem);
    if (problem || dateProblem) return;
    const slips = anyway ? [] : paymentWarnings(values, entry, target === 'add' ? null : target);
    setWarnings(slips.length > 0 ? slips : null);
    if (slips.length > 0) return;
    const body = toPaymentBody(values, entry.entryId);
    const messages = PAYMENT_MESSAGES[mode];
    const outcome =
      target === 'add'
        ? await create.mutateAsync(body)
        : await update.mutateAsync({ ...body, paymentId: target.paymentId });
    if (!outcome.ok) {
      form.reportFailure(outcome, messages);
      return;
    }
    notify(messages.success, { severity: 'success' });
    onClose();
  };

  return (
    <FormDialog
      open
      title={mode === 'add' ? 'Add Payment' : 'Edit Payment'}
      submitLabel={mode === 'add' ? 'Add Payment' : 'Save'}
      {...form.errorProps}
      busy={busy || readOnly}
      onSubmit={() => submit()}
      onClose={onClose}
    >
      <SaveAnywayDialog
        title={mode === 'add' ? 'Add this payment?' : 'Save this payment?'}
        warnings={warnings}
        busy={busy}
        onConfirm={() => submit(true)}
        onCancel={() => setWarnings(null)}
      />
      <FieldWithButton button="Use Invoice Date" onClick={() => form.setDate('date', entry.date)} disabled={readOnly}>
        <IsoDateField label="Payment Date" {...form.dateField('date')} required disabled={readOnly} />
      </FieldWithButton>
      <FieldWithButton
        button="Pay Remaining Balance"
        onClick={() => set('amount', amountInputText(balance))}
        disabled={readOnly || !canPayRemaining(mode, balance)}
      >
        <AmountTextField
          value={values.amount}
          onChange={(amount) => set('amount', amount)}
          required
          disabled={readOnly}
          fullWidth
          autoFocus
        />
      </FieldWithButton>
      <PaymentMethodField value={values.method} onChange={(code) => set('method', code)} disabled={readOnly} required />
      <FormControlLabel
        control={
          <Checkbox
            name="autopay"
            checked={values.autopay}
            onChange={(event) => set('autopay', event.target.checked)}
            disabled={readOnly}
          />
        }
        label={
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <span>Autopay</span>
            {values.autopay && <Chip label="Auto" size="small" color="info" variant="outlined" />}
          </Stack>
        }
      />
      <TextField
        label="Notes"
        name="notes"
        value={values.notes}
        onChange={(event) => set('notes', event.target.value)}
        disabled={readOnly}
        multiline
        minRows={3}
        fullWidth
        slotProps={{ htmlInput: { maxLength: 1000 } }}
      />
    </FormDialog>
  );
}
