import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadBackupConfig, loadConfig, parseDatabaseUrl, parseTrustProxy } from '../src/config.ts';
import { resolveLogFormat } from '../src/lib/logger.ts';

const tempDir = () => mkdtempSync(join(tmpdir(), 'billfold-config-'));

describe('config', () => {
  it('gives the backup command the server database and file store, DATA_DIR/backups and 7 copies by default', () => {
    const dir = tempDir();
    expect(loadBackupConfig({ DATA_DIR: dir })).toEqual({
      database: { dialect: 'sqlite', file: join(dir, 'billfold.db') },
      attachments: { dir: join(dir, 'attachments'), s3: null },
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
    expect(config.trustProxy).toBe(false);
    expect(config.refreshReuseSeconds).toBe(30);
  });

  it('reads LOG_FORMAT and SHUTDOWN_TIMEOUT_SECONDS, and serves the web app from packages/web/dist by default', () => {
    const dir = tempDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.logFormat).toBe('auto');
    expect(config.shutdownTimeoutSeconds).toBe(25);
    expect(config.webRoot).toBe(resolve(import.meta.dirname, '../../web/dist'));
    expect(loadConfig({ DATA_DIR: dir, LOG_FORMAT: 'json', SHUTDOWN_TIMEOUT_SECONDS: '5' })).toMatchObject({
      logFormat: 'json',
      shutdownTimeoutSeconds: 5,
    });
    expect(() => loadConfig({ DATA_DIR: dir, LOG_FORMAT: 'xml' })).toThrow('LOG_FORMAT');
    expect(() => loadConfig({ DATA_DIR: dir, SHUTDOWN_TIMEOUT_SECONDS: '0' })).toThrow('SHUTDOWN_TIMEOUT_SECONDS');
    expect(resolveLogFormat('auto', Object.assign(new PassThrough(), { isTTY: true }))).toBe('pretty');
    expect(resolveLogFormat('auto', new PassThrough())).toBe('json');
    expect(resolveLogFormat('json', Object.assign(new PassThrough(), { isTTY: true }))).toBe('json');
  });

  it('reads TRUST_PROXY in the forms of Fastify trustProxy', () => {
    const trust = (TRUST_PROXY: string) => loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY }).trustProxy;
    expect(trust('')).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('true')).toBe(true);
    expect(trust('2')).toBe(2);
    expect(trust('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(trust(' 10.0.0.0/8, ::1,fd00::/8 ,loopback')).toEqual(['10.0.0.0/8', '::1', 'fd00::/8', 'loopback']);
    expect(trust('192.168.0.0/255.255.0.0')).toEqual(['192.168.0.0/255.255.0.0']);
    expect(parseTrustProxy('10.0.0.0/33')).toMatch(/TRUST_PROXY must be/);
  });

  it('keeps attachments under DATA_DIR/attachments, or in the S3 store S3_URL names with its bucket and keys', () => {
    const dir = tempDir();
    expect(loadConfig({ DATA_DIR: dir }).attachments).toEqual({ dir: join(dir, 'attachments'), s3: null });
    const s3 = {
      DATA_DIR: dir,
      ATTACHMENTS_DIR: join(dir, 'files'),
      S3_URL: 'https://s3.example.com',
      S3_BUCKET: 'bills',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    expect(loadConfig(s3).attachments).toEqual({
      dir: join(dir, 'files'),
      s3: {
        url: 'https://s3.example.com',
        bucket: 'bills',
        region: 'us-east-1',
        accessKeyId: 'id',
        secretAccessKey: 'secret',
        prefix: 'attachments/',
        forcePathStyle: true,
      },
    });
    expect(loadConfig({ ...s3, S3_PREFIX: '', S3_FORCE_PATH_STYLE: 'false' }).attachments?.s3).toMatchObject({
      prefix: '',
      forcePathStyle: false,
    });
    expect(() => loadConfig({ ...s3, S3_BUCKET: undefined, S3_SECRET_ACCESS_KEY: undefined })).toThrow(
      'S3_BUCKET is required with S3_URL; S3_SECRET_ACCESS_KEY is required with S3_URL',
    );
    expect(() => loadConfig({ DATA_DIR: dir, S3_BUCKET: 'bills' })).toThrow('S3_BUCKET needs S3_URL');
    expect(() => loadConfig({ ...s3, S3_URL: 'ftp://x' })).toThrow(/S3_URL/);
    expect(loadConfig({ DATA_DIR: dir, LIMIT_ATTACHMENT_BYTES: '1048576' }).limits).toMatchObject({
      attachmentBytes: 1048576,
      ledgerAttachmentBytes: 1024 ** 3,
    });
  });

  it('reads REFRESH_REUSE_SECONDS', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), REFRESH_REUSE_SECONDS: '10' }).refreshReuseSeconds).toBe(10);
    expect(loadConfig({ DATA_DIR: tempDir(), REFRESH_REUSE_SECONDS: '0' }).refreshReuseSeconds).toBe(0);
  });

  it('reads the mail settings of the reminders: both SMTP_URL and MAIL_FROM, or none', () => {
    const mail = { SMTP_URL: 'smtp://user:pass@mail.example.com:587', MAIL_FROM: 'Billfold <bills@example.com>' };
    const config = loadConfig({ DATA_DIR: tempDir(), ...mail, REMINDER_HOUR: '6', PUBLIC_URL: 'https://b.example/' });
    expect(config.mail).toEqual({ smtpUrl: mail.SMTP_URL, from: mail.MAIL_FROM });
    expect(config.reminderHourUtc).toBe(6);
    expect(config.publicUrl).toBe('https://b.example');
    expect(loadConfig({ DATA_DIR: tempDir(), SMTP_URL: mail.SMTP_URL }).mail).toBeNull();
    expect(loadConfig({ DATA_DIR: tempDir() })).toMatchObject({ mail: null, reminderHourUtc: null, publicUrl: null });
    expect(() => loadConfig({ DATA_DIR: tempDir(), ...mail, SMTP_URL: 'mail.example.com' })).toThrow(
      /SMTP_URL must be an smtp:\/\/ or smtps:\/\/ address/,
    );
    expect(() => loadConfig({ DATA_DIR: tempDir(), REMINDER_HOUR: '24' })).toThrow(/REMINDER_HOUR/);
  });

  it('reads every variable', () => {
    const dir = tempDir();
    const config = loadConfig({
      PORT: '9090',
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DATABASE_URL: 'postgresql://u:p@db:5432/billfold',
      JWT_SECRET: 's'.repeat(40),
      MFA_KEY: 'k'.repeat(32),
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      port: 9090,
      host: '127.0.0.1',
      logLevel: 'warn',
      jwtSecret: 's'.repeat(40),
      mfaKey: 'k'.repeat(32),
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

  it.each([
    ['JWT secret', 'jwtSecret', 'jwt-secret'],
    ['MFA key', 'mfaKey', 'mfa-key'],
  ] as const)('generates the %s once and keeps it in the data directory', (_name, field, fileName) => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir })[field];
    const second = loadConfig({ DATA_DIR: dir })[field];
    expect(first.length).toBeGreaterThanOrEqual(48);
    expect(second).toBe(first);
    const file = join(dir, fileName);
    expect(readFileSync(file, 'utf8')).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('keeps the JWT secret and the MFA key apart', () => {
    const config = loadConfig({ DATA_DIR: tempDir() });
    expect(config.mfaKey).not.toBe(config.jwtSecret);
  });

  it.each([
    { PORT: 'eighty' },
    { PORT: '70000' },
    { LOG_LEVEL: 'loud' },
    { JWT_SECRET: 'short' },
    { TRUST_PROXY: 'proxy.example.com' },
    { TRUST_PROXY: '10.0.0.1,' },
    { TRUST_PROXY: '10.0.0.0/40' },
    { REFRESH_REUSE_SECONDS: '-1' },
    { REFRESH_REUSE_SECONDS: 'soon' },
    { MFA_KEY: 'short' },
  ])('refuses %j with a clear message', (env) => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), ...env })).toThrow(/Invalid configuration: \w+/);
  });
});

