/**
 * The app's one way to talk to the server. Every call carries the bearer token when there is one; a 401
 * triggers one token refresh (shared by every call that hit the 401 at the same time) and one retry; a failed
 * refresh ends the session, and the route guard then shows `/` with a notice that says so. Feature code uses the
 * per-call files in `src/api/<noun>/`, which all end in `attempt` (`outcome.ts`): a typed outcome, never a throw.
 */
import type { AuthResponse } from '@billfold/contract/auth';
import { type ErrorCode, isErrorCode } from '@billfold/contract/error-codes';
import { LEDGER_HEADER } from '@billfold/contract/ledger-basics';
import type { ErrorResponse } from '@billfold/contract/primitives';
import { ledgerHeaderValue, reportLedgerDoubt } from '../lib/ledger-choice.ts';
import { clearSession, readSession, renewedSince, renewOnce, type Session, saveSession } from '../lib/session.ts';

export const API_PREFIX = '/api/v1';

let origin = '';
/** Where the server lives; the app is served by it, so only tests set this. */
export function configureClient(options: { origin: string }): void {
  origin = options.origin.replace(/\/$/, '');
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Scalar = string | number | boolean;
export type QueryValue = Scalar | null | undefined | readonly (Scalar | null | undefined)[];
export type QueryParams = Record<string, QueryValue>;

/** `?a=1&list=x&list=y`: arrays repeat their key, null and undefined are left out (docs/api/README.md, General). */
export function toQueryString(params: QueryParams | undefined): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) if (item !== null && item !== undefined) search.append(key, String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * What happened to one HTTP exchange, in the stage where it ended: the request failed before any response
 * (`request`), the response started but its body could not be read (`body`), or a whole response arrived.
 */
export type Observation =
  | { stage: 'request'; error: unknown }
  | { stage: 'body'; status: number; error: unknown }
  | { stage: 'response'; status: number; ok: boolean; text: string };

export interface ExchangeOptions {
  query?: QueryParams;
  body?: unknown;
  token?: string | null;
  /** The `Billfold-Ledger` value: the ledger the call works in; none for the personal ledger (docs/decisions/0107-ledgers.md). */
  ledger?: string | null;
  signal?: AbortSignal;
}

/** The app's only `fetch`: one request, never throws, reports where it ended. */
export async function exchange(method: Method, path: string, options: ExchangeOptions = {}): Promise<Observation> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.ledger) headers[LEDGER_HEADER] = options.ledger;
  // A FormData body (file uploads) sets its own multipart content type, a Blob (a file sent as it is, the ledger
  // file) travels as its bytes; anything else travels as JSON.
  const form = options.body instanceof FormData;
  const blob = options.body instanceof Blob;
  if (blob) headers['content-type'] = (options.body as Blob).type || 'application/octet-stream';
  else if (options.body !== undefined && !form) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`${origin}${API_PREFIX}${path}${toQueryString(options.query)}`, {
      method,
      headers,
      body:
        options.body === undefined
          ? null
          : form || blob
            ? (options.body as FormData | Blob)
            : JSON.stringify(options.body),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    return { stage: 'request', error };
  }
  try {
    return { stage: 'response', status: response.status, ok: response.ok, text: await response.text() };
  } catch (error) {
    return { stage: 'body', status: response.status, error };
  }
}

/**
 * A call that did not succeed; `message` is the server's own when it sent one, `code` its machine code (API Rev 3,
 * contract error-codes.ts), which is what code branches on: never the message text.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly serverMessage: string | null = null,
    readonly code: ErrorCode | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The `code` of the server's error body, if `text` is one and its code is one the contract knows. */
export function errorCode(text: string): ErrorCode | null {
  try {
    const body = JSON.parse(text) as Partial<ErrorResponse> | null;
    return body && isErrorCode(body.code) ? body.code : null;
  } catch {
    // not JSON (a proxy's page): no code
  }
  return null;
}

/** The `message` of the server's `{statusCode, error, message}` body, if that is what `text` holds. */
export function serverMessage(text: string): string | null {
  try {
    const body = JSON.parse(text) as Partial<ErrorResponse> | null;
    if (body && typeof body.message === 'string' && body.message) return body.message;
    if (body && typeof body.error === 'string' && body.error) return body.error;
  } catch {
    // not JSON: no server message
  }
  return null;
}

// ---------- session: refresh and sign-out ----------

/** Ends the session because the user logged out: tokens and every saved view setting go, in every tab sharing it. */
export function signOut(): void {
  clearSession('loggedOut');
}

/** Ends the session because it could not be renewed; the login page then says so and offers the way back. */
export function endSession(): void {
  clearSession('ended');
}

let refreshing: Promise<boolean> | null = null;

/**
 * Exchanges the stored refresh token for new tokens, because those of `seen` (the session as the caller used it)
 * were found expired or refused. Calls made while a refresh is running share it: one refresh per tab, whatever the
 * number of calls that hit a 401, and one among the tabs of the session (`renewOnce`): the server tolerates repeats
 * only briefly.
 */
