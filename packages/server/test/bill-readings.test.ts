import type { BillReading } from '@billfold/contract/bill-readings';
import { createCanvas } from '@napi-rs/canvas';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeAccounts } from '../src/jobs/purge.ts';
import { BILL_READING_MESSAGES } from '../src/modules/bill-reading/bill-reading.messages.ts';
import {
  type BillFileReader,
  READING_KEPT_MS,
  READING_TURN_MS,
  READINGS_PER_LEDGER,
} from '../src/modules/bill-reading/bill-reading.service.ts';
import { createTestApp, dialects, secondProcess, type TestApp } from './helpers/app.ts';
import { filesUnder, pdfFile, upload } from './helpers/attachments.ts';
import { type Api, createBill, request } from './helpers/domain.ts';
import { signIn, signUp } from './helpers/factories.ts';
import { rowCount } from './security/database-state.ts';

/**
 * `POST /bill-readings` and `GET /bill-readings/{readingId}` (docs/api/bill-readings.md), on real files and both
 * databases, with a second instance of the app on the same database standing for another server process.
 */

function post(api: Api, content: Buffer, name = 'bill.pdf') {
  const body = upload(content, name);
  return api.app.inject({
    method: 'POST',
    url: '/api/v1/bill-readings',
    headers: { ...api.session.headers, ...body.headers },
    payload: body.payload,
  });
}

