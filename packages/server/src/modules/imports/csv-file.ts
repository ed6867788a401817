import { parse } from 'csv-parse';
import type { Limits } from '../../config.ts';
import { badRequest, HttpError } from '../../lib/http-error.ts';
import { nextTurn } from '../../lib/turns.ts';

/** A CSV file read into its header and data records, each with the line it starts on. */
export interface CsvFile {
  headers: string[];
  records: { line: number; cells: string[] }[];
}

export const CSV_ERRORS = {
  encoding: 'The file is not UTF-8 text. Save it as "CSV UTF-8" (comma delimited) and upload it again.',
  binary: 'The file is not a CSV text file.',
  empty: 'The file is empty.',
  noHeader:
    'The first line holds data, not column names. Add a header row (for example Date,Entity,Amount,Description) and upload it again.',
  noRows: 'The file has a header row but no data rows.',
} as const;

/** The CSV limits of `Limits` (config.ts), each refused with its code before the rest of the file is read. */
export type CsvLimits = Pick<Limits, 'csvColumns' | 'csvFieldChars' | 'importRows'>;

const count = (n: number) => n.toLocaleString('en-US');

export const csvLimitErrors = {
  tooManyRows: (limits: CsvLimits) =>
    badRequest(
      `The file has more than ${count(limits.importRows)} rows, the limit. Split it into smaller files.`,
      'TOO_MANY_ROWS',
    ),
  tooManyColumns: (limits: CsvLimits, line: number) =>
    badRequest(
      `Line ${count(line)} has more than ${count(limits.csvColumns)} columns, the limit. Remove the columns the import does not need.`,
      'TOO_MANY_COLUMNS',
    ),
  fieldTooLong: (limits: CsvLimits, line: number) =>
    badRequest(
      `Line ${count(line)} has a field longer than ${count(limits.csvFieldChars)} characters, the limit.`,
      'FIELD_TOO_LONG',
    ),
};

/** Characters handed to the parser between two turns of the event loop. */
const PARSE_STEP = 64 * 1024;

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Text of the upload: UTF-8 (a byte-order mark is dropped); UTF-16 and other encodings are refused in words. */
export function decodeCsv(bytes: Uint8Array): string {
  if (bytes.length === 0) throw badRequest(CSV_ERRORS.empty, 'INVALID_FILE');
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    throw badRequest(CSV_ERRORS.encoding, 'INVALID_FILE');
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw badRequest(CSV_ERRORS.encoding, 'INVALID_FILE');
  }
  if (text.includes('\u0000')) throw badRequest(CSV_ERRORS.binary, 'INVALID_FILE');
  return text.replace(/^\uFEFF/, '');
}

/** `;` or tab when the header line has more of them than commas (spreadsheets in many locales). */
function delimiterOf(text: string): string {
  const head = text.slice(0, PARSE_STEP);
  const first = head.slice(0, head.search(/\r?\n|$/));
  const counts = [',', ';', '\t'].map((d) => [d, first.split(d).length - 1] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0]?.[1] ? counts[0][0] : ',';
}

/**
 * Refuses a header of more than `csvColumns` columns by counting its delimiters outside quotes, stopping at the
 * limit: a header of millions of columns costs microseconds, not a parse.
 */
function checkHeaderWidth(text: string, delimiter: string, limits: CsvLimits): void {
  let columns = 1;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) return;
    else if (!quoted && c === delimiter && ++columns > limits.csvColumns)
      throw csvLimitErrors.tooManyColumns(limits, 1);
  }
}

const LOOKS_LIKE_DATA = /^\s*(?:[-+($]*\d[\d,.]*\)?|\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4})\s*$/;

type Parsed = { record: string[]; info: { lines: number } };

/**
 * Reads the file into its header and records. The parser gets the text in steps of 64 Ki characters with a turn of
 * the event loop between them, so a 16 MiB file never holds other requests up for long; every record is checked
 * against the column and field limits as it arrives, and reading stops at the first one over a limit or at the
 * row after the row limit (docs/decisions/0706-limits-and-fairness.md).
 */
export async function readCsv(bytes: Uint8Array, limits: CsvLimits): Promise<CsvFile> {
  const text = decodeCsv(bytes);
  if (text.trim() === '') throw badRequest(CSV_ERRORS.empty, 'INVALID_FILE');
  const delimiter = delimiterOf(text);
  checkHeaderWidth(text, delimiter, limits);
  const rows: Parsed[] = [];
  let failure: Error | null = null;
  const parser = parse({
    delimiter,
    relax_column_count: true,
    skip_empty_lines: true,
    info: true,
    bom: true,
    to: limits.importRows + 2,
    // A record this long has a field over the limit (its columns are at most `csvColumns`).
    max_record_size: limits.csvFieldChars * limits.csvColumns,
  });
  const take = () => {
    try {
      for (let row = parser.read() as Parsed | null; row !== null; row = parser.read() as Parsed | null) {
        const line = row.info.lines;
        if (row.record.length > limits.csvColumns) throw csvLimitErrors.tooManyColumns(limits, line);
        if (row.record.some((cell) => cell.length > limits.csvFieldChars))
          throw csvLimitErrors.fieldTooLong(limits, line);
        rows.push(row);
      }
    } catch (err) {
      failure ??= err as Error;
      parser.destroy();
    }
  };
  const done = new Promise<void>((resolve) => {
    parser.once('end', resolve);
    parser.once('close', resolve);
  });
  parser.on('error', (err) => {
    failure ??= err;
  });
  parser.on('readable', take);
  for (let i = 0; i < text.length && !failure && !parser.writableEnded && !parser.destroyed; i += PARSE_STEP) {
    parser.write(text.slice(i, i + PARSE_STEP));
    await nextTurn();
  }
  if (!failure && !parser.writableEnded && !parser.destroyed) parser.end();
  await done;
  const failed = failure as Error | null;
  if (failed instanceof HttpError) throw failed;
  if (failed) {
    const { message, lines, code } = failed as Error & { lines?: number; code?: string };
    if (code === 'CSV_MAX_RECORD_SIZE') throw csvLimitErrors.fieldTooLong(limits, (lines ?? 0) + 1);
    const where = lines ? `line ${lines}: ` : '';
    throw badRequest(
      `The file is not valid CSV (${where}${message.replace(/^Invalid \w+ Length: /, '')}).`,
      'INVALID_FILE',
    );
  }
  const [header, ...data] = rows;
  if (!header) throw badRequest(CSV_ERRORS.empty, 'INVALID_FILE');
  const headers = header.record.map((h) => h.trim());
  if (headers.some((h) => LOOKS_LIKE_DATA.test(h)) || headers.every((h) => h === ''))
    throw badRequest(CSV_ERRORS.noHeader, 'INVALID_FILE');
  if (data.length === 0) throw badRequest(CSV_ERRORS.noRows, 'INVALID_FILE');
  if (data.length > limits.importRows) throw csvLimitErrors.tooManyRows(limits);
  // `info.lines` is the line a record ends on; a record starts after the previous one ended.
  let previousEnd = header.info.lines;
  const records = data.map((row) => {
    const line = previousEnd + 1;
    previousEnd = row.info.lines;
    return { line, cells: row.record };
  });
  return { headers, records };
}
