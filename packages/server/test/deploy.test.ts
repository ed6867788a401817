import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BillReading } from '@billfold/contract/bill-readings';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './helpers/app.ts';
import { pdfFile, upload } from './helpers/attachments.ts';
import { STRONG_PASSWORD, userData } from './helpers/factories.ts';
import { findNginx, type RunningNginx, startNginx } from './helpers/nginx.ts';
import { type ServerProcess, startServer } from './helpers/server-process.ts';

/**
 * The deployment of docs/deploy.md, for real: two server processes (`src/main.ts`, configured by their environment
 * only) on one PostgreSQL database, behind Debian's nginx running the configuration printed in that document, with
 * TRUST_PROXY naming nginx. Clients connect to nginx from different loopback addresses (127.0.0.x), so nginx's
 * X-Forwarded-For carries a different client address for each, as it would for users on the Internet.
 */

const nginxBin = findNginx();
const pgUrl = inject('pgUrl');
if (!nginxBin || !pgUrl) {
  const banner = '!'.repeat(78);
  console.warn(
    `\n${banner}\n!! The deployment test is SKIPPED: ${nginxBin ? '' : '/usr/sbin/nginx is missing (apt-get install nginx). '}${pgUrl ? '' : 'No PostgreSQL binaries under /usr/lib/postgresql.'}\n${banner}\n`,
  );
}

/** Seconds of the reuse interval in this deployment: short, so the test can wait it out. */
const REUSE_SECONDS = 3;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: <T = Record<string, unknown>>() => T;
}

