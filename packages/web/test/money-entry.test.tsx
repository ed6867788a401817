import type { Bill } from '@billfold/contract/bills';
import type { Entry } from '@billfold/contract/entries';
import { centsToDecimalString } from '@billfold/contract/money';
import type { Payment } from '@billfold/contract/payments';
import type { PreviewInvoice, Schedule } from '@billfold/contract/schedules';
import { MESSAGES } from '@billfold/contract/validation';
import fc from 'fast-check';
import { act, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { AmountTextField } from '../src/components/AmountTextField.tsx';
import {
  catchUpQuestion,
  emptyScheduleForm,
  scheduleFormFromSchedule,
  withDayOfMonth,
  withFirstDate,
} from '../src/features/entities/schedule-form.ts';
import {
  type EntityOption,
  entityPickerOptions,
  invoiceEditWarnings,
  invoiceFormFromEntry,
} from '../src/features/invoices/invoice-form.ts';
import { emptyPaymentForm, paymentFormFromPayment, paymentWarnings } from '../src/features/invoices/payment-form.ts';
import { amountInputText, readAmountInput } from '../src/lib/amount-input.ts';
import { reactRootPerTest } from './react-root.ts';

function entry(overrides: Partial<Entry> = {}): Entry {
  return {
    entryId: 11,
    invoiceId: 3,
    billId: 7,
    name: 'Oakwood Properties',
    category: 'Mortgage / Rent',
    date: '2026-02-03',
    flow: 'OUTGOING',
    amount: 12.5,
    services: 'Rent',
    dueDate: null,
    estimate: null,
    estimated: false,
    status: false,
    overpaid: false,
    balance: { totalBalance: 12.5, totalOverpaid: 0 },
    internal: false,
    archived: false,
    recycle: false,
    ...overrides,
  };
}

function payment(overrides: Partial<Payment> = {}): Payment {
  return {
    paymentId: 5,
    id: 5,
    entryId: 11,
    date: '2026-02-10',
    amount: 12.5,
    type: 'bank',
    medium: 'ach',
    notes: '',
    autopay: false,
    recycle: false,
    ...overrides,
  };
}

/** An amount box as a form holds it. */
function Box() {
  const [text, setText] = useState('');
  return <AmountTextField value={text} onChange={setText} />;
}

describe('amount boxes say why a character was refused', () => {
  const dom = reactRootPerTest();

  const input = () => dom.container.querySelector('input') as HTMLInputElement;
  const helper = () => dom.container.querySelector('.MuiFormHelperText-root')?.textContent ?? null;
  /** What a key press does to a React-controlled input: the browser's value setter, then an input event. */
  function type(text: string) {
    for (const key of text) {
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
      act(() => {
        setter?.call(input(), input().value + key);
        input().dispatchEvent(new Event('input', { bubbles: true }));
      });
    }
  }

  it('a minus sign is a negative amount, refused in words of its own', () => {
    for (const text of ['-5', '-', ' -12.50', '(5)', '5-', '−5', '-$1,234.56'])
      expect(readAmountInput(text)).toEqual({ text: null, error: MESSAGES.amountNegative });
    expect(readAmountInput('12-5')).toEqual({ text: null, error: MESSAGES.amountNotUnderstood });
  });

  /** Every amount a box can hold, from 0.00 to 999,999,999.99, as the box shows it. */
  const amountTexts = fc.integer({ min: 0, max: 99_999_999_999 }).map(centsToDecimalString);

  it('any amount with a minus sign or brackets, in any spelling, is refused as negative, never read as positive', () => {
    fc.assert(
      fc.property(
        amountTexts,
        fc.constantFrom('-', '\u2212', ' -', '-$', '('),
        fc.boolean(),
        (amount, sign, behind) => {
          const text =
            behind && sign.trim() !== '(' && sign !== '-$'
              ? `${amount}${sign.trim()}`
              : `${sign}${amount}${sign === '(' ? ')' : ''}`;
          expect(readAmountInput(text), text).toEqual({ text: null, error: MESSAGES.amountNegative });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('typing any amount after a minus sign leaves that amount in the box and says the minus was not taken', () => {
    // A new box for every draw, also when fast-check draws the same amount twice (a key of the amount kept the
    // last box, and its text, then).
    let draw = 0;
    fc.assert(
      fc.property(amountTexts, (amount) => {
        draw++;
        act(() => dom.root.render(<Box key={draw} />));
        type(`-${amount}`);
        expect(input().value).toBe(amount);
        expect(helper()).toBe(MESSAGES.amountNegative);
      }),
      // A few draws: each types a dozen keys through React and MUI (fast-check includes 0.00 and the largest).
      { numRuns: 12 },
    );
  }, 30_000);

  it('typing -5 leaves 5 and keeps saying the minus sign was not taken until the user edits it again after leaving', () => {
    act(() => dom.root.render(<Box />));
    type('-5');
    expect(input().value).toBe('5');
    expect(helper()).toBe(MESSAGES.amountNegative);
    type('0');
    expect(input().value).toBe('50');
    expect(helper()).toBe(MESSAGES.amountNegative);
    // Leaving the box keeps the reason (a click on Save must not move the page); the next accepted edit clears it.
    act(() => {
      input().focus();
      input().blur();
    });
    expect(helper()).toBe(MESSAGES.amountNegative);
    type('.');
    expect(helper()).toBeNull();
    type('123');
    expect(input().value).toBe('50.12');
    expect(helper()).toBe(MESSAGES.amountNotUnderstood);
  });
});

describe('stored amounts show their cents in every edit form', () => {
  it('12.5 is 12.50 and 12 is 12.00', () => {
    expect(amountInputText(12.5)).toBe('12.50');
    expect(amountInputText(12)).toBe('12.00');
    expect(invoiceFormFromEntry(entry({ amount: 12.5 })).amount).toBe('12.50');
    expect(invoiceFormFromEntry(entry({ amount: 40 })).amount).toBe('40.00');
    expect(paymentFormFromPayment(payment({ amount: 7 })).amount).toBe('7.00');
    expect(scheduleFormFromSchedule(schedule({ amount: 1250 })).amount).toBe('1250.00');
  });
});

describe('the entity picker ignores the spaces around what is typed', () => {
  const bill = (id: number, name: string): Bill => ({
    id,
    name,
    category: 'Mortgage / Rent',
    internal: false,
    status: 1,
    recycle: false,
  });
  const all: EntityOption[] = [bill(1, 'Oakwood Properties'), bill(2, 'City Power')].map((b) => ({
    kind: 'entity',
    bill: b,
  }));
  const labels = (options: EntityOption[]) =>
    options.map((o) => (o.kind === 'entity' ? o.bill.name : `${o.kind}:${o.name}`));

  it('finds "Oakwood Properties " and offers no entity of that name again', () => {
    expect(labels(entityPickerOptions(all, 'Oakwood Properties ', []))).toEqual(['Oakwood Properties', 'new:']);
    expect(labels(entityPickerOptions(all, '  oakwood ', []))).toEqual(['Oakwood Properties', 'new:oakwood']);
    expect(labels(entityPickerOptions(all, 'Water ', []))).toEqual(['new:Water']);
  });

  it('says an archived entity is archived whatever spaces surround its name', () => {
    const archived: Bill[] = [{ ...bill(3, 'Old Gym'), status: 0 }];
    expect(labels(entityPickerOptions(all, ' Old Gym  ', archived))).toEqual(['archived:Old Gym']);
  });
});

describe('a payment asks before saving what is almost always a slip', () => {
  const values = (amount: string, date = '2026-02-10') => ({
    ...emptyPaymentForm(date),
    amount,
    method: 'bank|ach' as const,
  });

  it('asks about nothing for an ordinary payment, a part payment, or an overpayment up to the invoice amount', () => {
    expect(paymentWarnings(values('12.50'), entry())).toEqual([]);
    expect(paymentWarnings(values('5'), entry())).toEqual([]);
    expect(paymentWarnings(values('25.00'), entry())).toEqual([]);
  });

  it('a payment of 0.00', () => {
    expect(paymentWarnings(values('0'), entry())).toEqual(['This payment is $0.00: it records nothing paid.']);
    expect(paymentWarnings(values('0.00'), entry())).toHaveLength(1);
  });

  it('1,250.00 on a 12.50 invoice overpays by more than its amount', () => {
    expect(paymentWarnings(values('1250'), entry())).toEqual([
      'This payment overpays the invoice by $1,237.50, more than its amount of $12.50.',
    ]);
    // What is paid already counts: 12.50 paid, 13.00 more overpays by 13.00.
    const paid = entry({ status: true, balance: { totalBalance: 0, totalOverpaid: 0 } });
    expect(paymentWarnings(values('13'), paid)).toEqual([
      'This payment overpays the invoice by $13.00, more than its amount of $12.50.',
    ]);
    expect(paymentWarnings(values('12.50'), paid)).toEqual([]);
  });

  it('a payment dated before its invoice', () => {
    expect(paymentWarnings(values('12.50', '2026-02-02'), entry())).toEqual([
      "This payment is dated 2026-02-02, before its invoice's date 2026-02-03.",
    ]);
    expect(paymentWarnings(values('0', '2026-01-01'), entry())).toHaveLength(2);
  });

  it('an edit is asked only about what it changes, and its own old amount is not counted twice', () => {
    // The invoice is paid by this very payment: editing it to 20.00 overpays by 7.50, no more than 12.50.
    const paid = entry({ status: true, balance: { totalBalance: 0, totalOverpaid: 0 } });
    const own = payment({ amount: 12.5 });
    expect(paymentWarnings(values('20'), paid, own)).toEqual([]);
    expect(paymentWarnings(values('30'), paid, own)).toEqual([
      'This payment overpays the invoice by $17.50, more than its amount of $12.50.',
    ]);
    // An old payment of 0.00 dated before its invoice, whose notes alone change, asks nothing.
    const old = payment({ amount: 0, date: '2026-01-01' });
    expect(paymentWarnings(values('0', '2026-01-01'), entry(), old)).toEqual([]);
    expect(paymentWarnings(values('0', '2026-01-02'), entry(), old)).toHaveLength(1);
  });
});

describe('an invoice edit asks before it leaves its payments looking like slips', () => {
  const form = (amount: string, date = '2026-02-03') => ({ ...invoiceFormFromEntry(entry()), amount, date });
  const paid = [
    { date: '2026-02-10', amount: 10 },
    { date: '2026-02-20', amount: 15 },
  ];

  it('a lower amount its payments overpay by more than itself', () => {
    expect(invoiceEditWarnings(form('12.50'), entry(), paid)).toEqual([]);
    expect(invoiceEditWarnings(form('12.00'), entry(), paid)).toEqual([
      'Its payments of $25.00 would overpay the new amount of $12.00 by $13.00, more than the amount itself.',
    ]);
    expect(invoiceEditWarnings(form('12.00'), entry(), [])).toEqual([]);
    // Unchanged, an old overpayment asks nothing.
    expect(invoiceEditWarnings(form('12.50'), entry({ amount: 12.5 }), [{ date: '2026-02-10', amount: 100 }])).toEqual(
      [],
    );
  });

  it('a later date that some payments come before', () => {
    expect(invoiceEditWarnings(form('12.50', '2026-02-10'), entry(), paid)).toEqual([]);
    expect(invoiceEditWarnings(form('12.50', '2026-02-15'), entry(), paid)).toEqual([
      "Its payment of 2026-02-10 would be dated before the invoice's new date 2026-02-15.",
    ]);
    expect(invoiceEditWarnings(form('12.50', '2026-03-01'), entry(), paid)).toEqual([
      "2 of its payments (from 2026-02-10) would be dated before the invoice's new date 2026-03-01.",
    ]);
  });
});

function schedule(overrides: Partial<Schedule> = {}): Schedule {
  return {
    id: 1,
    entityId: 2,
    cadence: 'monthly',
    interval: 1,
    dayOfMonth: 1,
    firstDate: '2026-12-01',
    endDate: null,
    count: null,
    amount: 1250,
    amountMode: 'fixed',
    averageOf: null,
    estimate: 1250,
    flow: 'OUTGOING',
    description: 'Rent',
    dueDays: 0,
    autopay: null,
    paused: false,
    nextDate: '2026-12-01',
    createdCount: 0,
    createdAt: '2026-11-01T10:00:00',
    ...overrides,
  };
}

describe('the schedule dialog', () => {
  it('Day of month follows the first invoice date until the user picks a day', () => {
    let values = emptyScheduleForm('2026-11-25', false);
    expect(values.dayOfMonth).toBe('25');
    values = withFirstDate(values, '2026-12-01');
    expect(values.dayOfMonth).toBe('1');
    // Half typed: the day stays as it was.
    values = withFirstDate(values, '2026-12-3');
    expect(values.dayOfMonth).toBe('1');
    values = withFirstDate(values, '2026-12-31');
    expect(values.dayOfMonth).toBe('31');
    values = withDayOfMonth(values, '15');
    values = withFirstDate(values, '2027-01-04');
    expect(values.dayOfMonth).toBe('15');
    // Picking the first date's own day again makes it follow once more.
    values = withDayOfMonth(values, '4');
    expect(withFirstDate(values, '2027-02-09').dayOfMonth).toBe('9');
  });

  it('an edited schedule follows its first date only when its day is that date’s', () => {
    expect(withFirstDate(scheduleFormFromSchedule(schedule()), '2026-12-05').dayOfMonth).toBe('5');
    expect(withFirstDate(scheduleFormFromSchedule(schedule({ dayOfMonth: 28 })), '2026-12-05').dayOfMonth).toBe('28');
  });

  const invoice = (date: string, more: Partial<PreviewInvoice> = {}): PreviewInvoice => ({
    date,
    dueDate: date,
    amount: 1250,
    description: 'Rent',
    autopay: false,
    duplicateOf: null,
    ...more,
  });

  it('asks before creating past invoices: how many, how many paid automatically', () => {
    const today = '2026-11-25';
    expect(catchUpQuestion({ invoices: [] }, today)).toBeNull();
    // Only today's invoice, and no duplicate: nothing to ask.
    expect(catchUpQuestion({ invoices: [invoice(today)] }, today)).toBeNull();
    const past = [invoice('2026-09-01', { autopay: true }), invoice('2026-10-01', { autopay: true })];
    expect(catchUpQuestion({ invoices: [...past, invoice('2026-11-01')] }, today)).toEqual({
      lines: [
        'This creates 3 invoices at once, dated 2026-09-01 to 2026-11-01.',
        '2 of them are also paid automatically at once: their due dates have passed.',
      ],
      duplicates: 0,
      created: 3,
    });
    expect(catchUpQuestion({ invoices: [invoice('2026-11-01', { autopay: true })] }, today)?.lines).toEqual([
      'This creates 1 invoice at once, dated 2026-11-01.',
      'It is also paid automatically at once: its due date has passed.',
    ]);
  });

  it('names the invoices that exist already, also for today’s', () => {
    const today = '2026-11-25';
    const past = [
      invoice('2026-09-01', { autopay: true }),
      invoice('2026-10-01', { autopay: true, duplicateOf: { entryId: 4, invoiceId: 1 } }),
      invoice('2026-11-01', { autopay: true, duplicateOf: { entryId: 5, invoiceId: 2 } }),
    ];
    expect(catchUpQuestion({ invoices: past }, today)?.lines).toEqual([
      'This creates 3 invoices at once, dated 2026-09-01 to 2026-11-01.',
      'All of them are also paid automatically at once: their due dates have passed.',
      'This entity already has invoices of the same date and amount: 2026-10-01 (#1), 2026-11-01 (#2).',
      "Skip existing keeps them as the schedule's own, never paid automatically, and creates the other 1 invoice.",
    ]);
    const duplicate = invoice(today, { duplicateOf: { entryId: 40, invoiceId: 17 } });
    expect(catchUpQuestion({ invoices: [duplicate] }, today)).toEqual({
      lines: [
        'This creates 1 invoice at once, dated 2026-11-25.',
        'This entity already has an invoice of the same date and amount: 2026-11-25 (#17).',
        "Skip existing keeps it as the schedule's own, never paid automatically, and creates nothing else.",
      ],
      duplicates: 1,
      created: 1,
    });
  });
});
