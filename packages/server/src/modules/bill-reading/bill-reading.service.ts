import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { type BillReading, type BillReadingResult, billReadingResult } from '@billfold/contract/bill-readings';
import { isValidIsoDate } from '@billfold/contract/dates';
import { fromCents } from '@billfold/contract/money';
import type { FastifyBaseLogger } from 'fastify';
import type { Actor } from '../../lib/actor.ts';
import { badRequest, notFound, tooManyRequests } from '../../lib/http-error.ts';
import { BUSY_RETRY_SECONDS } from '../../plugins/fairness.ts';
import type { ReceivedFile } from '../attachments/attachments.upload.ts';
import { sniffType } from '../attachments/file-types.ts';
import { READABLE_TYPES, READING_TIMEOUT_MS, type ReadText, readBillFile } from './bill-reader.ts';
import { BILL_READING_MESSAGES } from './bill-reading.messages.ts';
import type { BillReadingRepository, BillReadingRow, ReadingEnd } from './bill-reading.repository.ts';
import { readBillText } from './bill-text.ts';
import { type EntityCandidate, matchEntity } from './entity-match.ts';

/** Readings one ledger may have waiting or running at once, on all server processes together. */
export const READINGS_PER_LEDGER = 3;
/** Readings one server process holds waiting or running at once, all ledgers together (they run one at a time). */
export const READINGS_WAITING = 20;
/** How long a finished reading can still be fetched. */
export const READING_KEPT_MS = 15 * 60_000;
/**
 * The longest a reading can take once its turn comes: its worker's time limit, and a margin for matching the
 * entity and writing the result. An unfinished reading past its turns' worth (`deadline_at`) is failed: the process
 * reading it stopped.
 */
export const READING_TURN_MS = READING_TIMEOUT_MS + 30_000;
/** Progress is written when it has moved this much (hundredths): a few writes a reading. */
const PROGRESS_STEP = 10;

/** Reads a bill's file in a worker thread (`readBillFile`); a test hands its own to see the queue's behaviour. */
export type BillFileReader = typeof readBillFile;

/**
 * Readings of bills (docs/decisions/1148-reading-bills.md, 1165-readings-in-the-database.md): a file is taken,
 * answered with a reading's id at once, and read in a worker thread of the process that took it, one reading at a
 * time; the reading's row in the database carries its progress and then what was read, so any process answers the
 * client asking for it. A finished reading is kept `READING_KEPT_MS`; an unfinished one past its deadline is failed.
 */
