import { describe, expect, it } from 'vitest';
import { dateFieldProblem } from '../src/lib/date-field.ts';

describe('date field problems', () => {
  it('names a half-typed or impossible date, and one outside 1900-01-01..2099-12-31', () => {
    expect(dateFieldProblem(null)).toBeNull();
    expect(dateFieldProblem('invalidDate')).toBe('Enter a whole date that exists, as YYYY-MM-DD.');
    expect(dateFieldProblem('minDate')).toBe('Enter a date from 1900-01-01 to 2099-12-31.');
    expect(dateFieldProblem('maxDate')).toBe('Enter a date from 1900-01-01 to 2099-12-31.');
  });
});
