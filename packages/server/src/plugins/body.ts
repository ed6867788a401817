import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../lib/http-error.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Keys that would reach an object's prototype if a merge ever copied them. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor']);

function badBody(message: string, code: 'MALFORMED_JSON' | 'FORBIDDEN_KEY' = 'MALFORMED_JSON'): HttpError {
  return new HttpError(400, message, {}, code);
}

/** The body's JSON value; empty or blank text is "no body". Throws a 400 that says what is wrong. */
function parseJsonBody(raw: Buffer): unknown {
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

function mediaTypeOf(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]?.trim() || 'none';
}

/**
 * Bodies are JSON (`application/json`, UTF-8). A body of any other type → 415; a request without a body needs no
 * content type, whatever type it names (the original client posts `/auth/refresh?refreshToken=…` with none).
 */
export function registerBodyParsing(app: FastifyInstance): void {
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
