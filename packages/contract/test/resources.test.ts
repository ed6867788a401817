import { describe, expect, it } from 'vitest';
import { createBillBody } from '../src/bills.ts';
import { createEntryBody, entriesQuery, flowIn } from '../src/entries.ts';
import { createPaymentBody, updatePaymentBody } from '../src/payments.ts';
import { id, moneyIn, moneyParam, nameText, text } from '../src/primitives.ts';

describe('money in', () => {
  it('accepts the maximum and turns it into cents', () => {
    expect(moneyIn.parse(999999999.99)).toBe(99_999_999_999);
    expect(moneyIn.parse(0.5)).toBe(50);
  });
  it('takes decimal text only in a query string', () => {
    expect(moneyParam.parse('0.5')).toBe(50);
  });
  it.each([1000000000, 1.001, -0.01, 'x', '0.5', '1e2', null])('refuses %j', (v) =>
    expect(moneyIn.safeParse(v).success).toBe(false),
  );
});

describe('ids', () => {
  it('accepts positive integers and their text', () => {
    expect(id.parse(5)).toBe(5);
    expect(id.parse('42')).toBe(42);
  });
  it.each([0, -1, 1.5, 'abc', '0', '', '1e3', null])('refuses %j', (v) => expect(id.safeParse(v).success).toBe(false));
});

describe('text', () => {
  it('trims and bounds', () => {
    expect(text(5).parse('  abc  ')).toBe('abc');
    expect(text(5).safeParse('abcdef').success).toBe(false);
  });
  it('names the character a name may not hold, and composes it', () => {
    expect(nameText(50).parse(' Cafe\u0301 ')).toBe('Caf\u00e9');
    expect(nameText(50).safeParse('a\u200Db').error?.issues[0]?.message).toBe(
      'must not contain U+200D, an invisible character that makes names look alike',
    );
    expect(text(50).parse('a\u200Db')).toBe('a\u200Db');
  });
  it('allows newline and tab, refuses other control characters', () => {
    expect(text(50).parse('a\nb\tc')).toBe('a\nb\tc');
    expect(text(50).safeParse('a\u0000b').success).toBe(false);
    expect(text(50).safeParse('a\u001bb').success).toBe(false);
  });
});

describe('flow', () => {
  it.each([
    ['income', 'INCOMING'],
    ['Expense', 'OUTGOING'],
    ['internal', 'OUTGOING'],
    ['INCOMING', 'INCOMING'],
    ['outgoing', 'OUTGOING'],
  ])('%s → %s', (input, out) => expect(flowIn.parse(input)).toBe(out));
  it('refuses others', () => expect(flowIn.safeParse('sideways').success).toBe(false));
});

describe('bodies', () => {
  it('ignores server-owned fields (no mass assignment)', () => {
    const parsed = createEntryBody.parse({
      billId: 1,
      date: '2026-01-01',
      flow: 'income',
      amount: 10,
      invoiceId: 99,
      userId: 7,
      balance: { totalBalance: 0 },
    });
    expect(parsed).toEqual({ billId: 1, date: '2026-01-01', flow: 'INCOMING', amount: 1000, services: '' });
  });
  it('entity name is required after trimming', () => {
    const result = createBillBody.safeParse({ name: '   ' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Entity name cannot be empty.');
  });
  it('payment method must be one of the 12 codes, any case', () => {
    const base = { entryId: 1, date: '2026-01-01', amount: 5 };
    expect(createPaymentBody.parse({ ...base, type: ' CREDIT ', medium: 'Web' })).toMatchObject({
      type: 'credit',
      medium: 'web',
      autopay: false,
    });
    expect(createPaymentBody.safeParse({ ...base, type: 'credit', medium: 'phone' }).success).toBe(false);
    expect(updatePaymentBody.safeParse({ paymentId: 1, type: 'credit' }).success).toBe(false);
    expect(updatePaymentBody.safeParse({ id: 3, recycle: true }).success).toBe(true);
  });
});

describe('list query', () => {
  it('maps aliases and repeated keys', () => {
    const q = entriesQuery.parse({ sortField: 'paid', partyList: 'Acme', categoryList: ['A', 'B'], pageNum: '2' });
    expect(q).toMatchObject({ sortField: 'status', partyList: ['Acme'], categoryList: ['A', 'B'], pageNum: 2 });
  });
  it.each([
    { pageSize: '101' },
    { pageSize: '0' },
    { pageNum: '-1' },
    { sortField: 'password' },
    { sortOrder: 'up' },
    { paid: 'maybe' },
    { archives: 'only' },
    { startDate: '2026-13-01' },
    { min: 'ten' },
    { startDate: '2026-02-01', endDate: '2026-01-01' },
    { min: '10', max: '5' },
  ])('refuses %j', (q) => expect(entriesQuery.safeParse(q).success).toBe(false));
  it('treats empty values as absent', () => {
    expect(entriesQuery.parse({ invoiceNum: '', min: '' })).toEqual({});
  });
});
