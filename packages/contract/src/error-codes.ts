/**
 * The machine codes every error body carries beside its message (`{statusCode, error, code, message}`).
 * Clients branch on `code`, never on the message text; messages stay free to improve. A code is UPPER_SNAKE and,
 * once published, never changes meaning. A failure without a more precise code carries its status's general
 * code (`defaultErrorCode`).
 */
export const ERROR_CODES = {
  // General codes, one per status, for failures that need no finer branching.
  BAD_REQUEST: 'The request is malformed or names something that cannot be done.',
  VALIDATION_FAILED: 'A field of the body, query or URL is missing or not valid; the message names each.',
  UNAUTHORIZED: 'No valid access token: refresh it or sign in again.',
  FORBIDDEN: 'Signed in, but not allowed to do this.',
  NOT_FOUND: 'No such item among the caller’s own (never reveals that another user’s exists).',
  CONFLICT: 'The item’s current state does not allow this change.',
  BODY_TOO_LARGE: 'The request body is larger than the route’s limit.',
  UNSUPPORTED_MEDIA_TYPE: 'The body is not of a type the route accepts.',
  TOO_MANY_REQUESTS: 'Too many requests: wait for the time `Retry-After` gives.',
  INTERNAL_ERROR: 'Something failed on the server; the request changed nothing it reports.',
  SERVICE_UNAVAILABLE: 'The server cannot answer now: wait for the time `Retry-After` gives.',
  // Precise codes.
  MALFORMED_JSON: 'The body is not valid UTF-8 JSON.',
  MALFORMED_URL: 'A path segment is badly encoded or too long.',
  FORBIDDEN_KEY: 'A JSON key or value that could reach an object prototype (`__proto__`, `constructor`).',
  INVALID_CREDENTIALS: 'Wrong username/email or password.',
  WRONG_PASSWORD: 'The current password given with an account change is wrong.',
  MFA_REQUIRED: 'The password was right; a two-factor code is needed to finish signing in.',
  INVALID_MFA_CODE: 'The two-factor or recovery code is wrong or already used.',
  MFA_CHALLENGE_EXPIRED: 'The sign-in’s two-factor step expired or was already used: sign in again with the password.',
  SIGN_IN_THROTTLED: 'Too many failed sign-ins for this account or address.',
  ACCOUNT_DEACTIVATED: 'The account is deactivated.',
  SESSION_ENDED: 'The refresh token is expired, revoked or reused: sign in again.',
  ITEM_READ_ONLY: 'The item is archived or recycled and cannot be changed.',
  INVALID_FILE: 'An uploaded file (CSV, account file) cannot be read or fails its checks.',
  TOO_MANY_COLUMNS: 'A CSV file has more columns than the limit.',
  FIELD_TOO_LONG: 'A CSV field or text value is longer than the limit.',
  TOO_MANY_ROWS: 'A file has more rows than the limit.',
  BUSY: 'Too much heavy work (imports, exports, files, large stats, ledger deletions) is already running for this user.',
  RATE_LIMITED: 'Too many requests from this user in the current window.',
  EMAIL_LINK_INVALID:
    'A verification link is unknown, expired, already used, or for an address the account no longer has.',
  RESET_LINK_INVALID: 'The link to choose a new password is unknown, expired, already used or replaced by a newer one.',
  MAIL_NOT_CONFIGURED: 'The server has no mail settings (SMTP_URL, MAIL_FROM), so it cannot send this.',
  CATEGORY_NAME_TAKEN:
    'A built-in category or another of the user’s own already has this name (case and spacing aside).',
  TOO_MANY_CATEGORIES: 'The user already has the most categories of their own allowed (retired ones count).',
  SCHEDULE_DUPLICATES:
    'A schedule save would create invoices beside existing ones of the same entity, date and amount: send `duplicates`.',
  LEDGER_READ_ONLY: 'The caller is a viewer of the ledger the request names: every write is refused.',
  LEDGER_OWNER_ONLY: 'Only an owner of the ledger may do this (members, invitations, rename, delete).',
  LAST_OWNER: 'The change would leave the ledger without an owner: make another member owner first.',
  PERSONAL_LEDGER: 'A personal ledger cannot be left or deleted (it goes with its account).',
  INVITATION_INVALID: 'The invitation link is unknown, expired, revoked or already used.',
  // API tokens and sign-in with an identity provider (docs/decisions/0721-api-tokens.md, 0722-openid-connect-sign-in.md).
  TOKEN_READ_ONLY: 'The API token has the `read` scope: only GET and HEAD calls are allowed with it.',
  TOKEN_NOT_ALLOWED: 'API tokens cannot do this (tokens, password, email, MFA, sign-in links): sign in instead.',
  TOO_MANY_TOKENS: 'The account already holds the most API tokens allowed: revoke one first.',
  PASSWORD_LOGIN_DISABLED: 'The server signs in through its identity provider only (`PASSWORD_LOGIN=false`).',
  OIDC_NOT_CONFIGURED: 'The server has no identity provider (`OIDC_ISSUER`).',
  OIDC_FAILED: 'The identity provider’s sign-in did not complete (refused, expired, or its answer failed the checks).',
  OIDC_NOT_LINKED: 'No account is linked to this identity provider account, and sign-up through it is off.',
  OIDC_ALREADY_LINKED: 'This identity provider account is linked to another account, or this account to another one.',
  OIDC_EMAIL_TAKEN:
    'Retired, never sent: it told that an address has an account; such a sign-up now ends as `OIDC_FAILED` (ADR 0722).',
  OIDC_EMAIL_INVALID:
    'Sign-up through the provider got an address the app would refuse at sign-up (not valid, too long, or hidden characters).',
  OIDC_LAST_SIGN_IN: 'Unlinking would leave the account no way to sign in (no password, or password sign-in is off).',
  SIGN_IN_TICKET_INVALID: 'The one-time ticket of a provider sign-in is unknown, expired or already used.',
  // Attachments (docs/decisions/1140-attachment-storage.md).
  ATTACHMENT_TYPE_NOT_ALLOWED:
    'An attached file is not a PDF, PNG, JPEG, WebP or HEIC file (told by its bytes, not its name).',
  ATTACHMENT_QUOTA_EXCEEDED: 'The ledger’s attachments would pass its storage quota (`LIMIT_LEDGER_ATTACHMENT_BYTES`).',
  // Ledger members and invitations (docs/decisions/0107-ledgers.md).
  INVITATIONS_THROTTLED:
    'Too many invitations made by this user, or invitation links tried by this user or address, in 15 minutes.',
  // Notifications (docs/decisions/1150-notification-outbox.md).
  CHANNEL_ADDRESS_REFUSED:
    'A notification channel’s address is a private, loopback or link-local one, which this server does not reach.',
  TOO_MANY_CHANNELS: 'The account already has the most notification channels allowed.',
  EMAIL_NOT_CONFIGURED: 'The server has no mail settings, so an email channel cannot send.',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export const errorCodes = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

const BY_STATUS: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'BODY_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
};

/** The general code of a status: what an error carries when nothing more precise was given. */
export function defaultErrorCode(statusCode: number): ErrorCode {
  return BY_STATUS[statusCode] ?? (statusCode >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST');
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}
