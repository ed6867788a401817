import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { resetMfa } from '../src/cli/mfa-reset.ts';
import { createTestApp, dialects, type TestApp, testConfig } from './helpers/app.ts';
import { signUp } from './helpers/factories.ts';
import { enrolMfa } from './helpers/mfa.ts';
import { npmScript } from './helpers/npm-script.ts';

describe.each(dialects)('operator MFA reset (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const login = (username: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username, password } });

  it('turns MFA off by username or email: the password alone signs in again, codes and challenges are gone', async () => {
    const s = await signUp(t.app);
    await enrolMfa(t.app, s, t.clock.now());
    expect((await login(s.username, s.password)).json()).toHaveProperty('challenge');
    expect(await resetMfa(t.app.db, s.email.toUpperCase())).toBe('reset');
    const res = await login(s.username, s.password);
    expect(res.json()).toHaveProperty('accessToken');
    const row = await t.app.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', s.username)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ mfa_enabled: 0, mfa_secret: null, mfa_pending_secret: null });
    for (const table of ['mfa_recovery_codes', 'mfa_challenges'] as const) {
      const rows = await t.app.db.selectFrom(table).select('id').where('user_id', '=', row.id).execute();
      expect(rows).toEqual([]);
    }
    expect(await resetMfa(t.app.db, s.username)).toBe('not-enabled');
    expect(await resetMfa(t.app.db, 'nobody-here')).toBe('not-found');
  });
});

describe('npm run mfa:reset', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'billfold-reset-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const run = npmScript('mfa:reset', dataDir);

  it('resets the account in the configured database and says what it did', async () => {
    const config = testConfig({ dialect: 'sqlite', file: join(dataDir, 'billfold.db') }, { dataDir });
    const app = await buildApp({ ...config, mfaKey: 'x'.repeat(40) });
    const s = await signUp(app);
    await enrolMfa(app, s, Date.now());
    await app.close();

    const done = await run(s.username);
    expect(done).toEqual({ code: 0, out: expect.stringContaining(`MFA turned off for ${s.username}`) });
    expect(await run(s.username)).toEqual({ code: 0, out: expect.stringContaining('does not use MFA') });
    expect(await run('nobody-here')).toEqual({ code: 1, out: expect.stringContaining('No account') });
    expect(await run()).toEqual({ code: 2, out: expect.stringContaining('Usage: npm run mfa:reset') });
  }, 60_000);
});
