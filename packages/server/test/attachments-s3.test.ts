import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Attachment } from '@billfold/contract/attachments';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepAttachmentFiles } from '../src/jobs/attachment-sweep.ts';
import { purgeRecycleBin } from '../src/jobs/recycle-purge.ts';
import { RECYCLE_RETENTION } from '../src/lib/retention.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { attach, filesUnder, pdfFile } from './helpers/attachments.ts';
import { type Api, createEntry, editEntry, request } from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';
import { startS3, type TestS3 } from './helpers/s3.ts';

/** The S3 store (lib/file-store.ts) against a real S3-compatible server, through the AWS SDK production uses. */
describe('attachments in an S3-compatible store', () => {
  let s3: TestS3;
  let t: TestApp;
  let api: Api;
  let local: string;

  const keys = async () => {
    const found: string[] = [];
    for await (const object of t.app.files.list()) found.push(object.key);
    return found.sort();
  };

  beforeAll(async () => {
    s3 = await startS3();
    local = mkdtempSync(join(tmpdir(), 'billfold-s3-temp-'));
    t = await createTestApp('sqlite', { attachments: { dir: local, s3: s3.settings } });
    api = { app: t.app, session: await signUp(t.app) };
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
    rmSync(local, { recursive: true, force: true });
  });

  it('stores once, serves whole and in part, and nothing stays on local disk', async () => {
    expect(t.app.files.kind).toBe('s3');
    const bytes = pdfFile('Water bill, stored in a bucket');
    const key = createHash('sha256').update(bytes).digest('hex');
    const a = await createEntry(api);
    const b = await createEntry(api);
    const first = await attach(api, 'entries', a.entryId, bytes);
    expect(first.statusCode, first.body).toBe(201);
    expect((await attach(api, 'entries', b.entryId, bytes)).statusCode).toBe(201);
    expect(await keys()).toEqual([key]);
    expect(filesUnder(local)).toEqual([]);

    const made = first.json<Attachment>();
    const got = await request(api, 'GET', `/attachments/${made.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(bytes)).toBe(true);
    const part = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachments/${made.id}`,
      headers: { ...api.session.headers, range: 'bytes=0-4' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('%PDF-');
  });

  it('refuses a wrong type without touching the bucket', async () => {
    const before = await keys();
    const entry = await createEntry(api);
    const res = await attach(api, 'entries', entry.entryId, Buffer.from('GIF89a not allowed'), 'x.gif');
    expect(res.statusCode).toBe(400);
    expect(await keys()).toEqual(before);
    expect(filesUnder(local)).toEqual([]);
  });

  it('removes the objects of purged invoices from the bucket', async () => {
    const bytes = pdfFile('Purged from the bucket');
    const key = createHash('sha256').update(bytes).digest('hex');
    const entry = await createEntry(api);
    expect((await attach(api, 'entries', entry.entryId, bytes)).statusCode).toBe(201);
    expect(await keys()).toContain(key);
    await editEntry(api, { entryId: entry.entryId, recycle: true });
    t.clock.advance(RECYCLE_RETENTION + 1);
    await purgeRecycleBin(t.app.db, t.clock.now());
    const report = await sweepAttachmentFiles(t.app.db, t.app.files, { olderThan: Date.now() + 1000, remove: true });
    expect(report.orphans.map((o) => o.key)).toEqual([key]);
    expect(report.removed).toBe(1);
    expect(report.missing).toEqual([]);
    expect(await keys()).not.toContain(key);
  });
});
