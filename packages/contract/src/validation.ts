/** The validation rules and exact messages of docs/product.md, Validation, shared by the browser forms and the server. */
export const MESSAGES = {
  allFieldsRequired: 'All fields are required.',
  invalidEmail: 'Please enter a valid email address.',
  passwordsDoNotMatch: 'Passwords do not match.',
  weakPassword:
    'Password must be at least 8 characters, include uppercase, lowercase, a number, and a special character.',
  accountCreationFailed: 'Account creation failed.',
  passwordRequired: 'Password required.',
  allFieldsRequiredShort: 'All fields required.',
  paymentFieldsRequired: 'Please fill in all required fields.',
  entityNameEmpty: 'Entity name cannot be empty.',
  minAboveMax: 'Min must be less than or equal to Max.',
  startAfterEnd: 'Start date must not exceed end date.',
  invoiceNumberFromOne: 'Invoice numbers start at 1.',
  invalidDate: 'Enter a whole date that exists, as YYYY-MM-DD.',
  dateOutOfRange: 'Enter a date from 1900-01-01 to 2099-12-31.',
  invalidUsername: 'Username must be 3 to 50 letters, digits, dots, underscores or hyphens.',
  invalidAmount: 'Amount must be a number from 0 to 999999999.99 with at most 2 decimals.',
  invalidBalance: 'Balance must be a number from -999999999.99 to 999999999.99 with at most 2 decimals.',
  amountNotUnderstood: 'Not an amount: use digits with up to 2 decimals, at most 999,999,999.99.',
  amountNegative: 'Amounts cannot be negative: the minus sign was not taken. Enter a refund as an Income invoice.',
  amountNotNumber: 'Amount must be a JSON number such as 12.5, not text in quotes.',
  passwordTooLong: 'Password must be at most 128 characters.',
  dueBeforeDate: 'Due date must not be before the invoice date.',
} as const;

export const PASSWORD_SPECIALS = '@#$!%*?&_-';
export const PASSWORD_MAX_LENGTH = 128;

/** At least 8 characters with a lowercase letter, an uppercase letter, a digit and one of `@#$!%*?&_-`. */
export function isStrongPassword(password: string): boolean {
  return (
    password.length >= 8 &&
    password.length <= PASSWORD_MAX_LENGTH &&
    /[a-z]/.test(password) &&
    /[A-Z]/.test(password) &&
    /\d/.test(password) &&
    /[@#$!%*?&_-]/.test(password)
  );
}

/** Local part, `@`, domain with a dot; no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const EMAIL_MAX_LENGTH = 254;

export function isValidEmail(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(email);
}

export const USERNAME_PATTERN = /^[A-Za-z0-9._-]{3,50}$/;

/** Up to 9 integer digits and 2 decimals; also matches the partial input a user is still typing (`"12."`). */
export const AMOUNT_INPUT_PATTERN = /^\d{0,9}(\.\d{0,2})?$/;
export const AMOUNT_MAX_LENGTH = 12;

export function isValidAmountInput(text: string): boolean {
  return text.length <= AMOUNT_MAX_LENGTH && AMOUNT_INPUT_PATTERN.test(text);
}

/** Account-creation checks in the order docs/product.md, Validation gives; returns the first message or `null`. */
export function validateNewAccount(input: {
  username: string;
  email: string;
  password: string;
  confirmPassword: string;
}): string | null {
  if (!input.username || !input.email || !input.password || !input.confirmPassword) return MESSAGES.allFieldsRequired;
  if (!isValidEmail(input.email)) return MESSAGES.invalidEmail;
  if (input.password !== input.confirmPassword) return MESSAGES.passwordsDoNotMatch;
  if (!isStrongPassword(input.password)) return MESSAGES.weakPassword;
  return null;
}

/** Password-change checks in the order docs/product.md, Validation gives. */
export function validatePasswordChange(input: {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}): string | null {
  if (!input.currentPassword) return MESSAGES.allFieldsRequiredShort;
  return validateNewPassword(input);
}

/** A new password typed twice (a password change, a password link), in the order docs/product.md, Validation gives. */
export function validateNewPassword(input: { newPassword: string; confirmPassword: string }): string | null {
  if (!input.newPassword || !input.confirmPassword) return MESSAGES.allFieldsRequiredShort;
  if (input.newPassword !== input.confirmPassword) return MESSAGES.passwordsDoNotMatch;
  if (!isStrongPassword(input.newPassword)) return MESSAGES.weakPassword;
  return null;
}

/** Email-change checks in the order docs/product.md, Validation gives. */
export function validateEmailChange(input: { newEmail: string; password: string }): string | null {
  if (!isValidEmail(input.newEmail.trim())) return MESSAGES.invalidEmail;
  if (!input.password) return MESSAGES.passwordRequired;
  return null;
}

/** Filter-panel amount bounds: values below 1 count as empty. */
export function effectiveAmountBound(value: number | null | undefined): number | null {
  return value == null || Number.isNaN(value) || value < 1 ? null : value;
}

/** `Min must be less than or equal to Max.` when Min > Max and Max is set (not 0). */
export function validateAmountRange(min: number | null | undefined, max: number | null | undefined): string | null {
  const lo = effectiveAmountBound(min);
  const hi = effectiveAmountBound(max);
  return lo != null && hi != null && lo > hi ? MESSAGES.minAboveMax : null;
}

/** `Start date must not exceed end date.` when both are set and start is later (ISO dates compare as text). */
export function validateDateRange(start: string | null | undefined, end: string | null | undefined): string | null {
  return start && end && start > end ? MESSAGES.startAfterEnd : null;
}
