import { IMPORT_MAX_ROWS } from '@billfold/contract/imports';
import { parse } from 'csv-parse/sync';
import { badRequest } from '../../lib/http-error.ts';

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
  tooManyRows: `The file has more than ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows. Split it into smaller files.`,
} as const;

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Text of the upload: UTF-8 (a byte-order mark is dropped); UTF-16 and other encodings are refused in words. */
export function decodeCsv(bytes: Uint8Array): string {
  if (bytes.length === 0) throw badRequest(CSV_ERRORS.empty);
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    throw badRequest(CSV_ERRORS.encoding);
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw badRequest(CSV_ERRORS.encoding);
  }
  if (text.includes('\u0000')) throw badRequest(CSV_ERRORS.binary);
  return text.replace(/^\uFEFF/, '');
}

/** `;` or tab when the header line has more of them than commas (spreadsheets in many locales). */
function delimiterOf(text: string): string {
  const first = text.slice(0, text.search(/\r?\n|$/));
  const counts = [',', ';', '\t'].map((d) => [d, first.split(d).length - 1] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0]?.[1] ? counts[0][0] : ',';
}

const LOOKS_LIKE_DATA = /^\s*(?:[-+($]*\d[\d,.]*\)?|\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4})\s*$/;

export function readCsv(bytes: Uint8Array): CsvFile {
  const text = decodeCsv(bytes);
  if (text.trim() === '') throw badRequest(CSV_ERRORS.empty);
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    rows = parse(text, {
      delimiter: delimiterOf(text),
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
      bom: true,
      to: IMPORT_MAX_ROWS + 2,
    }) as unknown as typeof rows;
  } catch (err) {
    const { message, lines } = err as { message: string; lines?: number };
    const where = lines ? `line ${lines}: ` : '';
    throw badRequest(`The file is not valid CSV (${where}${message.replace(/^Invalid \w+ Length: /, '')}).`);
  }
  const [header, ...data] = rows;
  if (!header) throw badRequest(CSV_ERRORS.empty);
  const headers = header.record.map((h) => h.trim());
  if (headers.some((h) => LOOKS_LIKE_DATA.test(h)) || headers.every((h) => h === ''))
    throw badRequest(CSV_ERRORS.noHeader);
  if (data.length === 0) throw badRequest(CSV_ERRORS.noRows);
  if (data.length > IMPORT_MAX_ROWS) throw badRequest(CSV_ERRORS.tooManyRows);
  // `info.lines` is the line a record ends on; a record starts after the previous one ended.
  let previousEnd = header.info.lines;
  const records = data.map((row) => {
    const line = previousEnd + 1;
    previousEnd = row.info.lines;
    return { line, cells: row.record };
  });
  return { headers, records };
}
