import { isValidIsoDate } from '@billfold/contract/dates';
import type { Entry } from '@billfold/contract/entries';
import { centsOf, formatUsd, toCents } from '@billfold/contract/money';
import { methodCode, type PaymentMethodCode, splitMethod } from '@billfold/contract/payment-methods';
import type { CreatePaymentBody, Payment } from '@billfold/contract/payments';
import { MESSAGES } from '@billfold/contract/validation';
import { amountInputText, parseAmountInput } from '../../lib/amount-input.ts';

export type PaymentDialogMode = 'add' | 'edit';

export interface PaymentFormValues {
  date: string;
  /** As typed: digits with up to 2 decimals. */
  amount: string;
  method: PaymentMethodCode | '';
  notes: string;
  autopay: boolean;
}

export function emptyPaymentForm(today: string): PaymentFormValues {
  return { date: today, amount: '', method: '', notes: '', autopay: false };
}

/** The form as it shows a stored payment; a method outside the 12 codes must be picked again. */
export function paymentFormFromPayment(payment: Payment): PaymentFormValues {
  return {
    date: payment.date,
    amount: amountInputText(payment.amount),
    method: methodCode(payment.type, payment.medium) ?? '',
    notes: payment.notes,
    autopay: payment.autopay,
  };
}

/**
 * Date, amount and method are required (docs/product.md, Payment form); notes are optional. A date field with a problem says so itself
 * and is not reported as missing here; the dialog does not send while it shows one.
 */
export function checkPaymentForm(values: PaymentFormValues, dateProblem: string | null = null): string | null {
  const dated = dateProblem !== null || isValidIsoDate(values.date);
  const complete = dated && parseAmountInput(values.amount) !== null && values.method !== '';
  return complete ? null : MESSAGES.paymentFieldsRequired;
}

/**
 * What is almost always a slip in a payment that the rules allow (docs/decisions/0605-money-entry-warnings.md):
 * a payment of 0.00, one that overpays the invoice by more than its amount, one dated before its invoice. Each is
 * a sentence for the "Save anyway" question; an edit is asked only about what it changes.
 */
export function paymentWarnings(
  values: PaymentFormValues,
  entry: Pick<Entry, 'date' | 'amount' | 'balance'>,
  editing: Payment | null = null,
): string[] {
  const warnings: string[] = [];
  const cents = toCents(parseAmountInput(values.amount) ?? Number.NaN);
  const amountChanged = editing === null || cents !== centsOf(editing.amount);
  if (cents !== null && amountChanged) {
    const invoice = centsOf(entry.amount);
    const paid = invoice - centsOf(entry.balance.totalBalance) + centsOf(entry.balance.totalOverpaid);
    const others = paid - (editing === null ? 0 : centsOf(editing.amount));
    const overpaid = others + cents - invoice;
    if (cents === 0) warnings.push('This payment is $0.00: it records nothing paid.');
    else if (overpaid > invoice)
      warnings.push(
        `This payment overpays the invoice by ${formatUsd(overpaid / 100)}, more than its amount of ${formatUsd(invoice / 100)}.`,
      );
  }
  const dateChanged = editing === null || values.date !== editing.date;
  if (dateChanged && isValidIsoDate(values.date) && values.date < entry.date)
    warnings.push(`This payment is dated ${values.date}, before its invoice's date ${entry.date}.`);
  return warnings;
}

/** Pay Remaining Balance is offered only while adding a payment to an invoice with something left to pay. */
export function canPayRemaining(mode: PaymentDialogMode, balance: number): boolean {
  return mode === 'add' && balance > 0;
}

export function toPaymentBody(values: PaymentFormValues, entryId: number): CreatePaymentBody {
  const [type, medium] = splitMethod(values.method);
  return {
    entryId,
    date: values.date,
    amount: parseAmountInput(values.amount) ?? 0,
    type,
    medium,
    notes: values.notes.trim(),
    autopay: values.autopay,
  };
}

/** What the notice says (docs/product.md, Messages) after an add or an edit. */
export const PAYMENT_MESSAGES = {
  add: { success: 'Payment added successfully!', failed: 'Failed to add payment.', error: 'Error saving payment.' },
  edit: {
    success: 'Payment updated successfully!',
    failed: 'Failed to update payment.',
    error: 'Error saving payment.',
  },
  delete: {
    success: 'Payment deleted successfully.',
    failed: 'Failed to delete payment.',
    error: 'Error deleting payment.',
  },
} as const;
