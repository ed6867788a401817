import { describe, expect, it } from 'vitest';
import { isValidIsoDate, parseApiTimestamp, toApiTimestamp } from '../src/dates.ts';
import {
  isStrongPassword,
  isValidAmountInput,
  isValidEmail,
  MESSAGES,
  validateAmountRange,
  validateDateRange,
  validateEmailChange,
  validateNewAccount,
  validateNewPassword,
  validatePasswordChange,
} from '../src/validation.ts';

const account = { username: 'alice', email: 'alice@example.com', password: 'Str0ng!pw', confirmPassword: 'Str0ng!pw' };

describe('account creation rules, in the documented order', () => {
  it('passes a valid account', () => expect(validateNewAccount(account)).toBeNull());
  it('needs every field', () => {
    for (const field of Object.keys(account)) {
      expect(validateNewAccount({ ...account, [field]: '' })).toBe(MESSAGES.allFieldsRequired);
    }
  });
  it('checks the email before the passwords', () => {
    expect(validateNewAccount({ ...account, email: 'nope', confirmPassword: 'x' })).toBe(MESSAGES.invalidEmail);
  });
  it('checks matching before strength', () => {
    expect(validateNewAccount({ ...account, password: 'weak', confirmPassword: 'weaker' })).toBe(
      MESSAGES.passwordsDoNotMatch,
    );
    expect(validateNewAccount({ ...account, password: 'weak', confirmPassword: 'weak' })).toBe(MESSAGES.weakPassword);
  });
  it('uses the exact messages', () => {
    expect(MESSAGES.weakPassword).toBe(
      'Password must be at least 8 characters, include uppercase, lowercase, a number, and a special character.',
    );
    expect(MESSAGES.allFieldsRequired).toBe('All fields are required.');
    expect(MESSAGES.invalidEmail).toBe('Please enter a valid email address.');
    expect(MESSAGES.passwordsDoNotMatch).toBe('Passwords do not match.');
  });
});

describe('password strength', () => {
  it.each(['Abcdef1!', 'xY9_aaaa', 'Pass-w0rd', 'ÄbcdeF1@'])('accepts %s', (pw) =>
    expect(isStrongPassword(pw)).toBe(true),
  );
  it.each([
    ['Abcde1!', 'too short'],
    ['abcdef1!', 'no uppercase'],
    ['ABCDEF1!', 'no lowercase'],
    ['Abcdefg!', 'no digit'],
    ['Abcdefg1', 'no special'],
    ['Abcdefg1^', 'special outside the set'],
    [`Aa1!${'x'.repeat(200)}`, 'longer than 128'],
  ])('refuses %s (%s)', (pw) => expect(isStrongPassword(pw)).toBe(false));
});

describe('email', () => {
  it.each(['a@b.co', 'first.last+tag@example.org'])('accepts %s', (e) => expect(isValidEmail(e)).toBe(true));
  it.each(['', 'plain', 'a@b', '@b.co', 'a b@c.de', 'a@b c.de'])('refuses %j', (e) =>
    expect(isValidEmail(e)).toBe(false),
  );
});

describe('amount input', () => {
  it.each(['', '0', '1.', '12.5', '999999999.99', '123456789'])('accepts %j', (t) =>
    expect(isValidAmountInput(t)).toBe(true),
  );
  it.each(['1000000000', '1.234', '-1', 'abc', '1,5', '12..3'])('refuses %j', (t) =>
    expect(isValidAmountInput(t)).toBe(false),
  );
});

describe('account changes', () => {
  it('password change: all fields, matching, strength', () => {
    expect(validatePasswordChange({ currentPassword: '', newPassword: 'a', confirmPassword: 'a' })).toBe(
      'All fields required.',
    );
    expect(
      validatePasswordChange({ currentPassword: 'x', newPassword: 'Str0ng!pw', confirmPassword: 'Str0ng!px' }),
    ).toBe(MESSAGES.passwordsDoNotMatch);
    expect(validatePasswordChange({ currentPassword: 'x', newPassword: 'weak', confirmPassword: 'weak' })).toBe(
      MESSAGES.weakPassword,
    );
    expect(
      validatePasswordChange({ currentPassword: 'x', newPassword: 'Str0ng!pw', confirmPassword: 'Str0ng!pw' }),
    ).toBeNull();
  });
  it('a new password by a link: both fields, matching, strength', () => {
    expect(validateNewPassword({ newPassword: '', confirmPassword: 'Str0ng!pw' })).toBe('All fields required.');
    expect(validateNewPassword({ newPassword: 'Str0ng!pw', confirmPassword: 'Str0ng!px' })).toBe(
      MESSAGES.passwordsDoNotMatch,
    );
    expect(validateNewPassword({ newPassword: 'weak', confirmPassword: 'weak' })).toBe(MESSAGES.weakPassword);
    expect(validateNewPassword({ newPassword: 'Str0ng!pw', confirmPassword: 'Str0ng!pw' })).toBeNull();
  });
  it('email change: format then password', () => {
    expect(validateEmailChange({ newEmail: 'bad', password: '' })).toBe(MESSAGES.invalidEmail);
    expect(validateEmailChange({ newEmail: 'a@b.co', password: '' })).toBe('Password required.');
    expect(validateEmailChange({ newEmail: 'a@b.co', password: 'x' })).toBeNull();
  });
});

describe('filter ranges', () => {
  it('Min above Max is an error unless Max is empty or below 1', () => {
    expect(validateAmountRange(10, 5)).toBe('Min must be less than or equal to Max.');
    expect(validateAmountRange(10, 0)).toBeNull();
    expect(validateAmountRange(10, 0.5)).toBeNull();
    expect(validateAmountRange(5, 10)).toBeNull();
    expect(validateAmountRange(null, 10)).toBeNull();
  });
  it('start after end is an error', () => {
    expect(validateDateRange('2026-02-01', '2026-01-01')).toBe('Start date must not exceed end date.');
    expect(validateDateRange('2026-01-01', '2026-01-01')).toBeNull();
    expect(validateDateRange('2026-01-01', null)).toBeNull();
  });
});

describe('dates', () => {
  it.each(['1900-01-01', '2099-12-31', '2024-02-29'])('accepts %s', (d) => expect(isValidIsoDate(d)).toBe(true));
  it.each(['1899-12-31', '2100-01-01', '2023-02-29', '2024-13-01', '2024-1-1', '20240101', ''])('refuses %j', (d) =>
    expect(isValidIsoDate(d)).toBe(false),
  );
  it('writes and reads offset-less UTC timestamps', () => {
    const at = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
    expect(toApiTimestamp(at)).toBe('2026-01-02T03:04:05');
    expect(parseApiTimestamp('2026-01-02T03:04:05').getTime()).toBe(at.getTime());
    expect(parseApiTimestamp('2026-01-02T03:04:05Z').getTime()).toBe(at.getTime());
  });
});