export class BillReadingService {
  private queue: Promise<void> = Promise.resolve();
  private waiting = 0;
  /** Aborted when the process stops: the running reading's worker ends, and every waiting reading fails. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly repo: BillReadingRepository,
    /** Where uploads are received: the attachment store's temp folder. */
    readonly tempDir: string,
    private readonly now: () => number,
    private readonly log: FastifyBaseLogger,
    private readonly read: BillFileReader = readBillFile,
  ) {}

  /** Takes the received file (its temp file is gone afterwards) and starts reading it. */
  async start(actor: Actor, file: ReceivedFile): Promise<BillReading> {
    try {
      if (file.size === 0) throw badRequest(BILL_READING_MESSAGES.empty, 'INVALID_FILE');
      const type = sniffType(file.head);
      if (!type || !READABLE_TYPES.has(type))
        throw badRequest(BILL_READING_MESSAGES.wrongType, 'ATTACHMENT_TYPE_NOT_ALLOWED');
      this.checkProcessRoom();
      const bytes = new Uint8Array(await readFile(file.tempFile));
      const now = this.now();
      // Its deadline counts every reading this process holds before it, one turn each.
      const deadline = now + (this.waiting + 1) * READING_TURN_MS;
      const row: BillReadingRow = {
        id: randomBytes(16).toString('hex'),
        ledger_id: actor.ledgerId,
        user_id: actor.userId,
        state: 'reading',
        progress: 0,
        result: null,
        message: null,
        created_at: now,
        deadline_at: deadline,
        expires_at: deadline + READING_KEPT_MS,
      };
      // The ledger's count and the new row in one transaction under the ledger's lock: two processes taking a
      // reading at once cannot both pass the limit.
      await this.repo.transaction(async (repo) => {
        await repo.lockLedgerRow(actor.ledgerId);
        await this.checkLedgerRoom(repo, actor.ledgerId);
        await repo.insert(row);
      });
      this.waiting++;
      this.queue = this.queue.then(() => this.run(row, bytes, type));
      return view(row);
    } finally {
      await rm(file.tempFile, { force: true });
    }
  }

  /** Before the body is read: whether the ledger and this process have room for one more reading. */
  async checkRoom(ledgerId: number): Promise<void> {
    this.checkProcessRoom();
    await this.checkLedgerRoom(this.repo, ledgerId);
  }

  /** A reading of the ledger; 404 for one of another ledger, an unknown one, or one finished too long ago. */
  async get(ledgerId: number, id: string): Promise<BillReading> {
    const now = this.now();
    const row = await this.repo.find(ledgerId, id, now);
    if (!row) throw notFound(BILL_READING_MESSAGES.notFound);
    if (row.state === 'reading' && row.deadline_at <= now) {
      // The process reading it stopped (or the client asks the moment it is due): failed, for every process.
      await this.repo.end(id, this.failure(BILL_READING_MESSAGES.stopped), now);
      const ended = await this.repo.find(ledgerId, id, now);
      if (ended) return view(ended);
    }
    return view(row);
  }

  /** Resolves once every reading taken so far has finished (tests). */
  async idle(): Promise<void> {
    await this.queue;
  }

  /**
   * When the process stops, before the database closes: the running reading's worker is ended and every reading
   * this process holds is failed, so none is left unfinished for a client to wait on.
   */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.queue;
  }

  private checkProcessRoom(): void {
    if (this.waiting >= READINGS_WAITING)
      throw tooManyRequests(BUSY_RETRY_SECONDS, BILL_READING_MESSAGES.serverBusy, 'BUSY');
  }

  private async checkLedgerRoom(repo: BillReadingRepository, ledgerId: number): Promise<void> {
    if ((await repo.unfinished(ledgerId, this.now())) >= READINGS_PER_LEDGER)
      throw tooManyRequests(BUSY_RETRY_SECONDS, BILL_READING_MESSAGES.ledgerBusy(READINGS_PER_LEDGER), 'BUSY');
  }

  private failure(message: string): ReadingEnd {
    return { state: 'failed', result: null, message, expiresAt: this.now() + READING_KEPT_MS };
  }

  /** Reads one bill in its turn and writes how it ended; never throws (the queue goes on). */
  private async run(row: BillReadingRow, bytes: Uint8Array, type: Parameters<BillFileReader>[1]): Promise<void> {
    const signal = this.stopping.signal;
    let end: ReadingEnd;
    try {
      if (signal.aborted) {
        end = this.failure(BILL_READING_MESSAGES.stopped);
      } else {
        const started = this.now();
        await this.repo.started(row.id, started + READING_TURN_MS, started + READING_TURN_MS + READING_KEPT_MS);
        let written = 0;
        const text = await this.read(
          bytes,
          type,
          (share) => {
            const progress = Math.round(Math.min(0.99, share) * 100);
            if (progress - written < PROGRESS_STEP) return;
            written = progress;
            this.repo.progress(row.id, progress).catch((err: unknown) => this.log.warn({ err }, 'bill reading'));
          },
          { signal },
        );
        if (signal.aborted) end = this.failure(BILL_READING_MESSAGES.stopped);
        else if (!text) end = this.failure(BILL_READING_MESSAGES.unreadable);
        else {
          const result = await this.fields(row.ledger_id, text);
          end = {
            state: 'done',
            result: JSON.stringify(result),
            message: null,
            expiresAt: this.now() + READING_KEPT_MS,
          };
        }
      }
    } catch (err) {
      this.log.warn({ err }, 'bill reading failed');
      end = this.failure(BILL_READING_MESSAGES.unreadable);
    }
    try {
      await this.repo.end(row.id, end);
    } catch (err) {
      // Its deadline fails it for whoever asks.
      this.log.error({ err }, 'bill reading: the result could not be written');
    } finally {
      this.waiting--;
    }
  }

  /** The form's fields from the bill's text, the entity matched among the ledger's own. */
  private async fields(ledgerId: number, read: ReadText): Promise<BillReadingResult> {
    return readingResult(read, await this.repo.entities(ledgerId));
  }
}

/**
 * What a reading suggests from a bill's text, the entity matched among `entities`. Its `heading` passes the
 * contract's rule for the field it suggests, the entity name (`suggestedName` in bill-text.ts); `billName` is the
 * matched entity's own stored name.
 */
export function readingResult(read: ReadText, entities: readonly EntityCandidate[]): BillReadingResult {
  const fields = readBillText(read.text);
  const entity = matchEntity(read.text, entities);
  const date = (value: string | null) => (value && isValidIsoDate(value) ? value : null);
  return {
    source: read.source,
    language: fields.language,
    amount: fields.amount === null ? null : fromCents(fields.amount),
    date: date(fields.date),
    dueDate: date(fields.dueDate),
    billId: entity?.id ?? null,
    billName: entity?.name ?? null,
    heading: fields.heading,
  };
}

/** A reading as the API shows it. */
function view(row: BillReadingRow): BillReading {
  return {
    id: row.id,
    state: row.state,
    progress: row.progress / 100,
    result: row.result === null ? null : billReadingResult.parse(JSON.parse(row.result)),
    message: row.message,
  };
}
