import type { RawRequestDefaultExpression } from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../src/lib/logger.ts';

const genReqId = loggerOptions({ level: 'warn', format: 'json', maskPath: (path) => path }).genReqId as (
  req: RawRequestDefaultExpression,
) => string;
const request = (headers: Record<string, string> = {}) => ({ headers }) as unknown as RawRequestDefaultExpression;

describe('request ids (docs/decisions/0905-logs.md)', () => {
  it('are 8 URL-safe characters, all different, across the refills of the random pool', () => {
    const ids = Array.from({ length: 2_000 }, () => genReqId(request()));
    expect(ids.every((id) => /^[A-Za-z0-9_-]{8}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("take the proxy's X-Request-Id when it is short and plain, and a fresh one otherwise", () => {
    expect(genReqId(request({ 'x-request-id': 'nginx-5f3a:1' }))).toBe('nginx-5f3a:1');
    const id = genReqId(request({ 'x-request-id': 'bad id\n' }));
    expect(id).toMatch(/^[A-Za-z0-9_-]{8}$/);
  });
});
