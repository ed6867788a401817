import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { type AccountFile, type AccountFileAttachment, accountFileV6 } from '@billfold/contract/account-file';
import type { RecycleList } from '@billfold/contract/recycle';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { Jimp } from 'jimp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AccountDataRepository } from '../src/modules/account-data/account-data.repository.ts';
import { FILES_NOT_CARRIED } from '../src/modules/account-data/account-data.service.ts';
import { oneInvoiceFile } from './helpers/account-file.ts';
import { createTestApp, type Dialect, dialects, type TestApp } from './helpers/app.ts';
import { attach, filesUnder, pdfFile } from './helpers/attachments.ts';
import { type Api, createBill, createEntry, createPayment, editEntry, request } from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';
import { type RawEntry, rawTar } from './helpers/tar.ts';

/**
 * The ledger archive (docs/decisions/1160-ledger-archive.md): a ledger with attached files exports as a POSIX tar
 * of `ledger.json` and `files/<sha256>`, which imports on a server of the other database with every file's bytes;
 * a hostile archive is refused with a 4xx and stores nothing.
 */

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const other = (dialect: Dialect): Dialect => dialects.find((d) => d !== dialect) ?? dialect;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const userOf = async (t: TestApp): Promise<Api> => ({ app: t.app, session: await signUp(t.app) });

const pngOf = async (width: number, height: number) =>
  Buffer.from(await new Jimp({ width, height, color: 0x336699ff }).getBuffer('image/png'));

/** The body posted to the import as it is, whatever it holds. */
const importBody = (api: Api, payload: Buffer, type = 'application/x-tar') =>
  api.app.inject({
    method: 'POST',
    url: '/api/v1/account/import',
    headers: { ...api.session.headers, 'content-type': type },
    payload,
  });

async function exportArchive(api: Api): Promise<Buffer> {
  const res = await request(api, 'GET', '/account/export');
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/x-tar');
  expect(res.headers['content-disposition']).toMatch(
    /^attachment; filename="billfold-account-\d{4}-\d{2}-\d{2}\.tar"$/,
  );
  return res.rawPayload;
}

