import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.ts';

const INDEX_HTML =
  '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/app-abc123.js"></script></body></html>';

/** A tiny stand-in for `packages/web/dist`: the server's behaviour does not depend on what the app contains. */
function fakeWebBuild(): string {
  const root = mkdtempSync(join(tmpdir(), 'billfold-web-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), INDEX_HTML);
  writeFileSync(join(root, 'assets', 'app-abc123.js'), 'console.log("app");');
  writeFileSync(join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return root;
}

describe('the web app served by the server', () => {
  let t: TestApp;
  let webRoot: string;
  beforeAll(async () => {
    webRoot = fakeWebBuild();
    t = await createTestApp('sqlite', { webRoot });
  });
  afterAll(async () => {
    await t.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('serves index.html at / , revalidated on every visit, under the strict CSP', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(INDEX_HTML);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'self'");
  });

  it.each(['/home', '/entries/5', '/invoice?entityName=Acme', '/bills/12', '/user', '/logout', '/no/such/page'])(
    'answers the deep link %s with the app',
    async (url) => {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toBe(INDEX_HTML);
    },
  );

  it('serves hashed assets with a year of immutable caching, other files revalidated', async () => {
    const asset = await get('/assets/app-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toContain('javascript');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.body).toBe('console.log("app");');
    const icon = await get('/favicon.svg');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toContain('image/svg+xml');
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('answers a missing file with a JSON 404, never with the app', async () => {
    for (const url of ['/assets/app-old999.js', '/robots.txt', '/favicon.ico']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
  });

  it('keeps /api JSON: unknown API routes are 404 JSON, not the app', async () => {
    for (const url of ['/api/v1/nope', '/api/v1/entries/5/nope', '/api', '/api/']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
    const health = await get('/api/v1/health');
    expect(health.json()).toEqual({ status: 'ok', db: 'ok' });
  });

  it('does not answer other methods on page paths with the app', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/entries/5', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
  });
});

describe('without a web build', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { webRoot: join(tmpdir(), 'billfold-no-such-build') });
  });
  afterAll(() => t.close());

  it('serves the API only: pages are JSON 404s', async () => {
    for (const url of ['/', '/entries/5']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
    }
  });
});
