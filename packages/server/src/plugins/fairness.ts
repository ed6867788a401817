import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Limits } from '../config.ts';
import { tooManyRequests } from '../lib/http-error.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The `preParsing` hook of a group of heavy routes (CSV previews, imports and their undo, exports, ledger files,
     * stats, trends, deleting a ledger): a module adds it once to the scope that holds them. At most
     * `LIMIT_HEAVY_PER_USER` run at once per user.
     */
    heavyWork: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/** What a 429 BUSY asks the client to wait: heavy requests take seconds, not minutes. */
export const BUSY_RETRY_SECONDS = 5;
const WINDOW_MS = 60_000;

const count = (n: number) => n.toLocaleString('en-US');

/**
 * The request rate of each signed-in user (docs/decisions/0706-limits-and-fairness.md): at most
 * `LIMIT_REQUESTS_PER_MINUTE` a minute on this process, counted in its memory in fixed one-minute windows. It is
 * called by `authenticate` (plugins/auth.ts) the moment the user is known, so every authenticated request counts,
 * those answered from the list cache included. Requests without a user (health, sign-in, sign-up, refresh) are not
 * counted here: sign-in, sign-up and refresh have their own limits per address in the database (ADR 0704).
 * Real time, not the app's injected clock: a test that freezes the clock must not freeze the window.
 */
export function createRateLimit(limits: Limits): (userId: number) => void {
  const windows = new Map<number, { start: number; count: number }>();
  return (userId) => {
    if (limits.requestsPerMinute <= 0) return;
    const at = Date.now();
    let window = windows.get(userId);
    if (!window || at - window.start >= WINDOW_MS) {
      // Ended windows are dropped as they are found, so the map holds only users active this minute.
      if (windows.size > 10_000) for (const [id, w] of windows) if (at - w.start >= WINDOW_MS) windows.delete(id);
      window = { start: at, count: 0 };
      windows.set(userId, window);
    }
    window.count += 1;
    if (window.count > limits.requestsPerMinute) {
      const seconds = Math.max(1, Math.ceil((window.start + WINDOW_MS - at) / 1000));
      throw tooManyRequests(
        seconds,
        `Too many requests: at most ${count(limits.requestsPerMinute)} a minute per account. Try again in ${seconds} seconds.`,
        'RATE_LIMITED',
      );
    }
  };
}

/**
 * Heavy work per user (docs/decisions/0706-limits-and-fairness.md): `app.heavyWork`, the `preParsing` hook a module
 * adds once to the scope of its heavy routes. It runs after `authenticate` (a route's `onRequest`) has named the
 * user and before a byte of the body is read; at most `LIMIT_HEAVY_PER_USER` of one user's run at once on this
 * process, counted in its memory.
 */
export function registerHeavyWork(api: FastifyInstance, limits: Limits): void {
  const running = new Map<number, number>();

  api.decorate('heavyWork', async (request: FastifyRequest, reply: FastifyReply) => {
    const userId = request.userId;
    if (!userId) return;
    const busy = running.get(userId) ?? 0;
    if (busy >= limits.heavyPerUser) {
      throw tooManyRequests(
        BUSY_RETRY_SECONDS,
        `This account already runs ${count(limits.heavyPerUser)} heavy requests at once (imports, exports, statistics or deletions), the limit. Try again in ${BUSY_RETRY_SECONDS} seconds.`,
        'BUSY',
      );
    }
    running.set(userId, busy + 1);
    let released = false;
    // The slot is held until the answer has left or the connection closed, streamed answers included.
    const release = () => {
      if (released) return;
      released = true;
      const left = (running.get(userId) ?? 1) - 1;
      if (left > 0) running.set(userId, left);
      else running.delete(userId);
    };
    reply.raw.once('finish', release);
    reply.raw.once('close', release);
  });
}
