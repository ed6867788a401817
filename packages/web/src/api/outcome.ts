/**
 * The web client's one failure path (docs/decisions/1111-web-one-failure-path.md). Every fetcher in
 * `src/api/<noun>/` resolves to an `Outcome`: its data, or a failure that says whether the server refused the
 * call (`failed`, with the status and the server's message) or no usable answer came (`error`). Fetchers never
 * throw and never stand in an empty list or `null` for a failure; every failure goes to the console here, once.
 * The screen decides what a failure shows (docs/product.md, Calls and failures): an empty list, a notice, or
 * the message of docs/product.md, Messages, where a refusal reads `Failed to …` and no answer `Error …`.
 */
import type { ErrorCode } from '@billfold/contract/error-codes';
import { ApiError, apiRequest, type Method, type RequestOptions } from './client.ts';

export interface Failure {
  ok: false;
  /** `failed`: the server answered with an error status; `error`: no usable answer (network, exception). */
  reason: 'failed' | 'error';
  status: number | null;
  /** The server's own message, when it sent one. */
  message: string | null;
  /** The server's machine code for the failure (API Rev 3), when it sent one: what screens branch on. */
  code?: ErrorCode;
}

export type Outcome<T> = { ok: true; data: T } | Failure;

/** A call that did not succeed, logged to the console, as a `Failure`. */
export function failure(method: Method, path: string, error: unknown): Failure {
  console.error(`[api] ${method} ${path} failed`, error);
  if (error instanceof ApiError)
    return {
      ok: false,
      reason: 'failed',
      status: error.status,
      message: error.serverMessage,
      ...(error.code ? { code: error.code } : {}),
    };
  return { ok: false, reason: 'error', status: null, message: null };
}

/** Waits for `call` (one exchange with the server) and reports how it ended; never throws. */
export async function settle<T>(method: Method, path: string, call: Promise<T>, signal?: AbortSignal) {
  try {
    return { ok: true, data: await call } as Outcome<T>;
  } catch (error) {
    // A call the screen cancelled (it moved on) is no failure to report.
    if (signal?.aborted) return { ok: false, reason: 'error', status: null, message: null } as Outcome<T>;
    return failure(method, path, error);
  }
}

/** One call with the session (bearer, refresh-and-retry): the path every fetcher takes. */
export function attempt<T>(method: Method, path: string, options: RequestOptions = {}): Promise<Outcome<T>> {
  return settle(method, path, apiRequest<T>(method, path, options), options.signal);
}

/**
 * For a query function, whose failure TanStack Query must see as an error: the data, or a thrown `ApiError`
 * carrying the failure. The screen then reads the query's `isError` and decides what to show.
 */
export function dataOf<T>(outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.data;
  throw new ApiError(outcome.status ?? 0, outcome.message ?? 'The call failed', outcome.message, outcome.code ?? null);
}

/**
 * For a read of one item: the item, `null` when the server says there is no such item (404, or 400 for an id
 * that cannot exist), and a thrown error for every other failure, so the screen can tell "not found" from
 * "failed to load" (docs/product.md, Messages).
 */
export function itemOf<T>(outcome: Outcome<T>): T | null {
  if (!outcome.ok && isMissing(outcome)) return null;
  return dataOf(outcome) ?? null;
}

/** The server says there is no such item: NOT_FOUND, or an id that cannot exist (a malformed one). */
function isMissing(failure: Failure): boolean {
  if (failure.code) return ['NOT_FOUND', 'VALIDATION_FAILED', 'BAD_REQUEST', 'MALFORMED_URL'].includes(failure.code);
  return failure.status === 404 || failure.status === 400;
}

/** Why the server refused a request, in its own words: the message of a 4xx answer (a 5xx's says nothing useful). */
export function serverReason(failure: Failure): string | null {
  if (failure.reason !== 'failed' || failure.status === null || failure.status >= 500 || !failure.message) return null;
  return /[.!?]$/.test(failure.message) ? failure.message : `${failure.message}.`;
}

/**
 * The message for a failed write, `failed` when the server refused it and `error` otherwise, followed by the
 * server's reason when it gave one: `Failed to change password. Current password is incorrect.`
 */
export function failureMessage(failure: Failure, messages: { failed: string; error: string }): string {
  if (failure.reason === 'error') return messages.error;
  const reason = serverReason(failure);
  return reason ? `${messages.failed} ${reason}` : messages.failed;
}
