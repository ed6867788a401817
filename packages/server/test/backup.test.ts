import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { filesFolderOf, listBackups } from '../src/backup/sqlite-backup.ts';
import { createDatabase } from '../src/db/database.ts';
import { rollupDifferences } from '../src/modules/read-model/rollup-tables.ts';
import { pdfFile } from './helpers/attachments.ts';
import { STRONG_PASSWORD } from './helpers/factories.ts';
import { call as api, login, type ServerProcess, startServer } from './helpers/server-process.ts';
import { totalsMismatches } from './security/database-state.ts';

/**
 * `npm run backup` against the real server process under concurrent writes: each copy passes SQLite's integrity
 * check, holds every write acknowledged before the backup started, and its stored totals and rollups equal a
 * recomputation; only the last BACKUP_KEEP copies stay; a copy restored in place serves the same data.
 */

const run = promisify(execFile);
const serverDir = resolve(import.meta.dirname, '..');

function backup(env: Record<string, string>) {
  return run(process.execPath, ['--import', 'tsx', 'src/backup/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, ...env },
  });
}

describe('npm run backup', () => {
  it('copies a live SQLite database under write load, verified, keeping the last N', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'billfold-backup-'));
    const backupDir = join(dataDir, 'copies');
    const env = {
      DATA_DIR: dataDir,
      JWT_SECRET: 'backup-test-secret-backup-test-secret-0123456789',
      BACKUP_DIR: backupDir,
      BACKUP_KEEP: '2',
    };
    let server: ServerProcess | null = await startServer(env);
    let stop = false;
    try {
      const username = 'backup_owner';
      await fetch(`${server.url}/api/v1/auth/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, email: 'backup@example.com', password: STRONG_PASSWORD }),
      });
      const token = await login(server.url, { username, password: STRONG_PASSWORD });
      const bill = await api(server.url, token, 'POST', '/bills', { name: 'Backup Utility' });

      /** Acknowledged invoices (id → cents) and payments (id → entry id), with the ack count at each moment. */
      const entries = new Map<number, number>();
      const payments = new Map<number, number>();
      const url = server.url;
      const writer = async (n: number) => {
        for (let i = 0; !stop; i++) {
          const amountCents = 100 + ((n * 7919 + i * 104_729) % 90_000);
          const entry = await api(url, token, 'POST', '/entries/new', {
            billId: bill.id,
            date: '2026-11-01',
            flow: i % 2 ? 'income' : 'expense',
            amount: amountCents / 100,
            services: `load ${n}/${i}`,
          });
          entries.set(entry.entryId as number, amountCents);
          const payment = await api(url, token, 'POST', '/payments', {
            entryId: entry.entryId,
            date: '2026-11-02',
            amount: Math.floor(amountCents / 3) / 100,
            type: 'bank',
            medium: 'ach',
          });
          payments.set(payment.paymentId as number, entry.entryId as number);
        }
      };
      const writers = [1, 2, 3, 4].map(writer);
      while (entries.size < 20) await new Promise((r) => setTimeout(r, 20));

      const copies: { entries: Map<number, number>; payments: Map<number, number> }[] = [];
      for (let round = 0; round < 3; round++) {
        const before = { entries: new Map(entries), payments: new Map(payments) };
        const { stdout } = await backup(env);
        expect(stdout).toMatch(/^Backup written: .*billfold-.*\.db \(\d+ bytes, integrity ok\)/);
        copies.push(before);
        const path = listBackups(backupDir).at(-1) as string;
        await checkCopy(join(backupDir, path), before);
      }
      stop = true;
      await Promise.all(writers);
      expect(listBackups(backupDir)).toHaveLength(2);

      // Restore: stop the server, put the newest copy in place of the database, start again.
      await server.stop();
      server = null;
      const newest = join(backupDir, listBackups(backupDir).at(-1) as string);
      rmSync(join(dataDir, 'billfold.db-wal'), { force: true });
      rmSync(join(dataDir, 'billfold.db-shm'), { force: true });
      await run('cp', [newest, join(dataDir, 'billfold.db')]);
      server = await startServer(env);
      const restoredToken = await login(server.url, { username, password: STRONG_PASSWORD });
      const last = copies.at(-1) as (typeof copies)[number];
      const [someId, cents] = [...last.entries].at(-1) as [number, number];
      const served = await api(server.url, restoredToken, 'GET', `/entries/${someId}`);
      expect(Math.round((served.amount as number) * 100)).toBe(cents);
    } finally {
      stop = true;
      await server?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it('carries the attachment files its copy names, byte for byte, and a restore serves them', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'billfold-backup-files-'));
    const restoreDir = mkdtempSync(join(tmpdir(), 'billfold-restore-files-'));
    const backupDir = join(dataDir, 'copies');
    const secret = 'backup-test-secret-backup-test-secret-0123456789';
    const env = { DATA_DIR: dataDir, JWT_SECRET: secret, BACKUP_DIR: backupDir, BACKUP_KEEP: '1' };
    const servers: ServerProcess[] = [];
    try {
      const server = await startServer(env);
      servers.push(server);
      const username = 'backup_files';
      await fetch(`${server.url}/api/v1/auth/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, email: 'files@example.com', password: STRONG_PASSWORD }),
      });
      const token = await login(server.url, { username, password: STRONG_PASSWORD });
      const bill = await api(server.url, token, 'POST', '/bills', { name: 'Backup Files' });
      const entry = await api(server.url, token, 'POST', '/entries/new', {
        billId: bill.id,
        date: '2026-11-01',
        flow: 'expense',
        amount: 12.5,
      });
      const payment = await api(server.url, token, 'POST', '/payments', {
        entryId: entry.entryId,
        date: '2026-11-02',
        amount: 12.5,
        type: 'bank',
        medium: 'ach',
      });
      const attach = async (path: string, bytes: Buffer) => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'bill.pdf');
        const res = await fetch(`${server.url}/api/v1${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: form,
        });
        expect(res.status, await res.clone().text()).toBe(201);
        return ((await res.json()) as { id: number }).id;
      };
      const bill1 = pdfFile('backup one');
      const bill2 = pdfFile('backup two');
      const first = await attach(`/entries/${entry.entryId}/attachments`, bill1);
      await attach(`/payments/${payment.paymentId}/attachments`, bill2);
      await attach(`/payments/${payment.paymentId}/attachments`, bill1); // the same bytes: one file
      const keyOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

      const { stdout } = await backup(env);
      expect(stdout).toMatch(/integrity ok\); 2 attachment files \(\d+ bytes\) in .*billfold-.*\.files/);
      const copy = join(backupDir, listBackups(backupDir).at(-1) as string);
      const folder = filesFolderOf(copy);
      for (const bytes of [bill1, bill2]) {
        const key = keyOf(bytes);
        expect(readFileSync(join(folder, 'objects', key.slice(0, 2), key)).equals(bytes)).toBe(true);
      }

      // Restored as docs/operations.md says, into another data folder: the database and the files' folder.
      cpSync(copy, join(restoreDir, 'billfold.db'));
      cpSync(join(folder, 'objects'), join(restoreDir, 'attachments', 'objects'), { recursive: true });
      const restored = await startServer({ DATA_DIR: restoreDir, JWT_SECRET: secret });
      servers.push(restored);
      const again = await login(restored.url, { username, password: STRONG_PASSWORD });
      const served = await fetch(`${restored.url}/api/v1/attachments/${first}`, {
        headers: { authorization: `Bearer ${again}` },
      });
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer()).equals(bill1)).toBe(true);

      // A file lost from the store is named, and the rest still copied; the older copy goes with its files.
      const lost = keyOf(bill2);
      rmSync(join(dataDir, 'attachments', 'objects', lost.slice(0, 2), lost));
      const next = await backup(env);
      expect(next.stdout).toMatch(/; 1 attachment files/);
      expect(next.stderr).toContain(lost);
      expect(listBackups(backupDir)).toHaveLength(1);
      expect(existsSync(folder)).toBe(false);
      expect(existsSync(filesFolderOf(join(backupDir, listBackups(backupDir).at(-1) as string)))).toBe(true);
    } finally {
      for (const s of servers) await s.stop();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(restoreDir, { recursive: true, force: true });
    }
  }, 180_000);

  it('points a PostgreSQL operator at pg_dump and writes nothing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'billfold-backup-'));
    try {
      const failure = await backup({
        DATA_DIR: dataDir,
        DATABASE_URL: 'postgres://billfold@127.0.0.1:1/billfold',
      }).then(
        () => null,
        (err: { code: number; stderr: string }) => err,
      );
      expect(failure?.code).toBe(2);
      expect(failure?.stderr).toContain('pg_dump');
      expect(listBackups(join(dataDir, 'backups'))).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

async function checkCopy(file: string, acked: { entries: Map<number, number>; payments: Map<number, number> }) {
  const db = createDatabase({ dialect: 'sqlite', file });
  try {
    const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
    expect(integrity.rows).toEqual([{ integrity_check: 'ok' }]);
    const stored = new Map(
      (await db.selectFrom('entries').select(['id', 'amount_cents']).execute()).map((e) => [e.id, e.amount_cents]),
    );
    for (const [id, cents] of acked.entries) expect({ id, cents: stored.get(id) }).toEqual({ id, cents });
    const storedPayments = new Map(
      (await db.selectFrom('payments').select(['id', 'entry_id']).execute()).map((p) => [p.id, p.entry_id]),
    );
    for (const [id, entryId] of acked.payments)
      expect({ id, entryId: storedPayments.get(id) }).toEqual({ id, entryId });
    expect(await totalsMismatches(db)).toEqual([]);
    expect(await rollupDifferences(db)).toEqual([]);
  } finally {
    await db.destroy();
  }
}
