import { MESSAGES } from '@billfold/contract/validation';

/** What a date field says when what it shows is not a date the app can use; `null` when it is one (or empty). */
export function dateFieldProblem(validationError: string | null): string | null {
  if (validationError === null) return null;
  return validationError === 'minDate' || validationError === 'maxDate'
    ? MESSAGES.dateOutOfRange
    : MESSAGES.invalidDate;
}
