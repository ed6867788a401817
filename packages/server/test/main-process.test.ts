import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { oneInvoiceFile } from './helpers/account-file.ts';
import { userData } from './helpers/factories.ts';
import { freePort } from './helpers/pg-cluster.ts';
import { compiledServer, login, startServer } from './helpers/server-process.ts';

const root = resolve(import.meta.dirname, '../../..');

/** `npm start` without npm (scripts/start.mjs), on a free port; resolves once health answers, with its output. */
async function npmStart(dataDir: string) {
  const port = await freePort();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk: Buffer) => {
    out.stdout += chunk;
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    out.stderr += chunk;
  });
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${out.stderr}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
      if (res.ok) break;
    } catch {
      // not listening yet (or still building)
    }
    if (i > 3000) throw new Error(`npm start did not answer:\n${out.stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, out, url: `http://127.0.0.1:${port}` };
}

function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((done) => child.once('exit', (code) => done(code)));
}

describe('main: the real process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'billfold-main-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('npm start runs the compiled server, builds nothing and says nothing of builds the second time, and stops with 0 on SIGTERM', async () => {
    const first = await npmStart(dataDir);
    first.child.kill('SIGTERM');
    expect(await exitOf(first.child)).toBe(0);
    expect(existsSync(join(dataDir, 'billfold.db'))).toBe(true);
    expect(existsSync(join(dataDir, 'jwt-secret'))).toBe(true);

    const second = await npmStart(dataDir);
    try {
      expect(second.out.stderr).not.toMatch(/Build/);
      const lines = second.out.stdout.split('\n').filter(Boolean);
      // Not a terminal: JSON lines, the first of them where it listens.
      const first = JSON.parse(lines[0] ?? '{}');
      expect(first.msg).toMatch(/^Billfold listening at http:\/\/127\.0\.0\.1:\d+, data in SQLite /);
      // The process runs a compiled build and serves a web build (it marks the build directories it uses; another
      // test may have switched `dist` since).
      const marked = (target: string) =>
        readdirSync(join(root, 'packages', target, 'builds')).filter((name) =>
          existsSync(join(root, 'packages', target, 'builds', name, `.in-use-${second.child.pid}`)),
        );
      expect(marked('server')).toHaveLength(1);
      expect(marked('web')).toHaveLength(1);
      const page = await fetch(`${second.url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
    } finally {
      second.child.kill('SIGTERM');
      expect(await exitOf(second.child)).toBe(0);
    }
  });

  it('the compiled backup and mfa-reset commands run from their links in dist/', async () => {
    await compiledServer();
    const env = { ...process.env, DATA_DIR: dataDir };
    const backup = spawnSync(process.execPath, ['packages/server/dist/backup.js'], {
      cwd: root,
      env,
      encoding: 'utf8',
    });
    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/^Backup written: .*billfold-.*\.db \(\d+ bytes, integrity ok\)/);
    const reset = spawnSync(process.execPath, ['packages/server/dist/mfa-reset.js', 'nobody-here'], {
      cwd: root,
      env,
      encoding: 'utf8',
    });
    expect(reset.status).toBe(1);
    expect(reset.stderr).toContain('nobody-here');
  });

  it('SIGTERM lets a request in flight finish, refuses new connections, then exits 0', async () => {
    const server = await startServer({ DATA_DIR: dataDir });
    try {
      const user = userData();
      const body = Buffer.from(JSON.stringify(user));
      const answer = new Promise<{ status: number; text: string }>((resolveAnswer, reject) => {
        const req = request(
          `${server.url}/api/v1/auth/create`,
          { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length } },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => {
              text += chunk;
            });
            res.on('end', () => resolveAnswer({ status: res.statusCode ?? 0, text }));
          },
        );
        req.on('error', reject);
        // Half the body now, the rest after the signal: the request is in flight when SIGTERM comes.
        req.write(body.subarray(0, 10));
        setTimeout(() => {
          server.child.kill('SIGTERM');
          setTimeout(async () => {
            try {
              expect(server.child.exitCode).toBe(null);
              await expect(fetch(`${server.url}/api/v1/health`)).rejects.toThrow();
            } catch (error) {
              reject(error);
            }
            req.end(body.subarray(10));
          }, 700);
        }, 300);
      });
      const { status, text } = await answer;
      expect(status, text).toBe(201);
      expect(await exitOf(server.child)).toBe(0);
    } finally {
      await server.stop();
    }
  });

  it('the compiled server parses a large account file in its compiled worker thread', async () => {
    await compiledServer();
    const server = await startServer({ DATA_DIR: dataDir });
    try {
      const user = userData();
      const created = await fetch(`${server.url}/api/v1/auth/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(user),
      });
      expect(created.status).toBe(201);
      const token = await login(server.url, user);
      const file = oneInvoiceFile();
      // Over the 1 MiB from which a file goes to a worker thread (account-file-parser.ts), in valid JSON.
      const body = `${JSON.stringify(file)}${' '.repeat(1_200_000)}`;
      const res = await fetch(`${server.url}/api/v1/account/import`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body,
      });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      expect(JSON.parse(text)).toMatchObject({ entities: 1, invoices: 1 });
    } finally {
      await server.stop();
    }
  });

  it('writes one JSON line per request with its id, or readable lines with LOG_FORMAT=pretty', async () => {
    for (const format of ['json', 'pretty'] as const) {
      const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'info', LOG_FORMAT: format });
      let id: string | null;
      try {
        const res = await fetch(`${server.url}/api/v1/user?userName=x`, { headers: { 'x-request-id': 'probe-42' } });
        expect(res.status).toBe(401);
        id = res.headers.get('x-request-id');
        await new Promise((r) => setTimeout(r, 200));
      } finally {
        await server.stop();
      }
      expect(id).toBe('probe-42');
      const lines = server.output().split('\n').filter(Boolean);
      const mine = lines.filter((line) => line.includes('probe-42'));
      expect(mine, server.output()).toHaveLength(1);
      if (format === 'json') {
        for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
        expect(JSON.parse(mine[0] ?? '')).toMatchObject({
          reqId: 'probe-42',
          req: { method: 'GET', url: '/api/v1/user' },
          res: { statusCode: 401 },
          msg: expect.stringMatching(/^GET \/api\/v1\/user 401 \d+\.\d ms$/),
        });
      } else {
        expect(lines.some((line) => line.startsWith('{'))).toBe(false);
        expect(mine[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: \[probe-42\] GET \/api\/v1\/user 401 \d+\.\d ms$/);
        expect(lines.some((line) => /INFO: Billfold listening at http:\/\/127\.0\.0\.1:\d+/.test(line))).toBe(true);
      }
    }
  });
});