export function refreshSession(seen: Session | null): Promise<boolean> {
  if (seen === null) return Promise.resolve(false);
  refreshing ??= renewOnce(seen, runRefresh).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

async function runRefresh(): Promise<boolean> {
  const before = readSession();
  const refreshToken = before?.refreshToken;
  if (!before || !refreshToken) return false;
  const result = await exchange('POST', '/auth/refresh', { body: { refreshToken } });
  if (result.stage !== 'response' || !result.ok) {
    if (renewedSince(before)) return true;
    console.error('[api] token refresh failed', result);
    return false;
  }
  try {
    const tokens = JSON.parse(result.text) as Partial<AuthResponse>;
    if (typeof tokens.accessToken !== 'string' || typeof tokens.refreshToken !== 'string') return false;
    const now = readSession();
    // The user may have signed out (or in as someone else) while the refresh was on its way.
    if (now === null || now.sessionId !== before.sessionId) return false;
    // Another tab of this session refreshed too and its tokens arrived first: both pairs are good, keep those.
    if (now.refreshToken !== refreshToken) return true;
    saveSession({
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      ...(tokens.username ? { username: tokens.username } : {}),
    });
    return true;
  } catch (error) {
    console.error('[api] token refresh returned an unreadable body', error);
    return false;
  }
}

/**
 * Sends a call with the session's access token. On a 401 it refreshes once (shared with every call that hit a 401
 * meanwhile) and retries once; if the refresh fails, or the retry is refused too, the session has ended.
 */
export async function sendWithSession(send: (token: string | null) => Promise<Observation>): Promise<Observation> {
  const used = readSession();
  const result = await send(used?.accessToken ?? null);
  if (result.stage !== 'response' || result.status !== 401 || !readSession()?.refreshToken) return result;
  // Another call (or tab) may have refreshed since this one left; then its new token is used without a refresh.
  const renewed = used === null || (await refreshSession(used));
  if (!renewed) {
    endSession();
    throw new ApiError(401, 'Session expired');
  }
  const retried = await send(readSession()?.accessToken ?? null);
  if (retried.stage === 'response' && retried.status === 401) endSession();
  return retried;
}

// ---------- requests ----------

export interface RequestOptions {
  query?: QueryParams;
  body?: unknown;
  /** Send the bearer token and refresh on 401 (default true; false for `/auth/*`). */
  auth?: boolean;
  signal?: AbortSignal;
  /** Read the answer as text (a CSV download) rather than JSON. */
  text?: boolean;
  /**
   * Send the tab's ledger in `Billfold-Ledger` (default true). False for the calls about the user rather than
   * one ledger's data (the ledger list, members, invitations), which must still answer once the chosen ledger
   * is gone.
   */
  ledger?: boolean;
}

/**
 * Whether a refusal of a call made in a chosen ledger may mean the caller's place in it changed under the open
 * tab: 404 (a ledger they were removed from, or that was deleted, answers like a missing item) or a 403 of the
 * ledger's roles. Any of them makes the app read the ledger list again (docs/decisions/0303-web-ledgers.md).
 */
export function isLedgerDoubt(status: number, code: ErrorCode | null): boolean {
  return status === 404 || code === 'LEDGER_READ_ONLY' || code === 'LEDGER_OWNER_ONLY';
}

/** Reports a refused call made in the chosen ledger `ledger` when the refusal puts the tab's place in it in doubt. */
export function checkLedgerRefusal(ledger: string | null, status: number, text: string): void {
  if (ledger && isLedgerDoubt(status, errorCode(text))) reportLedgerDoubt();
}

/**
 * One call with the session: bearer token, one refresh and one retry on 401. Resolves with the parsed JSON
 * body (undefined when empty), or the text when asked; rejects with `ApiError` for a non-OK response, or the
 * network error. Fetchers do not call it directly: they go through `attempt` (`outcome.ts`).
 */
export async function apiRequest<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  const auth = options.auth ?? true;
  // Read once: a retry after a token refresh asks the same ledger, even if the tab switched meanwhile.
  const ledger = auth && (options.ledger ?? true) ? ledgerHeaderValue() : null;
  const send = (token: string | null) =>
    exchange(method, path, {
      ...(options.query ? { query: options.query } : {}),
      ...(options.body !== undefined ? { body: options.body } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      token,
      ledger,
    });
  const result = auth ? await sendWithSession(send) : await send(null);
  if (result.stage === 'response' && !result.ok) checkLedgerRefusal(ledger, result.status, result.text);
  return readResult<T>(method, path, result, options.text ?? false);
}

function readResult<T>(method: Method, path: string, result: Observation, text: boolean): T {
  if (result.stage !== 'response') throw result.error;
  if (!result.ok) {
    const message = serverMessage(result.text);
    throw new ApiError(
      result.status,
      message ?? `${method} ${path} failed with ${result.status}`,
      message,
      errorCode(result.text),
    );
  }
  if (text) return result.text as T;
  if (result.text === '') return undefined as T;
  try {
    return JSON.parse(result.text) as T;
  } catch {
    throw new ApiError(result.status, `${method} ${path} returned a body that is not JSON`);
  }
}