// Sign-in with an identity provider (docs/decisions/0722-openid-connect-sign-in.md).
describe('config: identity provider and password sign-in', () => {
  const provider = {
    OIDC_ISSUER: 'https://auth.example.com/realms/home',
    OIDC_CLIENT_ID: 'billfold',
    OIDC_CLIENT_SECRET: 'secret',
    PUBLIC_URL: 'https://bills.example.com/',
  };

  it('has no provider and allows passwords by default', () => {
    const config = loadConfig({ DATA_DIR: tempDir() });
    expect(config.oidc).toBeNull();
    expect(config.passwordLogin).toBe(true);
  });

  it('reads the provider, its name, sign-up and e-mail matching (both off unless set), and the callback address', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), ...provider }).oidc).toEqual({
      issuer: 'https://auth.example.com/realms/home',
      clientId: 'billfold',
      clientSecret: 'secret',
      name: 'auth.example.com',
      signup: false,
      matchEmail: false,
      redirectUri: 'https://bills.example.com/api/v1/auth/oidc/callback',
      appUrl: 'https://bills.example.com',
    });
    const set = loadConfig({
      DATA_DIR: tempDir(),
      ...provider,
      OIDC_NAME: 'Authentik',
      OIDC_SIGNUP: 'true',
      OIDC_MATCH_EMAIL: '1',
      PASSWORD_LOGIN: 'false',
    });
    expect(set.oidc).toMatchObject({ name: 'Authentik', signup: true, matchEmail: true });
    expect(set.passwordLogin).toBe(false);
  });

  it.each([
    [{ ...provider, OIDC_CLIENT_ID: undefined }, 'OIDC_CLIENT_ID is required'],
    [{ ...provider, OIDC_CLIENT_SECRET: undefined }, 'OIDC_CLIENT_SECRET is required'],
    [{ ...provider, PUBLIC_URL: undefined }, 'PUBLIC_URL is required with OIDC_ISSUER'],
    [{ ...provider, OIDC_ISSUER: 'http://auth.example.com' }, 'OIDC_ISSUER must be an https:// address'],
    [{ ...provider, OIDC_SIGNUP: 'maybe' }, 'OIDC_SIGNUP: must be true or false'],
    [{ PASSWORD_LOGIN: 'false' }, 'PASSWORD_LOGIN=false needs OIDC_ISSUER'],
  ])('refuses %j: %s', (env, message) => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), ...env })).toThrow(message);
  });

  it('allows an http issuer only on this machine', () => {
    const local = loadConfig({ DATA_DIR: tempDir(), ...provider, OIDC_ISSUER: 'http://127.0.0.1:9000' });
    expect(local.oidc?.issuer).toBe('http://127.0.0.1:9000');
  });
});
