import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../lib/http-error.ts';

const helmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      // blob: the web app shows attachments' thumbnails from object URLs (they need the bearer token to fetch).
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      // MUI (emotion) injects style elements at run time.
      styleSrc: ["'self'", "'unsafe-inline'"],
      scriptSrc: ["'self'"],
      connectSrc: ["'self'"],
    },
  },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  crossOriginEmbedderPolicy: false,
} satisfies FastifyHelmetOptions;

/**
 * True when any string, key or value in `input` (walked without recursion: JSON may nest deeply) holds U+0000.
 * Bytes are not walked: a body kept raw (the account file, up to 128 MiB) is parsed and checked by its route, whose
 * schema refuses NUL in every text; walking it entry by entry (`Object.entries` of a Buffer) built an array of a pair
 * per byte, gigabytes that held the event loop for minutes (docs/decisions/0706-limits-and-fairness.md).
 */
export function holdsNul(input: unknown): boolean {
  const stack: unknown[] = [input];
  while (stack.length > 0) {
    const value = stack.pop();
    if (ArrayBuffer.isView(value)) continue;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\u0000')) return true;
        stack.push(item);
      }
    }
  }
  return false;
}

/**
 * Security headers on every response; API responses are not cached unless their route says how (the calendar
 * feed's `private, max-age=300`, docs/decisions/1002-calendar-feed.md): a route's own `Cache-Control` on a
 * success stands. U+0000 is refused in any query or body:
 * PostgreSQL text cannot hold it (a query carrying one fails in the driver), so both databases refuse it alike.
 */
export async function registerSecurity(app: FastifyInstance): Promise<void> {
  // helmet's middleware built once: @fastify/helmet builds it again for every request (its CSP parsed each time).
  app.addHook('onRequest', (request, reply, done) => rawHelmet(request.raw, reply.raw, done));
  app.addHook('onSend', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    // An error is never cached, whatever its route had set before failing.
    if (reply.statusCode >= 400 || !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
  app.addHook('preValidation', async (request) => {
    if (holdsNul(request.query) || holdsNul(request.body)) throw badRequest('Input must not contain NUL characters');
  });
}

type HelmetMiddleware = (req: IncomingMessage, res: ServerResponse, next: (err?: Error) => void) => void;
// helmet itself, as @fastify/helmet's own dependency: the same headers, set on a raw response.
const helmetFor = createRequire(import.meta.resolve('@fastify/helmet'))('helmet') as (
  options: typeof helmetOptions,
) => HelmetMiddleware;
const rawHelmet = helmetFor(helmetOptions);

/**
 * The same headers for the few replies Fastify sends without running any hook (a malformed or overlong URL,
 * answered from `frameworkErrors` before routing).
 */
export function setSecurityHeaders(req: IncomingMessage, res: ServerResponse): void {
  rawHelmet(req, res, () => {});
  res.setHeader('cache-control', 'no-store');
}
