import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBackupConfig, loadConfig, parseDatabaseUrl } from '../src/config.ts';

const tempDir = () => mkdtempSync(join(tmpdir(), 'billfold-config-'));

describe('config', () => {
  it('gives the backup command the server database, DATA_DIR/backups and 7 copies by default', () => {
    const dir = tempDir();
    expect(loadBackupConfig({ DATA_DIR: dir })).toEqual({
      database: { dialect: 'sqlite', file: join(dir, 'billfold.db') },
      dir: join(dir, 'backups'),
      keep: 7,
    });
    expect(loadBackupConfig({ DATA_DIR: dir, BACKUP_DIR: join(dir, 'b'), BACKUP_KEEP: '3' })).toMatchObject({
      dir: join(dir, 'b'),
      keep: 3,
    });
    expect(() => loadBackupConfig({ DATA_DIR: dir, BACKUP_KEEP: '0' })).toThrow('BACKUP_KEEP must be at least 1');
  });

  it('has the documented defaults', () => {
    const dir = tempDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.port).toBe(8080);
    expect(config.host).toBe('0.0.0.0');
    expect(config.logLevel).toBe('info');
    expect(config.database).toEqual({ dialect: 'sqlite', file: join(dir, 'billfold.db') });
  });

  it('reads every variable', () => {
    const dir = tempDir();
    const config = loadConfig({
      PORT: '9090',
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DATABASE_URL: 'postgresql://u:p@db:5432/billfold',
      JWT_SECRET: 's'.repeat(40),
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      port: 9090,
      host: '127.0.0.1',
      logLevel: 'warn',
      jwtSecret: 's'.repeat(40),
      database: { dialect: 'postgres', url: 'postgresql://u:p@db:5432/billfold' },
    });
  });

  it('selects the database from DATABASE_URL', () => {
    expect(parseDatabaseUrl('postgres://x/y', '/d')).toEqual({ dialect: 'postgres', url: 'postgres://x/y' });
    expect(parseDatabaseUrl('sqlite:/tmp/a.db', '/d')).toEqual({ dialect: 'sqlite', file: '/tmp/a.db' });
    expect(parseDatabaseUrl('/tmp/b.db', '/d')).toEqual({ dialect: 'sqlite', file: '/tmp/b.db' });
    expect(parseDatabaseUrl('rel.db', '/d')).toEqual({ dialect: 'sqlite', file: resolve('rel.db') });
    expect(parseDatabaseUrl(undefined, '/d')).toEqual({ dialect: 'sqlite', file: '/d/billfold.db' });
  });

  it('generates the JWT secret once and keeps it in the data directory', () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir }).jwtSecret;
    const second = loadConfig({ DATA_DIR: dir }).jwtSecret;
    expect(first.length).toBeGreaterThanOrEqual(48);
    expect(second).toBe(first);
    const file = join(dir, 'jwt-secret');
    expect(readFileSync(file, 'utf8')).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it.each([{ PORT: 'eighty' }, { PORT: '70000' }, { LOG_LEVEL: 'loud' }, { JWT_SECRET: 'short' }])(
    'refuses %j with a clear message',
    (env) => {
      expect(() => loadConfig({ DATA_DIR: tempDir(), ...env })).toThrow(/Invalid configuration: \w+/);
    },
  );
});
