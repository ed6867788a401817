import { describe, expect, it } from 'vitest';
import { daysAgoIso, formatTimestamp, toIsoDate } from '../src/lib/dates.ts';
import { roleLabel } from '../src/lib/format.ts';

describe('dates', () => {
  it('reads API timestamps as UTC and shows them in the local zone', () => {
    const expected = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date(Date.UTC(2026, 10, 22, 10, 4, 5)),
    );
    expect(formatTimestamp('2026-11-22T10:04:05')).toBe(expected);
    expect(formatTimestamp(null)).toBe('—');
    expect(formatTimestamp('garbage')).toBe('—');
  });

  it('writes local calendar dates as YYYY-MM-DD', () => {
    expect(toIsoDate(new Date(2026, 0, 5))).toBe('2026-01-05');
    expect(daysAgoIso(30, new Date(2026, 2, 1))).toBe('2026-01-30');
  });
});

describe('labels', () => {
  it('shows roles as Admin and User', () => {
    expect(roleLabel('ROLE_ADMIN')).toBe('Admin');
    expect(roleLabel('ROLE_USER')).toBe('User');
  });
});
