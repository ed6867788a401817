/**
 * Writes whose failure the screen must name precisely. Spec §8 tells a refusal by the server ("Failed to update
 * invoice.") from a call that never got an answer ("Error updating invoice."), so these calls report which one
 * happened instead of collapsing both into `null` as `send` does. Failures still go to the console (spec §7).
 */
import { ApiError, apiRequest, type Method, type QueryParams } from './client.ts';

export type Outcome<T> =
  | { ok: true; data: T }
  | {
      ok: false;
      /** `failed`: the server answered with an error status; `error`: no usable answer (network, exception). */
      reason: 'failed' | 'error';
      status: number | null;
      /** The server's own message, when it sent one. */
      message: string | null;
    };

export type Failure = Extract<Outcome<unknown>, { ok: false }>;

/** One call with the session (bearer, refresh-and-retry) that never throws. */
export async function attempt<T>(
  method: Method,
  path: string,
  options: { body?: unknown; query?: QueryParams } = {},
): Promise<Outcome<T>> {
  try {
    const data = await apiRequest<T>(method, path, options);
    return { ok: true, data };
  } catch (error) {
    console.error(`[api] ${method} ${path} failed`, error);
    if (error instanceof ApiError) {
      return { ok: false, reason: 'failed', status: error.status, message: error.serverMessage };
    }
    return { ok: false, reason: 'error', status: null, message: null };
  }
}

/** Why the server refused a request, in its own words: the message of a 4xx answer (a 5xx's says nothing useful). */
export function serverReason(failure: Failure): string | null {
  if (failure.reason !== 'failed' || failure.status === null || failure.status >= 500 || !failure.message) return null;
  return /[.!?]$/.test(failure.message) ? failure.message : `${failure.message}.`;
}

/**
 * The spec's message for a failed write, `failed` when the server refused it and `error` otherwise, followed by
 * the server's reason when it gave one: `Failed to change password. Current password is incorrect.`
 */
export function failureMessage(failure: Failure, messages: { failed: string; error: string }): string {
  if (failure.reason === 'error') return messages.error;
  const reason = serverReason(failure);
  return reason ? `${messages.failed} ${reason}` : messages.failed;
}

/**
 * A read of one item: the item, `null` when the server says there is no such item (404, or 400 for an id that
 * cannot exist), and a thrown error for every other failure, so the screen can say "not found" or "failed to
 * load" (spec §8) instead of treating both alike.
 */
export async function readOne<T>(path: string, query?: QueryParams): Promise<T | null> {
  const outcome = await attempt<T>('GET', path, query ? { query } : {});
  if (outcome.ok) return outcome.data ?? null;
  if (outcome.status === 404 || outcome.status === 400) return null;
  throw new Error(outcome.message ?? `GET ${path} failed`);
}

/** A read of a list that must not pass a failure off as an empty list: throws instead. */
export async function readList<T>(path: string, pick: (body: unknown) => T[] | null | undefined, query?: QueryParams) {
  const outcome = await attempt<unknown>('GET', path, query ? { query } : {});
  if (!outcome.ok) throw new Error(outcome.message ?? `GET ${path} failed`);
  return pick(outcome.data) ?? [];
}
