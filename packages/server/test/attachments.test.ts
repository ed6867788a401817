import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { Attachment, AttachmentList } from '@billfold/contract/attachments';
import { Jimp } from 'jimp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepAttachmentFiles } from '../src/jobs/attachment-sweep.ts';
import { purgeRecycleBin } from '../src/jobs/recycle-purge.ts';
import { RECYCLE_RETENTION } from '../src/lib/retention.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { attach, filesUnder, pdfFile, upload } from './helpers/attachments.ts';
import { type Api, createEntry, createPayment, editEntry, request, updatePayment } from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';

const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe.each(dialects)('attachments (%s)', (dialect) => {
  let t: TestApp;
  let api: Api;
  let objects: string;
  let temp: string;

  const rowCount = async () =>
    Number(
      (
        await t.app.db
          .selectFrom('attachments')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await createTestApp(dialect, {
      limits: { attachmentBytes: 64 * 1024, ledgerAttachmentBytes: 256 * 1024 },
    });
    api = { app: t.app, session: await signUp(t.app) };
    temp = t.app.files.tempDir;
    objects = join(dirname(temp), 'objects');
  });
  afterAll(() => t.close());

  it('stores a PDF on an invoice and serves it back: type by its bytes, disposition, nosniff, ranges', async () => {
    const entry = await createEntry(api);
    const bytes = pdfFile('Power bill March');
    const res = await attach(api, 'entries', entry.entryId, bytes, 'März Strom (1).bin');
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json<Attachment>();
    expect(made).toMatchObject({
      entryId: entry.entryId,
      paymentId: null,
      fileName: 'März Strom (1).bin',
      contentType: 'application/pdf',
      size: bytes.length,
      thumbnail: true,
    });
    const key = createHash('sha256').update(bytes).digest('hex');
    expect(filesUnder(objects).map((f) => f.slice(-64))).toContain(key);
    expect(filesUnder(temp)).toEqual([]);

    const list = await request(api, 'GET', `/entries/${entry.entryId}/attachments`);
    expect(list.statusCode).toBe(200);
    expect(list.json<AttachmentList>().attachments).toEqual([made]);
    expect(list.json<AttachmentList>().usedBytes).toBeGreaterThanOrEqual(bytes.length);

    const got = await request(api, 'GET', `/attachments/${made.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(bytes)).toBe(true);
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['accept-ranges']).toBe('bytes');
    expect(got.headers['content-disposition']).toBe(
      `inline; filename="M_rz Strom (1).bin.pdf"; filename*=UTF-8''M%C3%A4rz%20Strom%20%281%29.bin.pdf`,
    );
    const download = await request(api, 'GET', `/attachments/${made.id}?download=1`);
    expect(download.headers['content-disposition']).toMatch(/^attachment; /);

    const part = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachments/${made.id}`,
      headers: { ...api.session.headers, range: 'bytes=5-14' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 5-14/${bytes.length}`);
    expect(part.rawPayload.equals(bytes.subarray(5, 15))).toBe(true);
    const tail = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachments/${made.id}`,
      headers: { ...api.session.headers, range: 'bytes=-6' },
    });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(bytes.subarray(-6))).toBe(true);
    const outside = await t.app.inject({
      method: 'GET',
      url: `/api/v1/attachments/${made.id}`,
      headers: { ...api.session.headers, range: `bytes=${bytes.length}-` },
    });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${bytes.length}`);
  });

  // Each drawing starts a worker thread of its own: seconds each on a busy machine.
  it("draws thumbnails of pictures and of a PDF's first page once, in PNG, and a generic sheet for files it cannot draw", {
    timeout: 300_000,
  }, async () => {
    const entry = await createEntry(api);
    const photo = new Jimp({ width: 1000, height: 500, color: 0x2e7d32ff });
    for (const [mime, name] of [
      ['image/png', 'wide.png'],
      ['image/jpeg', 'wide.jpg'],
    ] as const) {
      const bytes = await photo.getBuffer(mime);
      const made = (await attach(api, 'entries', entry.entryId, bytes, name)).json<Attachment>();
      expect(made).toMatchObject({ contentType: mime, thumbnail: true });
      const thumb = await request(api, 'GET', `/attachments/${made.id}/thumbnail`);
      expect(thumb.statusCode, thumb.body).toBe(200);
      expect(thumb.headers['content-type']).toBe('image/png');
      const image = await Jimp.read(thumb.rawPayload);
      expect([image.width, image.height]).toEqual([320, 160]);
      const key = createHash('sha256').update(bytes).digest('hex');
      expect(filesUnder(objects).map((f) => f.slice(-70))).toContain(`${key}.thumb`);
      const again = await request(api, 'GET', `/attachments/${made.id}/thumbnail`);
      expect(again.rawPayload.equals(thumb.rawPayload)).toBe(true);
    }
    // A PDF's first page, drawn: a Letter page (612 × 792 points) fits 320 pixels high, white but for its text.
    const pdf = (await attach(api, 'entries', entry.entryId, pdfFile('THUMB THUMB THUMB'))).json<Attachment>();
    expect(pdf).toMatchObject({ contentType: 'application/pdf', thumbnail: true });
    const page = await request(api, 'GET', `/attachments/${pdf.id}/thumbnail`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['content-type']).toBe('image/png');
    const drawn = await Jimp.read(page.rawPayload);
    expect([drawn.width, drawn.height]).toEqual([247, 320]);
    let dark = 0;
    drawn.scan((_x, _y, at) => {
      if ((drawn.bitmap.data[at] ?? 255) < 128) dark++;
    });
    expect(dark).toBeGreaterThan(20);
    expect(drawn.getPixelColor(200, 300)).toBe(0xffffffff);
    // PDFs that cannot be drawn: garbage after the signature, a cut-off file.
    const broken = [
      Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 0xa5)]),
      pdfFile('cut off').subarray(0, 200),
    ];
    for (const [i, bytes] of broken.entries()) {
      const made = (await attach(api, 'entries', entry.entryId, bytes, `broken-${i}.pdf`)).json<Attachment>();
      const sheet = await request(api, 'GET', `/attachments/${made.id}/thumbnail`);
      expect(sheet.statusCode).toBe(200);
      expect(sheet.headers['content-type']).toBe('image/svg+xml');
      expect(sheet.body).toContain('>PDF<');
    }
    // A PNG whose header claims 40000 × 40000 pixels: never decoded.
    const bomb = Buffer.from(await new Jimp({ width: 4, height: 4, color: 0xffffffff }).getBuffer('image/png'));
    bomb.writeUInt32BE(40_000, 16);
    bomb.writeUInt32BE(40_000, 20);
    const claimed = (await attach(api, 'entries', entry.entryId, bomb, 'bomb.png')).json<Attachment>();
    const refused = await request(api, 'GET', `/attachments/${claimed.id}/thumbnail`);
    expect(refused.statusCode).toBe(200);
    expect(refused.headers['content-type']).toBe('image/svg+xml');
    expect(refused.body).toContain('>PNG<');
  });

  it('stores the same bytes once, however many items they are attached to', async () => {
    const bytes = pdfFile('Shared receipt');
    const before = filesUnder(objects).length;
    const a = await createEntry(api);
    const p = await createPayment(api);
    expect((await attach(api, 'entries', a.entryId, bytes, 'one.pdf')).statusCode).toBe(201);
    const second = await attach(api, 'payments', p.paymentId, bytes, 'two.pdf');
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json<Attachment>()).toMatchObject({ paymentId: p.paymentId, entryId: null, fileName: 'two.pdf' });
    expect(filesUnder(objects).length).toBe(before + 1);
    const list = await request(api, 'GET', `/payments/${p.paymentId}/attachments`);
    expect(list.json<AttachmentList>().attachments.map((x) => x.fileName)).toEqual(['two.pdf']);
  });

  it('tells the type by the bytes: a text file named .pdf is refused, a PNG named .txt is a PNG', async () => {
    const entry = await createEntry(api);
    const rows = await rowCount();
    const files = filesUnder(objects).length;
    const refused = await attach(api, 'entries', entry.entryId, Buffer.from('just text, not a PDF'), 'bill.pdf');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'ATTACHMENT_TYPE_NOT_ALLOWED' });
    const empty = await attach(api, 'entries', entry.entryId, Buffer.alloc(0), 'empty.pdf');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'INVALID_FILE' });
    expect(await rowCount()).toBe(rows);
    expect(filesUnder(objects).length).toBe(files);
    expect(filesUnder(temp)).toEqual([]);
    const png = await attach(api, 'entries', entry.entryId, PNG_1x1, 'notes.txt');
    expect(png.statusCode).toBe(201);
    expect(png.json<Attachment>()).toMatchObject({ contentType: 'image/png', thumbnail: true });
  });

  it('refuses a file over the size limit, announced or streamed, and storing nothing', async () => {
    const entry = await createEntry(api);
    const rows = await rowCount();
    const files = filesUnder(objects).length;
    const big = Buffer.concat([pdfFile('big'), Buffer.alloc(70 * 1024, 0x20)]);
    const announced = await attach(api, 'entries', entry.entryId, Buffer.concat([big, Buffer.alloc(64 * 1024)]));
    expect(announced.statusCode).toBe(413);
    expect(announced.json()).toMatchObject({ code: 'BODY_TOO_LARGE' });
    // Within the body's limit (file limit plus the form's room), so the file is refused while it streams.
    const streamed = await attach(api, 'entries', entry.entryId, big);
    expect(streamed.statusCode).toBe(413);
    expect(streamed.json()).toMatchObject({
      code: 'BODY_TOO_LARGE',
      message: 'The file is larger than the limit of 64 KiB.',
    });
    expect(await rowCount()).toBe(rows);
    expect(filesUnder(objects).length).toBe(files);
    expect(filesUnder(temp)).toEqual([]);
  });

  it("refuses what would pass the ledger's quota, before and after reading the body", async () => {
    const other: Api = { app: t.app, session: await signUp(t.app) };
    const entry = await createEntry(other);
    for (let i = 0; i < 4; i++) {
      const filler = Buffer.concat([pdfFile(`filler ${i}`), Buffer.alloc(60 * 1024, 0x20)]);
      expect((await attach(other, 'entries', entry.entryId, filler)).statusCode).toBe(201);
    }
    const rows = await rowCount();
    const files = filesUnder(objects).length;
    const over = Buffer.concat([pdfFile('one too many'), Buffer.alloc(20 * 1024, 0x20)]);
    const refused = await attach(other, 'entries', entry.entryId, over);
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toMatchObject({ code: 'ATTACHMENT_QUOTA_EXCEEDED' });
    expect(await rowCount()).toBe(rows);
    expect(filesUnder(objects).length).toBe(files);
    // Another ledger's quota is its own.
    const mine = await createEntry(api);
    expect((await attach(api, 'entries', mine.entryId, over)).statusCode).toBe(201);
  });

  it('answers 404 for an item of another ledger and for an unknown one, storing nothing', async () => {
    const stranger: Api = { app: t.app, session: await signUp(t.app) };
    const entry = await createEntry(api);
    const made = (await attach(api, 'entries', entry.entryId, pdfFile('private'))).json<Attachment>();
    const rows = await rowCount();
    expect((await attach(stranger, 'entries', entry.entryId, pdfFile('x'))).statusCode).toBe(404);
    expect((await attach(stranger, 'entries', 999_999, pdfFile('x'))).statusCode).toBe(404);
    expect((await request(stranger, 'GET', `/attachments/${made.id}`)).statusCode).toBe(404);
    expect((await request(stranger, 'GET', `/entries/${entry.entryId}/attachments`)).statusCode).toBe(404);
    expect((await request(stranger, 'DELETE', `/attachments/${made.id}`)).statusCode).toBe(404);
    expect(await rowCount()).toBe(rows);
  });

  it('refuses a body that is not one multipart file', async () => {
    const entry = await createEntry(api);
    const json = await request(api, 'POST', `/entries/${entry.entryId}/attachments`, { file: 'x' });
    expect(json.statusCode).toBe(400);
    const body = upload(pdfFile('cut'));
    const cut = await t.app.inject({
      method: 'POST',
      url: `/api/v1/entries/${entry.entryId}/attachments`,
      headers: { ...api.session.headers, ...body.headers },
      payload: body.payload.subarray(0, body.payload.length - 40),
    });
    expect(cut.statusCode).toBe(400);
    expect(filesUnder(temp)).toEqual([]);
  });

  it('follows its invoice and payment into the recycle bin and back', async () => {
    const entry = await createEntry(api);
    const payment = await createPayment(api, { entryId: entry.entryId });
    const onEntry = (await attach(api, 'entries', entry.entryId, pdfFile('recycled with invoice'))).json<Attachment>();
    const onPayment = (await attach(api, 'payments', payment.paymentId, pdfFile('with payment'))).json<Attachment>();
    await updatePayment(api, { paymentId: payment.paymentId, recycle: true });
    expect((await request(api, 'GET', `/attachments/${onPayment.id}`)).statusCode).toBe(404);
    expect((await request(api, 'GET', `/attachments/${onEntry.id}`)).statusCode).toBe(200);
    const intoBin = await attach(api, 'payments', payment.paymentId, pdfFile('late'));
    expect(intoBin.statusCode).toBe(409);
    expect(intoBin.json()).toMatchObject({ code: 'ITEM_READ_ONLY' });
    await updatePayment(api, { paymentId: payment.paymentId, recycle: false });
    expect((await request(api, 'GET', `/attachments/${onPayment.id}`)).statusCode).toBe(200);

    await editEntry(api, { entryId: entry.entryId, recycle: true });
    expect((await request(api, 'GET', `/attachments/${onEntry.id}`)).statusCode).toBe(404);
    expect((await request(api, 'GET', `/attachments/${onPayment.id}`)).statusCode).toBe(404);
    expect((await request(api, 'DELETE', `/attachments/${onEntry.id}`)).statusCode).toBe(404);
    expect((await request(api, 'GET', `/entries/${entry.entryId}/attachments`)).statusCode).toBe(404);
    const restored = await request(api, 'POST', '/recycle/restore', { entityType: 'Invoice', entityId: entry.entryId });
    expect(restored.statusCode, restored.body).toBe(200);
    const back = await request(api, 'GET', `/attachments/${onEntry.id}`);
    expect(back.statusCode).toBe(200);
    expect(back.rawPayload.equals(pdfFile('recycled with invoice'))).toBe(true);
    expect((await request(api, 'GET', `/attachments/${onPayment.id}`)).statusCode).toBe(200);
  });

  it('the list counts files and filters on them at once, its cached pages included (ADR 1143)', async () => {
    const me: Api = { app: t.app, session: await signUp(t.app) };
    const entry = await createEntry(me);
    const other = await createEntry(me);
    const payment = await createPayment(me, { entryId: other.entryId });
    // Read as a browser does (no `no-cache`): a page cached under an older data version must not come back.
    const list = async (query = '') => {
      const res = await me.app.inject({ method: 'GET', url: `/api/v1/entries?${query}`, headers: me.session.headers });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<{ entries: { entryId: number; attachmentCount: number }[]; total: number }>();
      return Object.fromEntries(body.entries.map((e) => [e.entryId, e.attachmentCount]));
    };
    expect(await list()).toEqual({ [entry.entryId]: 0, [other.entryId]: 0 });
    expect(await list('hasAttachment=true')).toEqual({});
    // The same bytes twice: two files on the list, one stored file, so the delete below leaves no orphan behind.
    const own = (await attach(me, 'entries', entry.entryId, pdfFile('counted twice'))).json<Attachment>();
    await attach(me, 'entries', entry.entryId, pdfFile('counted twice'));
    await attach(me, 'payments', payment.paymentId, pdfFile('counted 3'));
    expect(await list()).toEqual({ [entry.entryId]: 2, [other.entryId]: 1 });
    expect(await list('hasAttachment=false')).toEqual({});
    expect((await request(me, 'DELETE', `/attachments/${own.id}`)).statusCode).toBe(204);
    await updatePayment(me, { paymentId: payment.paymentId, recycle: true });
    expect(await list()).toEqual({ [entry.entryId]: 1, [other.entryId]: 0 });
    expect(await list('hasAttachment=false')).toEqual({ [other.entryId]: 0 });
    expect(await list('hasAttachment=true')).toEqual({ [entry.entryId]: 1 });
    // Restored, the payment brings its file back into the count (and out of the purge the next test runs).
    const back = await request(me, 'POST', '/recycle/restore', { entityType: 'Payment', entityId: payment.paymentId });
    expect(back.statusCode, back.body).toBe(200);
    expect(await list('hasAttachment=true')).toEqual({ [entry.entryId]: 1, [other.entryId]: 1 });
    const bad = await request(me, 'GET', '/entries?hasAttachment=maybe');
    expect(bad.statusCode).toBe(400);
  });

  it('removes an attachment for good; its file goes with the sweep once nothing shares it', async () => {
    const entry = await createEntry(api);
    const bytes = pdfFile('to be removed');
    const made = (await attach(api, 'entries', entry.entryId, bytes)).json<Attachment>();
    const gone = await request(api, 'DELETE', `/attachments/${made.id}`);
    expect(gone.statusCode).toBe(204);
    expect((await request(api, 'GET', `/attachments/${made.id}`)).statusCode).toBe(404);
    expect((await request(api, 'DELETE', `/attachments/${made.id}`)).statusCode).toBe(404);
    const swept = await sweepAttachmentFiles(t.app.db, t.app.files, { olderThan: Date.now() + 1, remove: true });
    expect(swept.orphans.map((o) => o.key)).toContain(createHash('sha256').update(bytes).digest('hex'));
    expect(filesUnder(objects).map((f) => f.slice(-64))).not.toContain(
      createHash('sha256').update(bytes).digest('hex'),
    );
  });
  it('deletes the files of purged items, keeps shared and young ones, and reports orphans and lost files', async () => {
    const shared = pdfFile('shared by a purged and a kept invoice');
    const alone = pdfFile('only on the purged invoice');
    const key = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    const purged = await createEntry(api);
    const kept = await createEntry(api);
    expect((await attach(api, 'entries', purged.entryId, shared)).statusCode).toBe(201);
    expect((await attach(api, 'entries', purged.entryId, alone)).statusCode).toBe(201);
    expect((await attach(api, 'entries', kept.entryId, shared)).statusCode).toBe(201);
    await editEntry(api, { entryId: purged.entryId, recycle: true });

    // While in the bin, its files are no orphans.
    const inBin = await sweepAttachmentFiles(t.app.db, t.app.files, { olderThan: Date.now() + 1, remove: false });
    expect(inBin.orphans.map((o) => o.key)).not.toContain(key(alone));

    t.clock.advance(RECYCLE_RETENTION + 1);
    await purgeRecycleBin(t.app.db, t.clock.now());
    const found = await sweepAttachmentFiles(t.app.db, t.app.files, { olderThan: Date.now() + 1, remove: false });
    expect(found.orphans.map((o) => o.key)).toEqual([key(alone)]);
    expect(found.removed).toBe(0);
    expect(filesUnder(objects).map((f) => f.slice(-64))).toContain(key(alone));
    // A young orphan (an upload between its file and its row) is left alone.
    const young = await sweepAttachmentFiles(t.app.db, t.app.files, { olderThan: Date.now() - 60_000, remove: true });
    expect(young.removed).toBe(0);
    const swept = await sweepAttachmentFiles(t.app.db, t.app.files, { olderThan: Date.now() + 1, remove: true });
    expect(swept.removed).toBe(1);
    const names = filesUnder(objects).map((f) => f.slice(-64));
    expect(names).not.toContain(key(alone));
    expect(names).toContain(key(shared));
    expect(swept.missing).toEqual([]);

    // A file lost outside the app is reported.
    await t.app.files.remove(key(shared));
    const lost = await sweepAttachmentFiles(t.app.db, t.app.files, { olderThan: Date.now() + 1, remove: false });
    expect(lost.missing).toEqual([key(shared)]);
  });
});
