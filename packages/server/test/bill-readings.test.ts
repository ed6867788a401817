import type { BillReading } from '@billfold/contract/bill-readings';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READINGS_PER_LEDGER } from '../src/modules/bill-reading/bill-reading.service.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { filesUnder, pdfFile, upload } from './helpers/attachments.ts';
import { type Api, createBill, request } from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';

/** `POST /bill-readings` and `GET /bill-readings/{readingId}` (docs/api/bill-readings.md), on real files and both databases. */

function post(api: Api, content: Buffer, name = 'bill.pdf') {
  const body = upload(content, name);
  return api.app.inject({
    method: 'POST',
    url: '/api/v1/bill-readings',
    headers: { ...api.session.headers, ...body.headers },
    payload: body.payload,
  });
}

/** Asks for the reading until it is no longer `reading`. */
async function finished(api: Api, id: string): Promise<BillReading> {
  for (;;) {
    const res = await request(api, 'GET', `/bill-readings/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    const reading = res.json<BillReading>();
    if (reading.state !== 'reading') return reading;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A photo of a bill: black text on white, drawn at about 200 dots per inch. */
function photo(lines: string[]): Buffer {
  const canvas = createCanvas(1400, 120 + lines.length * 70);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = '#000000';
  context.font = '44px sans-serif';
  lines.forEach((line, i) => {
    context.fillText(line, 60, 100 + i * 70);
  });
  return canvas.toBuffer('image/png');
}

// Each reading starts a worker thread; on a busy machine that takes seconds.
describe.each(dialects)('bill readings (%s)', { timeout: 180_000 }, (dialect) => {
  let t: TestApp;
  let api: Api;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    api = { app: t.app, session: await signUp(t.app) };
  });
  afterAll(() => t.close());

  it("reads a PDF's text: amount, dates and the ledger's entity, without creating one", async () => {
    const power = await createBill(api, { name: 'Stadtwerke Musterstadt' });
    await createBill(api, { name: 'Musterstadt Wasser' });
    const bills = Number(
      (
        await t.app.db
          .selectFrom('bills')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const res = await post(
      api,
      pdfFile(
        [
          'Stadtwerke Musterstadt GmbH',
          'Rechnung Nr. 2026-0042',
          'Rechnungsdatum: 15.03.2026',
          'Leistungszeitraum 01.02.2026 - 28.02.2026',
          'Nettobetrag 1.037,44 EUR',
          'MwSt. 19 % 197,12 EUR',
          'Rechnungsbetrag 1.234,56 EUR',
          'Zahlbar bis 29.03.2026',
        ].join('\n'),
      ),
    );
    expect(res.statusCode, res.body).toBe(202);
    const started = res.json<BillReading>();
    expect(started).toMatchObject({ state: 'reading', result: null, message: null });
    expect(started.id).toMatch(/^[0-9a-f]{32}$/);
    const reading = await finished(api, started.id);
    expect(reading).toEqual({
      id: started.id,
      state: 'done',
      progress: 1,
      message: null,
      result: {
        source: 'text',
        language: 'de',
        amount: 1234.56,
        date: '2026-03-15',
        dueDate: '2026-03-29',
        billId: power.id,
        billName: 'Stadtwerke Musterstadt',
        heading: 'Stadtwerke Musterstadt GmbH',
      },
    });
    // Nothing stored: no entity made, no upload left behind.
    const after = Number(
      (
        await t.app.db
          .selectFrom('bills')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(after).toBe(bills);
    expect(filesUnder(t.app.files.tempDir)).toEqual([]);
  });

  it('matches no entity when none is named on the bill, and says nothing was read from a broken PDF', async () => {
    const res = await post(
      api,
      pdfFile('Unknown Utility Ltd\nAmount due: $42.10\nInvoice date: 03/04/2026\nDue date: 03/20/2026'),
    );
    const reading = await finished(api, res.json<BillReading>().id);
    expect(reading.result).toMatchObject({
      amount: 42.1,
      date: '2026-03-04',
      dueDate: '2026-03-20',
      billId: null,
      billName: null,
    });

    const broken = await post(api, Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3000, 0x5a)]));
    expect(broken.statusCode).toBe(202);
    const failed = await finished(api, broken.json<BillReading>().id);
    expect(failed).toMatchObject({ state: 'failed', result: null, progress: 1 });
    expect(failed.message).toMatch(/Nothing could be read/);
  });

  it('refuses what it cannot read, before reading, with nothing kept', async () => {
    const webp = Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBPVP8 '), Buffer.alloc(64)]);
    for (const [bytes, code] of [
      [webp, 'ATTACHMENT_TYPE_NOT_ALLOWED'],
      [Buffer.from('hello, not a bill'), 'ATTACHMENT_TYPE_NOT_ALLOWED'],
      [Buffer.alloc(0), 'INVALID_FILE'],
    ] as const) {
      const res = await post(api, bytes);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, code });
    }
    const plain = await api.app.inject({
      method: 'POST',
      url: '/api/v1/bill-readings',
      headers: { ...api.session.headers, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(plain.statusCode).toBe(400);
    expect(filesUnder(t.app.files.tempDir)).toEqual([]);
  });

  it.runIf(dialect === 'sqlite')('reads a photo by OCR, offline', { timeout: 180_000 }, async () => {
    const water = await createBill(api, { name: 'Eaux de Lyon' });
    const res = await post(
      api,
      photo(['EAUX DE LYON', 'Facture du 02/03/2026', 'Montant TTC : 87,40 EUR', 'Echeance : 20/03/2026']),
      'photo.png',
    );
    expect(res.statusCode, res.body).toBe(202);
    const reading = await finished(api, res.json<BillReading>().id);
    expect(reading.result).toEqual({
      source: 'ocr',
      language: 'fr',
      amount: 87.4,
      date: '2026-03-02',
      dueDate: '2026-03-20',
      billId: water.id,
      billName: 'Eaux de Lyon',
      heading: 'EAUX DE LYON',
    });
  });

  // Last: it waits for several readings, one after another (each in a worker thread of its own).
  it('keeps each reading to its ledger, and at most a few unfinished per ledger', { timeout: 600_000 }, async () => {
    const stranger = { app: t.app, session: await signUp(t.app) };
    const started = [];
    for (let i = 0; i < READINGS_PER_LEDGER; i++) started.push(await post(api, pdfFile(`Total ${i + 1}.00`)));
    expect(started.map((r) => r.statusCode)).toEqual(Array(READINGS_PER_LEDGER).fill(202));
    const refused = await post(api, pdfFile('Total 9.00'));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'BUSY' });
    expect(refused.headers['retry-after']).toBeDefined();
    const id = started[0]?.json<BillReading>().id;
    expect((await request(stranger, 'GET', `/bill-readings/${id}`)).statusCode).toBe(404);
    expect((await request(api, 'GET', `/bill-readings/${'0'.repeat(32)}`)).json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await request(api, 'GET', '/bill-readings/nope')).statusCode).toBe(400);
    // Another ledger is not held up by this one's readings.
    const other = await post(stranger, pdfFile('Total 5.00'));
    expect(other.statusCode).toBe(202);
    // Each ends: read with its own amount, or (on a machine so loaded that a reading passes its time limit) failed in
    // words.
    for (const [i, r] of started.entries()) {
      const reading = await finished(api, r.json<BillReading>().id);
      if (reading.state === 'done') expect(reading.result?.amount).toBe(i + 1);
      else expect(reading).toMatchObject({ state: 'failed', message: expect.stringMatching(/Nothing could be read/) });
    }
    const theirs = await finished(stranger, other.json<BillReading>().id);
    expect(theirs.state === 'failed' || theirs.result?.amount === 5, JSON.stringify(theirs)).toBe(true);
  });
});
