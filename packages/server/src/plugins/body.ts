import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../lib/http-error.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Keys that would reach an object's prototype if a merge ever copied them. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor']);

function badBody(message: string, code: 'MALFORMED_JSON' | 'FORBIDDEN_KEY' = 'MALFORMED_JSON'): HttpError {
  return new HttpError(400, message, {}, code);
}

/**
 * The body's JSON value; empty or blank text is "no body". Throws a 400 that says what is wrong. Pure: the account
 * file's worker thread parses with it too (modules/account-data/account-file-parser.ts).
 */
export function parseJsonBody(raw: Uint8Array): unknown {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw badBody('The request body is not valid UTF-8 text.');
  }
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text, (key, value: unknown) => {
      if (FORBIDDEN_KEYS.has(key)) throw new ForbiddenKey(key);
      return value;
    });
  } catch (err) {
    if (err instanceof ForbiddenKey)
      throw badBody(`The request body must not contain the key "${err.key}".`, 'FORBIDDEN_KEY');
    throw badBody(`The request body is not valid JSON: ${(err as Error).message}`);
  }
}

class ForbiddenKey extends Error {
  constructor(readonly key: string) {
    super(key);
  }
}

/** `256 KiB`, `16 MiB`: a byte limit as the messages name it. */
export function byteSize(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes.toLocaleString('en-US')} bytes`;
}

/** The 413 of a body over its route's limit, naming the limit (`LIMIT_*_BYTES`, config.ts). */
export function bodyTooLarge(limit: number, what = 'The request body'): HttpError {
  return new HttpError(413, `${what} is larger than the limit of ${byteSize(limit)}.`, {}, 'BODY_TOO_LARGE');
}

function mediaTypeOf(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]?.trim() || 'none';
}

/**
 * Bodies are JSON (`application/json`, UTF-8). A body of any other type → 415; a request without a body needs no
 * content type, whatever type it names (the original client posts `/auth/refresh?refreshToken=…` with none).
 *
 * Every route has a byte limit (Fastify's `bodyLimit`: `LIMIT_JSON_BODY_BYTES` unless the route sets its own). A
 * `Content-Length` over it is refused before a byte of the body is read; a body without one (chunked) is counted
 * while it streams in and refused as soon as it passes the limit (Fastify's body reader does that).
 */
export function registerBodyParsing(app: FastifyInstance): void {
  app.addHook('preParsing', async (request) => {
    const length = Number(request.headers['content-length']);
    const limit = request.routeOptions.bodyLimit;
    if (limit !== undefined && length > limit) throw bodyTooLarge(limit);
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as Buffer));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
    if ((body as Buffer).length === 0) return done(null, undefined);
    done(
      new HttpError(
        415,
        `Send the request body as JSON with Content-Type: application/json (it was ${mediaTypeOf(request)}).`,
      ),
      undefined,
    );
  });
}

/**
 * For the routes of this scope, a JSON body reaches the handler as its raw bytes (still held to the route's byte
 * limit): the handler parses it off the event loop (the account file, docs/decisions/0706-limits-and-fairness.md).
 */
export function keepJsonBodyRaw(scope: FastifyInstance): void {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
}