/** One HTTP request from the client address `from` (a loopback address), without keep-alive. */
function call(
  url: string,
  method: string,
  path: string,
  options: { body?: unknown; raw?: Buffer; token?: string; from?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/api/v1${path}`,
      {
        method,
        localAddress: options.from ?? '127.0.0.1',
        agent: false,
        headers: {
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...options.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

interface Tokens {
  accessToken: string;
  refreshToken: string;
  username: string;
}

describe.skipIf(!nginxBin || !pgUrl)('deployment: two processes on one PostgreSQL behind nginx', () => {
  let database: TestDatabase;
  let dataDir: string;
  let processes: ServerProcess[] = [];
  let nginx: RunningNginx;
  let proxy: string;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    if (database.config.dialect !== 'postgres') throw new Error('unreachable');
    dataDir = mkdtempSync(join(tmpdir(), 'billfold-deploy-'));
    const env = {
      DATABASE_URL: database.config.url,
      JWT_SECRET: randomBytes(48).toString('base64url'),
      TRUST_PROXY: '127.0.0.1',
      REFRESH_REUSE_SECONDS: String(REUSE_SECONDS),
      WEB_ROOT: join(dataDir, 'no-web-app'),
    };
    // Started together, as a deployment restarts: both run the migrations at once.
    processes = await Promise.all([
      startServer({ ...env, DATA_DIR: join(dataDir, 'a') }),
      startServer({ ...env, DATA_DIR: join(dataDir, 'b') }),
    ]);
    nginx = await startNginx(processes.map((p) => p.url.replace('http://', '')));
    proxy = nginx.url;
  }, 180_000);

  afterAll(async () => {
    await nginx?.stop();
    await Promise.all(processes.map((p) => p.stop()));
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const [a, b] = [() => processes[0]?.url as string, () => processes[1]?.url as string];

  async function signUpThroughProxy(from = '127.0.0.1'): Promise<Tokens & { password: string; email: string }> {
    const data = userData();
    const created = await call(proxy, 'POST', '/auth/create', { body: data, from });
    expect(created.status, created.text).toBe(201);
    const login = await call(proxy, 'POST', '/auth/login', {
      body: { username: data.username, password: data.password },
      from,
    });
    expect(login.status, login.text).toBe(200);
    return { ...login.json<Tokens>(), password: data.password, email: data.email };
  }

  it('signs in through nginx; the access token works on both processes and through nginx', async () => {
    const health = await call(proxy, 'GET', '/health');
    expect(health.json()).toEqual({ status: 'ok', db: 'ok' });
    const s = await signUpThroughProxy();
    for (const url of [a(), b(), proxy]) {
      const me = await call(url, 'GET', `/user?userName=${s.username}`, { token: s.accessToken });
      expect(me.status, me.text).toBe(200);
      expect(me.json().username).toBe(s.username);
    }
  });

  it('five identical refreshes at once (the original client) through nginx all get working pairs', async () => {
    const s = await signUpThroughProxy();
    const burst = await Promise.all(
      Array.from({ length: 5 }, () =>
        call(proxy, 'POST', `/auth/refresh?refreshToken=${encodeURIComponent(s.refreshToken)}`, {
          headers: { 'content-type': 'application/json' },
        }),
      ),
    );
    expect(
      burst.map((r) => r.status),
      burst.map((r) => r.text).join('\n'),
    ).toEqual([200, 200, 200, 200, 200]);
    for (const pair of burst.map((r) => r.json<Tokens>())) {
      expect((await call(proxy, 'GET', `/user?userName=${s.username}`, { token: pair.accessToken })).status).toBe(200);
      expect((await call(proxy, 'POST', '/auth/refresh', { body: { refreshToken: pair.refreshToken } })).status).toBe(
        200,
      );
    }
  });

  it('a refresh token replayed after REFRESH_REUSE_SECONDS revokes its family on both processes', async () => {
    const s = await signUpThroughProxy();
    const first = await call(a(), 'POST', '/auth/refresh', { body: { refreshToken: s.refreshToken } });
    expect(first.status).toBe(200);
    await new Promise((r) => setTimeout(r, REUSE_SECONDS * 1000 + 500));
    const replay = await call(b(), 'POST', '/auth/refresh', { body: { refreshToken: s.refreshToken } });
    expect(replay.status).toBe(401);
    const successor = first.json<Tokens>().refreshToken;
    expect((await call(a(), 'POST', '/auth/refresh', { body: { refreshToken: successor } })).status).toBe(401);
  });

  it('a password change on one process stops the old access token on the other at once', async () => {
    const s = await signUpThroughProxy();
    const changed = await call(a(), 'PUT', '/user', {
      token: s.accessToken,
      body: { password: s.password, newPassword: `${STRONG_PASSWORD}2` },
    });
    expect(changed.status, changed.text).toBe(200);
    expect((await call(b(), 'GET', `/user?userName=${s.username}`, { token: s.accessToken })).status).toBe(401);
  });

  it('throttles one client address through nginx while other clients sign in, and ignores a forged X-Forwarded-For', async () => {
    const owner = await signUpThroughProxy('127.0.0.3');
    const attacker = '127.0.0.2';
    // 50 wrong passwords for 50 names from one address: in parallel batches, as a script would send them.
    for (let batch = 0; batch < 5; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          call(proxy, 'POST', '/auth/login', {
            body: { username: `nobody${batch * 10 + i}`, password: 'Wrong!Passw0rd' },
            from: attacker,
          }),
        ),
      );
      expect(answers.map((r) => r.status)).toEqual(Array(10).fill(401));
    }
    for (const headers of [{}, { 'x-forwarded-for': '198.51.100.23' }] as Record<string, string>[]) {
      const refused = await call(proxy, 'POST', '/auth/login', {
        body: { username: owner.username, password: owner.password },
        from: attacker,
        headers,
      });
      expect(refused.status, refused.text).toBe(429);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(refused.json().message).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ minutes?\.$/);
    }
    // Everyone else behind the same nginx is unaffected.
    for (const from of ['127.0.0.3', '127.0.0.4']) {
      const ok = await call(proxy, 'POST', '/auth/login', {
        body: { username: owner.email.toUpperCase(), password: owner.password },
        from,
      });
      expect(ok.status, ok.text).toBe(200);
    }
  });

  it('reads right after writes on the other process see them: entity, invoice, payment, list and stats', async () => {
    const s = await signUpThroughProxy();
    const token = s.accessToken;
    const bill = await call(a(), 'POST', '/bills', { token, body: { name: 'Deploy Co', internal: false } });
    expect(bill.status, bill.text).toBe(201);
    const billId = bill.json<{ id: number }>().id;
    expect((await call(b(), 'GET', `/bills/${billId}`, { token })).status).toBe(200);
    for (let i = 1; i <= 6; i++) {
      const [writer, reader] = i % 2 === 0 ? [a(), b()] : [b(), a()];
      // Warm the reader's list cache first, so a stale answer would be served if it missed the write.
      expect((await call(reader, 'GET', '/entries?pageSize=100', { token })).status).toBe(200);
      const entry = await call(writer, 'POST', '/entries/new', {
        token,
        body: { billId, date: `2026-11-0${i}`, flow: 'income', amount: 100 * i, services: `deploy ${i}` },
      });
      expect(entry.status, entry.text).toBe(201);
      const entryId = entry.json<{ entryId: number }>().entryId;
      const list = await call(reader, 'GET', '/entries?pageSize=100', { token });
      expect(list.json<{ total: number }>().total).toBe(i);
      const payment = await call(reader, 'POST', '/payments', {
        token,
        body: { entryId, date: '2026-11-20', amount: 100 * i, type: 'bank', medium: 'ach' },
      });
      expect(payment.status, payment.text).toBe(201);
      const seen = await call(writer, 'GET', `/entries/${entryId}`, { token });
      expect(seen.json()).toMatchObject({ entryId, status: true, balance: { totalBalance: 0, totalOverpaid: 0 } });
      const paid = await call(writer, 'GET', '/entries?paid=true&pageSize=100', { token });
      expect(paid.json<{ total: number }>().total).toBe(i);
    }
    const stats = await call(proxy, 'GET', '/entries/stats?flow=income', { token });
    expect(stats.json()).toMatchObject({ totalIncomeAmount: 2100, totalReceivedPaymentAmount: 2100 });
  });

  it('a bill reading taken by one process is asked for on the other until it is read', async () => {
    const { accessToken: token } = await signUpThroughProxy();
    const form = upload(pdfFile('Deploy Power\nAmount due: $42.10\nInvoice date: 03/04/2026'));
    const taken = await call(a(), 'POST', '/bill-readings', { token, raw: form.payload, headers: form.headers });
    expect(taken.status, taken.text).toBe(202);
    const id = taken.json<BillReading>().id;
    let reading: BillReading;
    for (;;) {
      const asked = await call(b(), 'GET', `/bill-readings/${id}`, { token });
      expect(asked.status, asked.text).toBe(200);
      reading = asked.json<BillReading>();
      if (reading.state !== 'reading') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(reading).toMatchObject({ state: 'done', result: { amount: 42.1, date: '2026-03-04' } });
  });
});
