/** The building blocks every resource's schemas use: text, names, ids, dates, money, query values, errors. */
import { z } from 'zod';
import { isValidIsoDate, MAX_DATE, MIN_DATE } from './dates.ts';
import { errorCodes } from './error-codes.ts';
import { MAX_CENTS, toCents } from './money.ts';
import { plainMessages } from './plain-messages.ts';
import { nameProblem, textProblem } from './text-rules.ts';
import { MESSAGES } from './validation.ts';

// zod's own messages in plain words, wherever the contract's schemas run (server and browser).
z.config({ customError: plainMessages });

/** Refuses text that `problem` names a reason for, with that reason as the message. */
export const checkedBy = (problem: (value: string) => string | null) => (value: string, ctx: z.RefinementCtx) => {
  const message = problem(value);
  if (message) ctx.addIssue({ code: 'custom', message });
};

/** Trimmed free text of at most `max` characters (docs/decisions/0102-text-characters.md). */
export const text = (max: number) =>
  z
    .string()
    .transform((s) => s.trim())
    .pipe(z.string().max(max, `must be at most ${max} characters`).superRefine(checkedBy(textProblem)));

/** A trimmed name of at most `max` characters, in Unicode's composed form, with nothing invisible in it. */
export const nameText = (max: number) =>
  z
    .string()
    .transform((s) => s.trim().normalize('NFC'))
    .pipe(z.string().max(max, `must be at most ${max} characters`).superRefine(checkedBy(nameProblem)));

/**
 * A file name as stored and shown (an attachment's, a CSV import's): under the name rules, at most 255 characters,
 * not empty. The server keeps the last path segment of the name a client sends (server lib/file-names.ts).
 */
export const fileNameText = nameText(255).pipe(z.string().min(1, 'must not be empty'));

const ID_TEXT = /^[1-9]\d{0,15}$/;
const toId = (v: unknown) => (typeof v === 'string' && ID_TEXT.test(v.trim()) ? Number(v.trim()) : v);
const ID_MESSAGE = 'must be a positive whole number (1, 2, 3, …)';

/** A positive integer id; numeric strings are accepted because existing clients send route params as text. */
export const id = z.preprocess(
  toId,
  z.number(ID_MESSAGE).int(ID_MESSAGE).positive(ID_MESSAGE).max(Number.MAX_SAFE_INTEGER, ID_MESSAGE),
);
export const idParams = z.object({ id });

export const isoDate = z
  .string()
  .trim()
  .refine(isValidIsoDate, `must be a date YYYY-MM-DD between ${MIN_DATE} and ${MAX_DATE}`);

const toMoneyCents = (value: number | string, ctx: z.RefinementCtx) => {
  const cents = toCents(value);
  if (cents === null || cents > MAX_CENTS) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.invalidAmount });
    return z.NEVER;
  }
  return cents;
};
/** Money in a JSON body: a JSON number 0..999999999.99 with at most 2 decimals, turned into integer cents. */
export const moneyIn = z.number(MESSAGES.amountNotNumber).transform(toMoneyCents);
/** Money in a query string, where every value is text: the same numbers, written in decimal. */
export const moneyParam = z.union([z.number(), z.string()]).transform(toMoneyCents);
/** Money out: a JSON number with at most 2 decimals. */
export const moneyOut = z.number();

/** `true/false/1/0` and their text forms. */
export const looseBoolean = z.preprocess((v) => {
  if (v === 'true' || v === '1' || v === 1) return true;
  if (v === 'false' || v === '0' || v === 0) return false;
  return v;
}, z.boolean());

export const timestamp = z.string().describe('UTC, YYYY-MM-DDTHH:mm:ss without offset');

export const errorResponse = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  /** The machine code clients branch on (error-codes.ts); the message is for people. */
  code: z.enum(errorCodes),
  message: z.string(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

/** A query value given once or repeated (`?a=1&a=2`), as a list of at most 1,000. */
export const oneOrMany = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(item).max(1000)).optional();

/** Query values that are empty text count as not given: a client that clears a box is not sending a bad value. */
export const optionalParam = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** A whole number from `min` to `max` in a query string; one message for every way to miss it. */
export const wholeNumberParam = (min: number, max: number) => {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.coerce.number(message).int(message).min(min, message).max(max, message);
};

/** A reply that only says what happened. */
export const messageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;