/** The archive unpacked by the system's tar (GNU tar): any tool reads it, not only ours. Entries by name. */
function untar(archive: Buffer): Map<string, Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'billfold-untar-'));
  try {
    writeFileSync(join(dir, 'ledger.tar'), archive);
    const out = join(dir, 'out');
    execFileSync('mkdir', [out]);
    execFileSync('tar', ['-xf', join(dir, 'ledger.tar'), '-C', out]);
    return new Map(filesUnder(out).map((path) => [relative(out, path), readFileSync(path)]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const withoutTime = (file: AccountFile) => ({ ...file, exportedAt: null });

describe.each(dialects)('the ledger archive from %s', (dialect) => {
  let source: TestApp;
  let target: TestApp;
  beforeAll(async () => {
    [source, target] = await Promise.all([createTestApp(dialect), createTestApp(other(dialect))]);
  });
  afterAll(async () => {
    await Promise.all([source.close(), target.close()]);
  });

  it(`round-trips into a fresh account on ${other(dialect)}: every attachment's bytes, the recycle bin's included`, async () => {
    const from = await userOf(source);
    const power = await createBill(from, { name: 'Power Co', category: 'Utilities' });
    const march = await createEntry(from, { billId: power.id, amount: 120.5 });
    const april = await createEntry(from, { billId: power.id, amount: 99 });
    const gone = await createEntry(from, { billId: power.id, amount: 10 });
    const paid = await createPayment(from, { entryId: march.entryId, amount: 120.5 });
    const bill = pdfFile('Power bill March');
    const slip = await pngOf(3, 2);
    const water = pdfFile('Water bill');
    const uploads: Array<[string, number, Buffer, string]> = [
      ['entries', march.entryId, bill, 'march.pdf'],
      // The same bytes twice: one file in the archive, two attachments.
      ['entries', april.entryId, bill, 'march copy.pdf'],
      ['payments', paid.paymentId, slip, 'slip.png'],
      ['entries', gone.entryId, water, 'water.pdf'],
    ];
    for (const [owner, id, bytes, name] of uploads)
      expect((await attach(from, owner as 'entries', id, bytes, name)).statusCode).toBe(201);
    await editEntry(from, { entryId: gone.entryId, recycle: true });

    const archive = await exportArchive(from);
    const entries = untar(archive);
    expect([...entries.keys()].sort()).toEqual(
      ['ledger.json', ...[bill, slip, water].map((b) => `files/${sha256(b)}`)].sort(),
    );
    for (const bytes of [bill, slip, water]) expect(entries.get(`files/${sha256(bytes)}`)).toEqual(bytes);
    const file = accountFileV6.parse(JSON.parse(String(entries.get('ledger.json'))));
    expect(file.version).toBe(6);
    expect(file.attachments.map((a) => [a.fileName, a.invoice, a.payment, a.contentType, a.size, a.sha256])).toEqual([
      ['march.pdf', 1, null, 'application/pdf', bill.length, sha256(bill)],
      ['march copy.pdf', 2, null, 'application/pdf', bill.length, sha256(bill)],
      ['slip.png', null, 1, 'image/png', slip.length, sha256(slip)],
      ['water.pdf', 3, null, 'application/pdf', water.length, sha256(water)],
    ]);

    const to = await userOf(target);
    // Told by its bytes, not by the type the client names.
    const res = await importBody(to, archive, 'application/json');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ entities: 1, invoices: 3, payments: 1, attachments: 4 });
    // Its own export is the same archive but for the time of export.
    const again = untar(await exportArchive(to));
    const copy = accountFileV6.parse(JSON.parse(String(again.get('ledger.json'))));
    expect(withoutTime(copy)).toEqual(withoutTime(file));
    for (const bytes of [bill, slip, water]) expect(again.get(`files/${sha256(bytes)}`)).toEqual(bytes);
    // And through the API: each attachment's bytes as the other server serves them (the recycled invoice restored).
    const [binned] = (await request(to, 'GET', '/recycle')).json<RecycleList>().recycleItems;
    expect(binned).toMatchObject({ entityType: 'Invoice' });
    const back = await request(to, 'POST', '/recycle/restore', { entityType: 'Invoice', entityId: binned?.entityId });
    expect(back.statusCode).toBe(200);
    const list = (await request(to, 'GET', '/entries?pageSize=100')).json<{
      entries: { entryId: number; attachmentCount: number }[];
    }>().entries;
    expect(list.map((e) => e.attachmentCount).sort()).toEqual([1, 1, 2]);
    const [ledger] = (await request(to, 'GET', '/ledgers')).json<{ ledgers: { id: number }[] }>().ledgers;
    const rows = await target.app.db
      .selectFrom('attachments')
      .select(['id', 'file_name'])
      .where('ledger_id', '=', ledger?.id as number)
      .execute();
    const served: Record<string, Buffer> = {};
    for (const row of rows) {
      const got = await request(to, 'GET', `/attachments/${row.id}`);
      expect(got.statusCode).toBe(200);
      served[row.file_name] = got.rawPayload;
    }
    expect(served).toEqual(Object.fromEntries(uploads.map(([, , bytes, name]) => [name, bytes])));
  });

  it('leaves out an attachment whose file the store lost, and the archive still imports with the others', async () => {
    const from = await userOf(source);
    const entry = await createEntry(from);
    const kept = pdfFile('kept bill');
    const lost = pdfFile('lost bill');
    await attach(from, 'entries', entry.entryId, kept, 'kept.pdf');
    await attach(from, 'entries', entry.entryId, lost, 'lost.pdf');
    await source.app.files.remove(sha256(lost));
    const entries = untar(await exportArchive(from));
    expect([...entries.keys()].sort()).toEqual([`files/${sha256(kept)}`, 'ledger.json'].sort());
    const file = accountFileV6.parse(JSON.parse(String(entries.get('ledger.json'))));
    expect(file.attachments.map((a) => a.fileName)).toEqual(['kept.pdf']);
    const to = await userOf(target);
    const res = await importBody(to, await exportArchive(from));
    expect(res.json()).toMatchObject({ invoices: 1, attachments: 1 });
  });

  it('refuses the ledger.json of an archive sent alone when its attachments name files (400, nothing stored)', async () => {
    const from = await userOf(source);
    const entry = await createEntry(from);
    await attach(from, 'entries', entry.entryId, pdfFile('alone'));
    const json = untar(await exportArchive(from)).get('ledger.json') as Buffer;
    const to = await userOf(target);
    const res = await importBody(to, json, 'application/json');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_FILE', message: FILES_NOT_CARRIED(1) });
    expect((await request(to, 'GET', '/entries')).json<{ total: number }>().total).toBe(0);
  });
});

/** Limits small enough for the fuzz's sizes to reach them. */
const LIMITS = { accountFileBytes: 64 * 1024, attachmentBytes: 16 * 1024, ledgerAttachmentBytes: 40 * 1024 };

describe.each(dialects)('hostile ledger archives on %s', (dialect) => {
  let t: TestApp;
  let victim: Api;
  let base: { file: AccountFile; entries: RawEntry[] };
  let stored: () => string[];
  beforeAll(async () => {
    t = await createTestApp(dialect, { limits: LIMITS });
    victim = await userOf(t);
    stored = () => filesUnder(dirname(t.app.files.tempDir));
    const pdf = pdfFile('Fuzzed bill');
    const png = await pngOf(2, 2);
    const row = (bytes: Buffer, contentType: AccountFileAttachment['contentType']) => ({
      fileName: 'bill',
      contentType,
      size: bytes.length,
      sha256: sha256(bytes),
      createdAt: '2026-01-07T00:00:00.000Z',
    });
    const file: AccountFile = {
      ...oneInvoiceFile(),
      attachments: [
        { invoice: 1, payment: null, ...row(pdf, 'application/pdf') },
        { invoice: null, payment: 1, ...row(png, 'image/png') },
      ],
    };
    base = {
      file,
      entries: [
        { name: 'ledger.json', body: Buffer.from(JSON.stringify(file)) },
        { name: `files/${sha256(pdf)}`, body: pdf },
        { name: `files/${sha256(png)}`, body: png },
      ],
    };
  });
  afterAll(() => t.close());

  const json = (file: AccountFile): RawEntry => ({ name: 'ledger.json', body: Buffer.from(JSON.stringify(file)) });
  const at = <T>(items: T[], i: number, item: T) => items.map((x, j) => (j === i ? item : x));
  const flip = (bytes: Buffer, i: number, by: number) => {
    const copy = Buffer.from(bytes);
    copy[i % copy.length] = (copy[i % copy.length] as number) ^ by;
    return copy;
  };
  /** The archives of each kind of attack, as generators over the valid base; shown by kind and size when one fails. */
  const attacks = () =>
    kinds().map(([kind, archive]) => ({
      kind,
      archive,
      [fc.toStringMethod]: () => `${kind}, ${archive.length} bytes`,
    }));
  const kinds = (): fc.Arbitrary<[string, Buffer]> => {
    const { file, entries } = base;
    const whole = rawTar(entries);
    const fileEntry = fc.integer({ min: 1, max: entries.length - 1 });
    const anyEntry = fc.integer({ min: 0, max: entries.length - 1 });
    const byte = fc.integer({ min: 1, max: 255 });
    const hex = (entries[1] as RawEntry).name.slice(6);
    return fc.oneof(
      fc.integer({ min: 1, max: whole.length - 1 }).map((n): [string, Buffer] => ['truncated', whole.subarray(0, n)]),
      fc.tuple(anyEntry, fc.integer({ min: 0, max: 511 }), byte).map(([e, i, by]): [string, Buffer] => {
        // A header byte changed (outside the checksum field): its checksum no longer matches.
        const offset = rawTar(entries.slice(0, e)).length - 1024 + (i >= 148 && i < 156 ? i + 8 : i);
        return ['header checksum', flip(whole, offset, by)];
      }),
      fc
        .tuple(
          anyEntry,
          fc.integer({ min: -3, max: 3 }).filter((n) => n !== 0),
        )
        .map(([e, off]): [string, Buffer] => [
          'checksum field',
          rawTar(at(entries, e, { ...(entries[e] as RawEntry), checksumOff: off })),
        ]),
      fc
        .tuple(
          fileEntry,
          fc.constantFrom(
            '../ledger.json',
            `/files/${hex}`,
            `files/../../${hex}`,
            `./files/${hex}`,
            `files/${hex.slice(1)}`,
            `files/${hex.toUpperCase()}`,
            `files/${hex}/x`,
            'ledger.json',
            'files/',
            `${'a/'.repeat(60)}files/${hex}`,
          ),
        )
        .map(([e, name]): [string, Buffer] => ['name', rawTar(at(entries, e, { ...(entries[e] as RawEntry), name }))]),
      fc
        .tuple(anyEntry, fc.constantFrom('1', '2', '3', '4', '5', '6', '7', 'x', 'g', 'L', 'K'))
        .map(([e, type]): [string, Buffer] => [
          'link or folder',
          rawTar(at(entries, e, { ...(entries[e] as RawEntry), type })),
        ]),
      fc.tuple(fileEntry, fc.nat(), byte).map(([e, i, by]): [string, Buffer] => {
        const entry = entries[e] as RawEntry;
        return ['bytes differ from hash', rawTar(at(entries, e, { ...entry, body: flip(entry.body, i, by) }))];
      }),
      fc.constant<[string, Buffer]>([
        'file no row names',
        rawTar([...entries, { name: `files/${'ab'.repeat(32)}`, body: pdfFile('stray') }]),
      ]),
      fc.constant<[string, Buffer]>([
        'file no row names, with its hash',
        (() => {
          const stray = pdfFile('stray');
          return rawTar([...entries, { name: `files/${sha256(stray)}`, body: stray }]);
        })(),
      ]),
      fileEntry.map((e): [string, Buffer] => ['row without its file', rawTar(entries.filter((_, j) => j !== e))]),
      fileEntry.map((e): [string, Buffer] => ['file twice', rawTar([...entries, entries[e] as RawEntry])]),
      fc.constant<[string, Buffer]>(['no ledger.json first', rawTar([...entries.slice(1), entries[0] as RawEntry])]),
      fc
        .tuple(
          anyEntry,
          fc.constantFrom('77777777777\0', '\x80\0\0\0\0\0\0\x01\0\0\0\0', '12x45670000\0', '        \0'),
        )
        .map(([e, sizeField]): [string, Buffer] => [
          'huge or bad size',
          rawTar(at(entries, e, { ...(entries[e] as RawEntry), sizeField })),
        ]),
      fc.integer({ min: LIMITS.attachmentBytes + 1, max: 2 ** 40 }).map((size): [string, Buffer] => {
        const rows = at(file.attachments, 0, { ...(file.attachments[0] as AccountFileAttachment), size });
        return ['row size over the limit', rawTar(at(entries, 0, json({ ...file, attachments: rows })))];
      }),
      fc.integer({ min: 6, max: 40 }).map((copies): [string, Buffer] => {
        // Each attachment counts in the quota, shared bytes or not.
        const row = { ...(file.attachments[0] as AccountFileAttachment), size: 8 * 1024 };
        const rows = Array.from({ length: copies }, () => row);
        return ['over the quota', rawTar(at(entries, 0, json({ ...file, attachments: rows })))];
      }),
      fc.constant<[string, Buffer]>([
        'type other than the row says',
        (() => {
          const rows = at(file.attachments, 1, {
            ...(file.attachments[1] as AccountFileAttachment),
            contentType: 'image/jpeg' as const,
          });
          return rawTar(at(entries, 0, json({ ...file, attachments: rows })));
        })(),
      ]),
      fc.constant<[string, Buffer]>([
        'a page, not a picture',
        (() => {
          const html = Buffer.from('<html><script>alert(1)</script></html>');
          const rows = at(file.attachments, 0, {
            ...(file.attachments[0] as AccountFileAttachment),
            size: html.length,
            sha256: sha256(html),
          });
          return rawTar([
            json({ ...file, attachments: rows }),
            { name: `files/${sha256(html)}`, body: html },
            entries[2] as RawEntry,
          ]);
        })(),
      ]),
      fc
        .uint8Array({ minLength: 1, maxLength: 600 })
        .map((tail): [string, Buffer] => [
          'bytes after the end',
          Buffer.concat([whole, Buffer.from(tail.some((b) => b !== 0) ? tail : [1])]),
        ]),
      fc.constant<[string, Buffer]>([
        'ledger.json not JSON',
        rawTar(at(entries, 0, { name: 'ledger.json', body: Buffer.from('{"format":') })),
      ]),
    );
  };

  it('answers every hostile archive with a 4xx JSON error and stores nothing; the archive they start from imports', async () => {
    const before = stored();
    const rows = async () => {
      const count = (table: 'bills' | 'attachments' | 'categories') =>
        t.app.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n));
      return [await count('bills'), await count('attachments'), await count('categories')];
    };
    const rowsBefore = await rows();
    const tally: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(attacks(), async ({ kind, archive }) => {
        const res: LightMyRequestResponse = await importBody(victim, archive);
        const label = `[seed ${SEED}] ${kind} → ${res.statusCode} ${res.body.slice(0, 200)}`;
        tally[`${kind} ${res.statusCode}`] = (tally[`${kind} ${res.statusCode}`] ?? 0) + 1;
        expect(res.statusCode, label).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, label).toBeLessThan(500);
        expect(res.json(), label).toMatchObject({ statusCode: res.statusCode, code: expect.any(String) });
        expect(stored(), label).toEqual(before);
        expect(await rows(), label).toEqual(rowsBefore);
      }),
      { numRuns: 80, seed: SEED, endOnFailure: true },
    );
    // Every kind of attack was drawn, and the same archive unharmed imports (so each refusal was the attack's).
    expect(Object.keys(tally).length, JSON.stringify(tally)).toBeGreaterThan(10);
    const res = await importBody(victim, rawTar(base.entries));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ invoices: 1, payments: 1, attachments: 2 });
    expect(stored().length).toBe(before.length + 2);
  });

  /** An archive of `file` whose attachments are `bodies`, each on the file's first attachment's invoice. */
  const archiveOf = (file: AccountFile, bodies: Buffer[]) => {
    const template = file.attachments[0] as AccountFileAttachment;
    const attachments = bodies.map((body) => ({ ...template, size: body.length, sha256: sha256(body) }));
    return rawTar([
      json({ ...file, attachments } as AccountFile),
      ...bodies.map((body) => ({ name: `files/${sha256(body)}`, body })),
    ]);
  };

  it('refuses a file with too many categories before it receives any of its files (409, nothing stored)', async () => {
    const crowded = await userOf(t);
    // An account with the most categories of its own allowed and nothing else: empty, so the files are received.
    const categories = Array.from({ length: 200 }, (_, i) => ({
      name: `Own ${i}`,
      flow: 'expense' as const,
      retired: false,
      createdAt: '2026-01-01T00:00:00.000Z',
    }));
    const empty = { ...oneInvoiceFile(), entities: [], invoices: [], payments: [], lastInvoiceNumber: 0, categories };
    expect((await request(crowded, 'POST', '/account/import', empty)).statusCode).toBe(200);
    const before = stored();
    const file = { ...base.file, categories: [{ ...categories[0], name: 'One more' }] } as AccountFile;
    const put = vi.spyOn(t.app.files, 'put');
    try {
      const res = await importBody(crowded, archiveOf(file, [pdfFile('Taken back')]));
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().code).toBe('TOO_MANY_CATEGORIES');
      expect(put).not.toHaveBeenCalled();
    } finally {
      put.mockRestore();
    }
    expect(stored()).toEqual(before);
  });

  it('takes the files back out of the store when the import then fails in its last step', async () => {
    const api = await userOf(t);
    const before = stored();
    // Another start removed the import's ledger under it: the last step finds nothing to take over.
    const lost = vi.spyOn(AccountDataRepository.prototype, 'takeOver').mockResolvedValueOnce(false);
    try {
      const res = await importBody(api, archiveOf(base.file, [pdfFile('Taken back at the end')]));
      expect(res.statusCode, res.body).toBe(503);
      expect(lost).toHaveBeenCalledTimes(1);
    } finally {
      lost.mockRestore();
    }
    expect(stored()).toEqual(before);
  });

  it('takes back the files it stored when storing a later one fails', async () => {
    const api = await userOf(t);
    const before = stored();
    const put = t.app.files.put.bind(t.app.files);
    let calls = 0;
    const failing = vi.spyOn(t.app.files, 'put').mockImplementation(async (key, temp, size) => {
      calls++;
      if (calls === 2) throw new Error('the store is full');
      await put(key, temp, size);
    });
    try {
      const res = await importBody(api, archiveOf(base.file, [pdfFile('Stored first'), pdfFile('Not stored')]));
      expect(res.statusCode).toBe(500);
      expect(calls).toBe(2);
    } finally {
      failing.mockRestore();
    }
    expect(stored()).toEqual(before);
  });
});
