import { describe, expect, it } from 'vitest';
import { methodCode, PAYMENT_METHOD_CODES, PAYMENT_METHOD_GROUPS, paymentMethodLabel } from '../src/payment-methods.ts';

describe('payment methods', () => {
  it('has the 12 method codes in three groups', () => {
    expect(PAYMENT_METHOD_CODES).toHaveLength(12);
    expect(PAYMENT_METHOD_GROUPS.map((g) => g.group)).toEqual(['Electronic', 'Paper', 'Other']);
  });

  it('labels known pairs, case-insensitively and trimmed', () => {
    expect(paymentMethodLabel(' CREDIT | Web ')).toBe('Credit Card (Online)');
    expect(paymentMethodLabel('credit|person')).toBe('Credit Card (In Person)');
    expect(paymentMethodLabel('bank|ach')).toBe('Bank Transfer (ACH/EFT)');
    expect(paymentMethodLabel('check|mail')).toBe('Check (Mail)');
    expect(paymentMethodLabel('bank / ach')).toBe('Bank Transfer (ACH/EFT)'); // the recycle bin's form
    expect(paymentMethodLabel('other|ewallet')).toBe('eWallet (Apple Pay, Google Pay, etc.)');
    expect(paymentMethodLabel('other|service')).toBe('Service (Zelle, PayPal, Venmo, etc.)');
    expect(paymentMethodLabel('other|other')).toBe('Unspecified Method');
    expect(paymentMethodLabel('cash|person')).toBe('Cash');
    expect(paymentMethodLabel('CYBER|web')).toBe('Cybercurrency');
  });

  it('falls back to "<type label> - <subtype label>" for unknown pairs', () => {
    expect(paymentMethodLabel('credit|phone')).toBe('Credit - Phone');
    expect(paymentMethodLabel('bank|app')).toBe('Bank Account - Mobile App');
    expect(paymentMethodLabel('debit|mail')).toBe('Debit - Mail');
    expect(paymentMethodLabel('check|web')).toBe('Check - Website');
    expect(paymentMethodLabel('other|person')).toBe('Other - In Person');
    expect(paymentMethodLabel('zelle|zap')).toBe('Other - Other');
  });

  it('accepts only the 12 codes as methods', () => {
    expect(methodCode(' Credit ', 'WEB')).toBe('credit|web');
    expect(methodCode('credit', 'phone')).toBeNull();
    for (const code of PAYMENT_METHOD_CODES) {
      const [type = '', medium = ''] = code.split('|');
      expect(methodCode(type, medium)).toBe(code);
    }
  });
});
