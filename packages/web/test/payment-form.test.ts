import type { Payment } from '@billfold/contract/payments';
import { describe, expect, it } from 'vitest';
import {
  canPayRemaining,
  checkPaymentForm,
  emptyPaymentForm,
  PAYMENT_MESSAGES,
  paymentFormFromPayment,
  paymentWarnings,
  toPaymentBody,
} from '../src/features/invoices/payment-form.ts';

function payment(overrides: Partial<Payment> = {}): Payment {
  return {
    paymentId: 5,
    id: 5,
    entryId: 11,
    date: '2026-01-15',
    amount: 40,
    type: 'check',
    medium: 'mail',
    notes: 'First part',
    autopay: true,
    recycle: false,
    ...overrides,
  };
}

describe('payment form', () => {
  it('starts on today with nothing else filled in', () => {
    expect(emptyPaymentForm('2026-11-22')).toEqual({
      date: '2026-11-22',
      amount: '',
      method: '',
      notes: '',
      autopay: false,
    });
  });

  it('needs date, amount and method: Please fill in all required fields.', () => {
    const complete = { date: '2026-01-15', amount: '40', method: 'check|mail', notes: '', autopay: false } as const;
    expect(checkPaymentForm(complete)).toBeNull();
    expect(checkPaymentForm({ ...complete, amount: '0' })).toBeNull();
    for (const missing of [{ date: '' }, { amount: '' }, { amount: '.' }, { method: '' }] as const) {
      expect(checkPaymentForm({ ...complete, ...missing })).toBe('Please fill in all required fields.');
    }
  });

  it('a date field with a problem is not a missing field: the field says why (2026-11-31)', () => {
    const complete = { date: '', amount: '40', method: 'check|mail', notes: '', autopay: false } as const;
    expect(checkPaymentForm(complete, 'Enter a whole date that exists, as YYYY-MM-DD.')).toBeNull();
    expect(checkPaymentForm({ ...complete, amount: '' }, 'x')).toBe('Please fill in all required fields.');
  });

  it('offers Pay Remaining Balance only when adding to an invoice with a balance above 0', () => {
    expect(canPayRemaining('add', 60)).toBe(true);
    expect(canPayRemaining('add', 0.01)).toBe(true);
    expect(canPayRemaining('add', 0)).toBe(false);
    expect(canPayRemaining('edit', 60)).toBe(false);
  });

  it('sends the method as type and medium, the amount as a number, the notes trimmed', () => {
    expect(
      toPaymentBody(
        { date: '2026-01-15', amount: '40.5', method: 'other|ewallet', notes: ' a\nb ', autopay: true },
        11,
      ),
    ).toEqual({
      entryId: 11,
      date: '2026-01-15',
      amount: 40.5,
      type: 'other',
      medium: 'ewallet',
      notes: 'a\nb',
      autopay: true,
    });
  });

  it('edits a stored payment; a method outside the 12 must be picked again', () => {
    expect(paymentFormFromPayment(payment())).toEqual({
      date: '2026-01-15',
      amount: '40.00',
      method: 'check|mail',
      notes: 'First part',
      autopay: true,
    });
    expect(paymentFormFromPayment(payment({ type: 'CHECK ', medium: 'Mail' })).method).toBe('check|mail');
    expect(paymentFormFromPayment(payment({ type: 'cash', medium: 'web' })).method).toBe('');
  });

  it('uses the messages of docs/product.md, Messages', () => {
    expect(PAYMENT_MESSAGES.add).toEqual({
      success: 'Payment added successfully!',
      failed: 'Failed to add payment.',
      error: 'Error saving payment.',
    });
    expect(PAYMENT_MESSAGES.edit).toEqual({
      success: 'Payment updated successfully!',
      failed: 'Failed to update payment.',
      error: 'Error saving payment.',
    });
    expect(PAYMENT_MESSAGES.delete).toEqual({
      success: 'Payment deleted successfully.',
      failed: 'Failed to delete payment.',
      error: 'Error deleting payment.',
    });
  });

  it('warns of an overpayment counted in full, however far past one amount the invoice was already paid', () => {
    // Paid twice over already: 1,999,999,999.98 in payments, overpaid by 999,999,999.99 (past one amount's limit).
    const entry = {
      date: '2026-01-01',
      amount: 999999999.99,
      balance: { totalBalance: 0, totalOverpaid: 999999999.99 },
    };
    const values = { ...emptyPaymentForm('2026-02-01'), amount: '1', method: 'check|mail' as const };
    expect(paymentWarnings(values, entry)).toEqual([
      'This payment overpays the invoice by $1,000,000,000.99, more than its amount of $999,999,999.99.',
    ]);
  });
});
