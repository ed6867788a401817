import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig } from './helpers/app.ts';
import { attach, filesUnder, pdfFile } from './helpers/attachments.ts';
import { createEntry } from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';
import { npmScript } from './helpers/npm-script.ts';

describe('npm run attachments:check', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'billfold-check-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const run = npmScript('attachments:check', dataDir);

  it('reports orphans and missing files of the configured store, and removes old orphans when asked', async () => {
    const config = testConfig(
      { dialect: 'sqlite', file: join(dataDir, 'billfold.db') },
      { dataDir, attachments: { dir: join(dataDir, 'attachments'), s3: null } },
    );
    const app = await buildApp(config);
    const api = { app, session: await signUp(app) };
    const entry = await createEntry(api);
    const kept = pdfFile('kept');
    const removed = pdfFile('removed');
    expect((await attach(api, 'entries', entry.entryId, kept)).statusCode).toBe(201);
    const gone = (await attach(api, 'entries', entry.entryId, removed)).json<{ id: number }>();
    await app.inject({ method: 'DELETE', url: `/api/v1/attachments/${gone.id}`, headers: api.session.headers });
    await app.close();
    const key = (b: Buffer) => createHash('sha256').update(b).digest('hex');

    // The removed attachment's file is an orphan at once, but younger than the hour's grace: reported, kept.
    const young = await run();
    expect(young.code).toBe(1);
    expect(young.out).toContain(`orphan  ${key(removed)}  ${removed.length} bytes, written 0 minutes ago`);
    expect(young.out).not.toContain(key(kept));
    expect(await run('--remove')).toMatchObject({ code: 1, out: expect.stringContaining('1 orphan(s), 0 removed') });

    // Written two hours ago, it goes.
    const orphan = filesUnder(join(dataDir, 'attachments', 'objects')).find((f) => f.endsWith(key(removed))) ?? '';
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(orphan, twoHoursAgo, twoHoursAgo);
    expect(await run('--remove')).toEqual({
      code: 0,
      out: expect.stringContaining('1 orphan(s), 1 removed; 0 missing'),
    });
    expect(await run()).toEqual({ code: 0, out: expect.stringContaining('0 orphan(s), 0 removed; 0 missing') });

    // A file lost outside the app is reported as missing.
    const lost = filesUnder(join(dataDir, 'attachments', 'objects')).find((f) => f.endsWith(key(kept))) ?? '';
    rmSync(lost);
    expect(await run()).toEqual({ code: 1, out: expect.stringContaining(`missing ${key(kept)}`) });
    expect(await run('--nonsense')).toEqual({
      code: 2,
      out: expect.stringContaining('Usage: npm run attachments:check'),
    });
  }, 120_000);
});
