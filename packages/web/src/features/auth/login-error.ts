import type { LoginFailure } from '../../api/auth/login.ts';
import { errorCode, type Observation, serverMessage } from '../../api/client.ts';

/** The login messages, verbatim (docs/product.md, Messages). */
export const LOGIN_ERRORS = {
  unavailable: 'Service Currently Unavailable. Please try again later.',
  connectionReset: 'Connection Reset. Please try again later.',
  unauthorized: 'Unauthorized: Invalid username or password.',
  unknown: 'Login failed for an unknown reason.',
  unexpectedResponse: 'Login failed due to an unexpected server response. Please try again later.',
  unexpectedError: 'Login failed due to an unexpected error. Please try again later.',
  noErrorText: 'Login failed. Please check your credentials and try again.',
} as const;

/** A throttled login whose answer carried no message of its own (the server's says when to retry). */
export const THROTTLED_FALLBACK = 'Too many sign-in attempts. Please try again later.';

const REFUSED = /ECONNREFUSED|ERR_CONNECTION_REFUSED|connection refused/i;
const RESET = /ECONNRESET|ERR_CONNECTION_RESET|connection reset|socket hang up/i;
/** A gateway (reverse proxy, dev server) answers these when it cannot reach the app server. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

/** Every piece of text an error carries: name, message, code, and the same for its causes. */
export function errorText(error: unknown, depth = 0): string {
  if (error === null || error === undefined || depth > 4) return '';
  if (typeof error !== 'object') return String(error);
  const parts: string[] = [];
  for (const field of ['name', 'message', 'code'] as const) {
    const value = (error as Record<string, unknown>)[field];
    if (typeof value === 'string' || typeof value === 'number') parts.push(String(value));
  }
  parts.push(errorText((error as { cause?: unknown }).cause, depth + 1));
  return parts.filter(Boolean).join(' ');
}

/** The error text of a non-OK response: the server's `message` (or `error`), else the body itself. */
export function responseErrorText(text: string): string {
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object') {
      const { message, error } = body as { message?: unknown; error?: unknown };
      if (typeof message === 'string' && message.trim()) return message.trim();
      if (typeof error === 'string' && error.trim()) return error.trim();
      return '';
    }
  } catch {
    // not JSON: the body is the error text (a proxy's plain-text or HTML error page)
  }
  return text.trim();
}

function fromMarkers(text: string): string | null {
  if (REFUSED.test(text)) return LOGIN_ERRORS.unavailable;
  if (RESET.test(text)) return LOGIN_ERRORS.connectionReset;
  return null;
}

function fromResponse(observation: Extract<Observation, { stage: 'response' }>): string {
  // An OK status is only a failure when its body was not the JSON tokens the app expects.
  if (observation.ok) return LOGIN_ERRORS.unexpectedResponse;
  // Our server names every failure with a code (API Rev 3): that, not the status or the wording, says what it was.
  switch (errorCode(observation.text)) {
    case 'INVALID_CREDENTIALS':
      return LOGIN_ERRORS.unauthorized;
    // Throttled: the server's own message says why and when to try again (decision 0705).
    case 'SIGN_IN_THROTTLED':
    case 'TOO_MANY_REQUESTS':
      return serverMessage(observation.text) ?? THROTTLED_FALLBACK;
    case 'SERVICE_UNAVAILABLE':
      return LOGIN_ERRORS.unavailable;
    case null:
      break;
    default:
      return serverMessage(observation.text) ? LOGIN_ERRORS.unknown : LOGIN_ERRORS.noErrorText;
  }
  // No code: not our server's answer (a proxy or gateway in front of it), read by status and text.
  const text = responseErrorText(observation.text);
  const marked = fromMarkers(text);
  if (marked) return marked;
  if (GATEWAY_STATUSES.has(observation.status)) return LOGIN_ERRORS.unavailable;
  // A proxy's own 429 page (HTML) is not shown.
  if (observation.status === 429) return serverMessage(observation.text) ?? THROTTLED_FALLBACK;
  if (observation.status === 401 || /unauthorized|401/i.test(text)) return LOGIN_ERRORS.unauthorized;
  if (!text) return LOGIN_ERRORS.noErrorText;
  return LOGIN_ERRORS.unknown;
}

/**
 * The message for a failed login, named after what actually failed (decision 0301):
 * - no HTTP response at all while online: the server could not be reached (`fetch` rejects with a bare
 *   `TypeError` in browsers; in Node its cause says ECONNREFUSED or ECONNRESET);
 * - the response started but its body broke off: the connection was reset;
 * - offline, or any other exception: an unexpected (network) error;
 * - a response: by its status and error text (see `fromResponse`).
 */
export function loginErrorMessage({ observation, online }: LoginFailure): string {
  switch (observation.stage) {
    case 'response':
      return fromResponse(observation);
    case 'body': {
      if (!online) return LOGIN_ERRORS.unexpectedError;
      return REFUSED.test(errorText(observation.error)) ? LOGIN_ERRORS.unavailable : LOGIN_ERRORS.connectionReset;
    }
    case 'request': {
      const marked = fromMarkers(errorText(observation.error));
      if (marked) return marked;
      if (!online) return LOGIN_ERRORS.unexpectedError;
      if (observation.error instanceof TypeError) return LOGIN_ERRORS.unavailable;
      return LOGIN_ERRORS.unexpectedError;
    }
  }
}
