import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createTestApp, createTestDatabase, dialects, type TestApp, testConfig } from './helpers/app.ts';
import { signUp } from './helpers/factories.ts';

/** The headers every response carries, API or page, success or error (issue 8; docs/security.md). */
function expectSecurityHeaders(res: LightMyRequestResponse, label: string): void {
  const csp = String(res.headers['content-security-policy']);
  for (const directive of ["object-src 'none'", "base-uri 'self'", "frame-ancestors 'none'", "default-src 'self'"]) {
    expect(csp, `${label}: ${directive}`).toContain(directive);
  }
  expect(res.headers['x-content-type-options'], label).toBe('nosniff');
  expect(res.headers['referrer-policy'], label).toBe('strict-origin-when-cross-origin');
}

describe.each(dialects)('platform (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('GET /health reports the database', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', db: 'ok' });
  });

  it('unknown API routes are 404 JSON', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/nope?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      code: 'NOT_FOUND',
      message: 'Route GET /api/v1/nope not found',
    });
  });

  it('a body over 256 KiB is 413 JSON and writes nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/create',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'big', email: 'big@example.com', password: 'x'.repeat(300 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ statusCode: 413, error: 'Payload Too Large', code: 'BODY_TOO_LARGE' });
    const row = await t.app.db.selectFrom('users').select('id').where('username_key', '=', 'big').executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('wrong content types and prototype pollution are 4xx JSON', async () => {
    const text = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().statusCode).toBe(415);
    const xml = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.json().error).toBe('Unsupported Media Type');
    const proto = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":"a","password":"b","__proto__":{"admin":true}}',
    });
    expect(proto.statusCode).toBe(400);
  });

  it('sends security headers, and no-store on API responses', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('sends the security headers, no-store and the error shape on every kind of API response', async () => {
    const s = await signUp(t.app);
    const json = { 'content-type': 'application/json' };
    const cases: [string, InjectOptions, number][] = [
      ['read', { method: 'GET', url: `/api/v1/user?userName=${s.username}`, headers: s.headers }, 200],
      ['create', { method: 'POST', url: '/api/v1/bills', headers: s.headers, payload: { name: 'Headers' } }, 201],
      ['csv', { method: 'GET', url: '/api/v1/entries/export', headers: s.headers }, 200],
      ['openapi', { method: 'GET', url: '/api/v1/openapi.json' }, 200],
      ['docs page', { method: 'GET', url: '/api/docs/' }, 200],
      ['no token', { method: 'GET', url: '/api/v1/bills' }, 401],
      ['bad id', { method: 'GET', url: '/api/v1/bills/abc', headers: s.headers }, 400],
      ['not found', { method: 'GET', url: '/api/v1/bills/987654', headers: s.headers }, 404],
      ['no route', { method: 'DELETE', url: '/api/v1/bills' }, 404],
      ['malformed JSON', { method: 'POST', url: '/api/v1/auth/login', headers: json, payload: '{"a":' }, 400],
      [
        'media type',
        { method: 'POST', url: '/api/v1/auth/login', headers: { 'content-type': 'application/xml' }, payload: '<a/>' },
        415,
      ],
      [
        'too large',
        { method: 'POST', url: '/api/v1/auth/login', headers: json, payload: `"${'x'.repeat(300 * 1024)}"` },
        413,
      ],
      // Refused by Fastify's router before any hook runs (answered by `frameworkErrors`).
      ['bad escape', { method: 'GET', url: '/api/v1/bills/%ZZ', headers: s.headers }, 400],
      ['long parameter', { method: 'GET', url: `/api/v1/entries/${'9'.repeat(200)}`, headers: s.headers }, 400],
    ];
    for (const [label, options, status] of cases) {
      const res = await t.app.inject(options);
      expect({ label, status: res.statusCode }).toEqual({ label, status });
      expectSecurityHeaders(res, label);
      expect(res.headers['cache-control'], label).toBe('no-store');
      if (status >= 400) {
        expect(res.headers['content-type'], label).toBe('application/json; charset=utf-8');
        expect(res.json(), label).toEqual({
          statusCode: status,
          error: expect.any(String),
          code: expect.stringMatching(/^[A-Z][A-Z_]+$/),
          message: expect.any(String),
        });
      }
    }
  });

  it('sends the security headers on the web app, its files and its missing files', async () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'billfold-web-'));
    mkdirSync(join(webRoot, 'assets'));
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(join(webRoot, 'assets', 'app-1.js'), 'console.log(1);');
    const web = await createTestApp(dialect, { webRoot });
    try {
      for (const [url, status] of [
        ['/', 200],
        ['/entries/5', 200],
        ['/assets/app-1.js', 200],
        ['/assets/gone.js', 404],
      ] as const) {
        const res = await web.app.inject({ method: 'GET', url });
        expect({ url, status: res.statusCode }).toEqual({ url, status });
        expectSecurityHeaders(res, url);
        // Pages are revalidated and assets cached by their hashed names: only API responses are no-store.
        expect(res.headers['cache-control'], url).not.toBe('no-store');
      }
    } finally {
      await web.close();
      rmSync(webRoot, { recursive: true, force: true });
    }
  });

  it('publishes OpenAPI from the contract schemas, and the docs page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    const login = doc.paths['/api/v1/auth/login'].post;
    expect(login.requestBody.content['application/json'].schema.properties).toHaveProperty('password');
    // Tokens, or for an account with MFA the challenge of the code step.
    const answers = login.responses['200'].content['application/json'].schema.anyOf;
    expect(answers.map((a: { properties: object }) => Object.keys(a.properties).sort())).toEqual([
      ['accessToken', 'refreshToken', 'username'],
      ['challenge', 'expiresIn', 'mfaRequired'],
    ]);
    for (const path of [
      '/api/v1/auth/create',
      '/api/v1/auth/refresh',
      '/api/v1/auth/login/mfa',
      '/api/v1/user',
      '/api/v1/health',
    ]) {
      expect(doc.paths).toHaveProperty([path]);
    }
    // Every ledger route documents the Billfold-Ledger header; account and public routes do not have it.
    const ledgerHeader = (operation: { parameters?: { in: string; name: string }[] }) =>
      (operation.parameters ?? []).some((p) => p.in === 'header' && p.name === 'Billfold-Ledger');
    let ledgerRoutes = 0;
    for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, object>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        const dataRoute = /^\/api\/v1\/(entries|payments|bills|stats|schedules|recycle)\b/.test(path);
        const accountRoute = /^\/api\/v1\/(user|auth|health|account\/email)\b/.test(path);
        if (dataRoute) {
          ledgerRoutes++;
          expect(ledgerHeader(operation), `${method} ${path}`).toBe(true);
        }
        if (accountRoute) expect(ledgerHeader(operation), `${method} ${path}`).toBe(false);
      }
    }
    expect(ledgerRoutes).toBeGreaterThan(20);
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
  });

  it('never shows a stack, SQL or path in a 5xx', async () => {
    const database = await createTestDatabase(dialect);
    const app = await buildApp(testConfig(database.config));
    app.get('/api/v1/boom', async () => {
      throw new Error('select * from users where password_hash = /srv/secret.ts:12');
    });
    await app.ready();
    try {
      const res = await app.inject({ method: 'GET', url: '/api/v1/boom' });
      expect(res.statusCode).toBe(500);
      expectSecurityHeaders(res, '500');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual({
        statusCode: 500,
        error: 'Internal Server Error',
        code: 'INTERNAL_ERROR',
        message: 'Something went wrong on our side. Please try again.',
      });
    } finally {
      await app.close();
      await database.drop();
    }
  });

  it('health is 503 when the database is unreachable', async () => {
    const own = await createTestApp(dialect);
    const s = await signUp(own.app);
    await own.app.db.destroy();
    const res = await own.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ statusCode: 503, message: 'Database unreachable' });
    // Other routes fail with the generic 500, not the driver's words.
    const user = await own.app.inject({
      method: 'GET',
      url: `/api/v1/user?userName=${s.username}`,
      headers: s.headers,
    });
    expect(user.statusCode).toBe(500);
    expect(user.body).not.toMatch(/sqlite|postgres|select|destroy/i);
    await own.app.close().catch(() => {});
    await own.database.drop();
  });
});
