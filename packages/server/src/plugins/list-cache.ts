import type { FastifyReply, FastifyRequest, onRequestHookHandler, onSendHookHandler } from 'fastify';
import { VersionedCache } from '../lib/versioned-cache.ts';

/** About 450 pages of 100 entries: the working set of a few dozen people browsing. */
const DEFAULT_BYTES = 16 * 1024 * 1024;

const JSON_TYPE = 'application/json; charset=utf-8';

/** `Cache-Control: no-cache` (or `no-store`) on a request, as a hard reload sends: answer afresh. */
function wantsFresh(request: FastifyRequest): boolean {
  return /no-cache|no-store/i.test(request.headers['cache-control'] ?? '');
}

/**
 * A version-checked response cache for one GET route of the ledger group (docs/decisions/0403-list-cache.md):
 * each serialized 200 answer is kept per ledger and URL with the ledger's data version as the request began (read
 * by the group's hook with the member check, plugins/ledger.ts, before the answer was computed), and a repeat is
 * answered right after that hook (before validation and the handler) only while the version is still that one:
 * exact, not "fresh enough". `Cache-Status` (RFC 9211) says what happened.
 *
 * Register `lookup` in the route's `onRequest` and `store` as its `onSend`.
 */
export function listCache(maxBytes = DEFAULT_BYTES) {
  const cache = new VersionedCache(maxBytes);
  const lookup: onRequestHookHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    if (wantsFresh(request)) return;
    const body = cache.get(request.ledger.id, request.ledger.version, request.url);
    if (body) return reply.header('cache-status', 'billfold; hit').type(JSON_TYPE).send(body);
  };
  const store: onSendHookHandler = async (request, reply, payload) => {
    if (reply.getHeader('cache-status') !== undefined || reply.statusCode !== 200) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
    cache.set(request.ledger.id, request.ledger.version, request.url, body);
    reply.header('cache-status', `billfold; fwd=${wantsFresh(request) ? 'request' : 'miss'}; stored`);
    return body;
  };
  return { lookup, store };
}
