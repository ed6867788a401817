/** Reading a bill to start an invoice: `/bill-readings` (docs/api/bill-readings.md). */
import { z } from 'zod';
import { isoDate, moneyOut } from './primitives.ts';

export const BILL_READING_STATES = ['reading', 'done', 'failed'] as const;

/** What was read off the bill; each field null when it was not found. */
export const billReadingResult = z.object({
  /** `text`: the PDF's own text; `ocr`: read off a photo or a scanned page. */
  source: z.enum(['text', 'ocr']),
  /** The language the bill seemed written in, which decides 03/04/2026's order. */
  language: z.enum(['en', 'de', 'fr']),
  amount: moneyOut.nullable(),
  date: isoDate.nullable(),
  dueDate: isoDate.nullable(),
  /** The ledger's entity whose name is on the bill (never one created for it). */
  billId: z.number().int().nullable(),
  billName: z.string().nullable(),
  /** The bill's first line with letters, usually the biller's name, to help pick or create the entity. */
  heading: z.string().nullable(),
});
export type BillReadingResult = z.infer<typeof billReadingResult>;

export const billReading = z.object({
  id: z.string(),
  state: z.enum(BILL_READING_STATES),
  /** 0 to 1. */
  progress: z.number(),
  /** Set once `state` is `done`. */
  result: billReadingResult.nullable(),
  /** Set when `state` is `failed`: why nothing could be read. */
  message: z.string().nullable(),
});
export type BillReading = z.infer<typeof billReading>;

/** The reading's id in its address: not a number (ids of stored rows are), but 32 hex digits. */
export const billReadingParams = z.object({ readingId: z.string().regex(/^[0-9a-f]{32}$/, 'must be a reading id') });
