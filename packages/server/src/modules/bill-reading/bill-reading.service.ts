import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import type { BillReading, BillReadingResult } from '@billfold/contract/bill-readings';
import { isValidIsoDate } from '@billfold/contract/dates';
import { fromCents } from '@billfold/contract/money';
import type { Actor } from '../../lib/actor.ts';
import { badRequest, notFound, tooManyRequests } from '../../lib/http-error.ts';
import { BUSY_RETRY_SECONDS } from '../../plugins/fairness.ts';
import type { ReceivedFile } from '../attachments/attachments.upload.ts';
import { sniffType } from '../attachments/file-types.ts';
import { READABLE_TYPES, type ReadText, readBillFile } from './bill-reader.ts';
import { BILL_READING_MESSAGES } from './bill-reading.messages.ts';
import type { BillReadingRepository } from './bill-reading.repository.ts';
import { readBillText } from './bill-text.ts';
import { matchEntity } from './entity-match.ts';

/** Readings one ledger may have waiting or running at once. */
export const READINGS_PER_LEDGER = 3;
/** Readings the server holds waiting or running at once, all ledgers together (they run one at a time). */
export const READINGS_WAITING = 20;
/** How long a finished reading can still be fetched. */
export const READING_KEPT_MS = 15 * 60_000;
/** The longest heading shown. */
const HEADING_CHARS = 120;

interface Reading {
  ledgerId: number;
  state: BillReading['state'];
  progress: number;
  result: BillReadingResult | null;
  message: string | null;
}

/** Reads a bill's file in a worker thread (`readBillFile`); a test hands its own to see the queue's behaviour. */
export type BillFileReader = typeof readBillFile;

/**
 * Readings of bills (docs/decisions/1148-reading-bills.md): a file is taken, answered with a reading's id at once,
 * and read in a worker thread, one reading at a time; the client asks for the reading until it is done. Readings
 * live in this process's memory only, for `READING_KEPT_MS` once finished: a reading stores nothing.
 */
export class BillReadingService {
  /** Keyed by the reading's random id (never a user's value). */
  private readonly readings = new Map<string, Reading>();
  private queue: Promise<void> = Promise.resolve();
  private waiting = 0;

  constructor(
    private readonly repo: BillReadingRepository,
    /** Where uploads are received: the attachment store's temp folder. */
    readonly tempDir: string,
    private readonly read: BillFileReader = readBillFile,
  ) {}

  /** Takes the received file (its temp file is gone afterwards) and starts reading it. */
  async start(actor: Actor, file: ReceivedFile): Promise<BillReading> {
    let bytes: Uint8Array;
    try {
      if (file.size === 0) throw badRequest(BILL_READING_MESSAGES.empty, 'INVALID_FILE');
      const type = sniffType(file.head);
      if (!type || !READABLE_TYPES.has(type))
        throw badRequest(BILL_READING_MESSAGES.wrongType, 'ATTACHMENT_TYPE_NOT_ALLOWED');
      this.checkRoom(actor.ledgerId);
      bytes = new Uint8Array(await readFile(file.tempFile));
      const id = randomBytes(16).toString('hex');
      const reading: Reading = { ledgerId: actor.ledgerId, state: 'reading', progress: 0, result: null, message: null };
      this.readings.set(id, reading);
      this.waiting++;
      this.queue = this.queue.then(() => this.run(reading, bytes, type));
      return this.view(id, reading);
    } finally {
      await rm(file.tempFile, { force: true });
    }
  }

  /** Before the body is read: whether the ledger and the server have room for one more reading. */
  checkRoom(ledgerId: number): void {
    let ledgers = 0;
    for (const reading of this.readings.values())
      if (reading.ledgerId === ledgerId && reading.state === 'reading') ledgers++;
    if (ledgers >= READINGS_PER_LEDGER)
      throw tooManyRequests(BUSY_RETRY_SECONDS, BILL_READING_MESSAGES.ledgerBusy(READINGS_PER_LEDGER), 'BUSY');
    if (this.waiting >= READINGS_WAITING)
      throw tooManyRequests(BUSY_RETRY_SECONDS, BILL_READING_MESSAGES.serverBusy, 'BUSY');
  }

  /** A reading of the ledger; 404 for one of another ledger, an unknown one, or one finished too long ago. */
  get(ledgerId: number, id: string): BillReading {
    const reading = this.readings.get(id);
    if (!reading || reading.ledgerId !== ledgerId) throw notFound(BILL_READING_MESSAGES.notFound);
    return this.view(id, reading);
  }

  /** Resolves once every reading taken so far has finished (tests and a graceful stop). */
  async idle(): Promise<void> {
    await this.queue;
  }

  private view(id: string, reading: Reading): BillReading {
    const { state, progress, result, message } = reading;
    return { id, state, progress: Math.round(progress * 100) / 100, result, message };
  }

  private async run(reading: Reading, bytes: Uint8Array, type: Parameters<BillFileReader>[1]): Promise<void> {
    try {
      const text = await this.read(bytes, type, (share) => {
        reading.progress = Math.max(reading.progress, Math.min(0.99, share));
      });
      if (!text) {
        reading.state = 'failed';
        reading.message = BILL_READING_MESSAGES.unreadable;
      } else {
        reading.result = await this.fields(reading.ledgerId, text);
        reading.state = 'done';
      }
    } catch {
      reading.state = 'failed';
      reading.message = BILL_READING_MESSAGES.unreadable;
    } finally {
      reading.progress = 1;
      this.waiting--;
      // Forgotten a while after it ends; the timer does not keep the process up.
      for (const [id, r] of this.readings)
        if (r === reading) setTimeout(() => this.readings.delete(id), READING_KEPT_MS).unref();
    }
  }

  /** The form's fields from the bill's text, the entity matched among the ledger's own. */
  private async fields(ledgerId: number, read: ReadText): Promise<BillReadingResult> {
    const fields = readBillText(read.text);
    const entity = matchEntity(read.text, await this.repo.entities(ledgerId));
    const date = (value: string | null) => (value && isValidIsoDate(value) ? value : null);
    return {
      source: read.source,
      language: fields.language,
      amount: fields.amount === null ? null : fromCents(fields.amount),
      date: date(fields.date),
      dueDate: date(fields.dueDate),
      billId: entity?.id ?? null,
      billName: entity?.name ?? null,
      heading: fields.heading ? cleanHeading(fields.heading) : null,
    };
  }
}

/** A heading as shown: no control characters, at most `HEADING_CHARS` characters. */
function cleanHeading(text: string): string | null {
  const clean = text.replace(/\p{C}+/gu, ' ').trim();
  return clean ? Array.from(clean).slice(0, HEADING_CHARS).join('') : null;
}