/** Asks for the reading (on `api`'s app, or another process's) until it is no longer `reading`. */
async function finished(api: Api, id: string): Promise<BillReading> {
  for (;;) {
    const res = await request(api, 'GET', `/bill-readings/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    const reading = res.json<BillReading>();
    if (reading.state !== 'reading') return reading;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A photo of a bill: black text on white, as small as OCR reads reliably (text 32 pixels high). */
function photo(lines: string[]): Buffer {
  const canvas = createCanvas(720, 60 + lines.length * 50);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = '#000000';
  context.font = '32px sans-serif';
  lines.forEach((line, i) => {
    context.fillText(line, 30, 60 + i * 50);
  });
  return canvas.toBuffer('image/png');
}

/** A reader that never ends a reading by itself, as a process that stops mid-reading: only the process's stop ends it. */
const stalled: BillFileReader = (_bytes, _type, _progress, options) =>
  new Promise((resolve) => {
    if (options?.signal?.aborted) resolve(null);
    options?.signal?.addEventListener('abort', () => resolve(null));
  });

// Each reading starts a worker thread; on a busy machine that takes seconds.
describe.each(dialects)('bill readings (%s)', { timeout: 180_000 }, (dialect) => {
  let t: TestApp;
  let api: Api;
  /** Another server process on the same database. */
  let other: Api;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    api = { app: t.app, session: await signUp(t.app) };
    other = { app: await secondProcess(t), session: api.session };
  });
  afterAll(async () => {
    await other.app.close();
    await t.close();
  });

  it("reads a PDF's text: amount, dates and the ledger's entity, without creating one; another process answers", async () => {
    const power = await createBill(api, { name: 'Stadtwerke Musterstadt' });
    await createBill(api, { name: 'Musterstadt Wasser' });
    const bills = await rowCount(t.app.db, 'bills');
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
    // Asked for on the other process, as behind a proxy that sends each request anywhere: it answers from the
    // database what the process that took the file read.
    const reading = await finished(other, started.id);
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
    expect(await rowCount(t.app.db, 'bills')).toBe(bills);
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

  it('reads the files it holds one after another, each to its own result', async () => {
    const first = await post(api, pdfFile('Total 1.00'));
    const second = await post(api, pdfFile('Total 2.00'));
    expect([first.statusCode, second.statusCode]).toEqual([202, 202]);
    // Each ends: read with its own amount, or (on a machine so loaded that a reading passes its time limit) failed in
    // words.
    for (const [i, r] of [first, second].entries()) {
      const reading = await finished(i === 0 ? other : api, r.json<BillReading>().id);
      if (reading.state === 'done') expect(reading.result?.amount).toBe(i + 1);
      else expect(reading).toMatchObject({ state: 'failed', message: BILL_READING_MESSAGES.unreadable });
    }
  });

  // Last: it moves the clock past readings' deadlines and their keeping.
  it("counts a ledger's unfinished readings on every process, fails those of a process that stopped, and forgets them", async () => {
    const owner = { app: t.app, session: await signUp(t.app) };
    const stranger = { app: t.app, session: await signUp(t.app) };
    // A process whose readings never end by themselves: it took the files, then (as far as they go) died.
    const stalledProcess: FastifyInstance = await secondProcess(t, {}, { readBill: stalled });
    const onStalled = { app: stalledProcess, session: owner.session };
    let closed = false;
    let ids: string[] = [];
    try {
      const taken = [];
      for (let i = 0; i < READINGS_PER_LEDGER; i++) taken.push(await post(onStalled, pdfFile(`Total ${i + 1}.00`)));
      expect(taken.map((r) => r.statusCode)).toEqual(Array(READINGS_PER_LEDGER).fill(202));
      ids = taken.map((r) => r.json<BillReading>().id);
      // The ledger's limit counts the other process's readings.
      const refused = await post(owner, pdfFile('Total 9.00'));
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 'BUSY' });
      expect(refused.headers['retry-after']).toBeDefined();
      expect((await request(owner, 'GET', `/bill-readings/${ids[0]}`)).json()).toMatchObject({ state: 'reading' });
      // Each reading stays in its ledger; an unknown or malformed id is refused.
      expect((await request(stranger, 'GET', `/bill-readings/${ids[0]}`)).statusCode).toBe(404);
      expect((await request(owner, 'GET', `/bill-readings/${'0'.repeat(32)}`)).json()).toMatchObject({
        code: 'NOT_FOUND',
      });
      expect((await request(owner, 'GET', '/bill-readings/nope')).statusCode).toBe(400);

      // Past the first one's deadline (one turn; the others wait for it), it is failed in words on every process,
      // no longer counts, and a new file is taken.
      t.clock.advance(READING_TURN_MS);
      const overdue = await request(owner, 'GET', `/bill-readings/${ids[0]}`);
      expect(overdue.json()).toEqual({
        id: ids[0],
        state: 'failed',
        progress: 1,
        result: null,
        message: BILL_READING_MESSAGES.stopped,
      });
      expect((await request(onStalled, 'GET', `/bill-readings/${ids[0]}`)).json()).toMatchObject({ state: 'failed' });
      expect((await request(owner, 'GET', `/bill-readings/${ids[1]}`)).json()).toMatchObject({ state: 'reading' });
      const retaken = await post(owner, pdfFile('Total 7.00'));
      expect(retaken.statusCode, retaken.body).toBe(202);
      expect((await finished(owner, retaken.json<BillReading>().id)).state).toMatch(/^(done|failed)$/);

      // A process that stops as it should fails every reading it holds at once.
      closed = true;
      await stalledProcess.close();
      for (const id of ids.slice(1))
        expect((await request(owner, 'GET', `/bill-readings/${id}`)).json()).toMatchObject({
          state: 'failed',
          message: BILL_READING_MESSAGES.stopped,
        });
    } finally {
      if (!closed) await stalledProcess.close();
    }

    // Forgotten after their keeping time: 404, and the hourly purge deletes their rows.
    expect(await rowCount(t.app.db, 'bill_readings')).toBeGreaterThan(0);
    t.clock.advance(READING_KEPT_MS);
    // Signed in again: the access token has expired meanwhile.
    const later = { app: t.app, session: await signIn(t.app, owner.session) };
    expect((await request(later, 'GET', `/bill-readings/${ids[0]}`)).json()).toMatchObject({ code: 'NOT_FOUND' });
    await purgeAccounts(t.app.db, t.clock.now());
    expect(await rowCount(t.app.db, 'bill_readings')).toBe(0);
  });
});
