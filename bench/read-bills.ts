import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AttachmentType } from '@billfold/contract/attachments';
import { readBillFile } from '../packages/server/src/modules/bill-reading/bill-reader.ts';
import { readBillText } from '../packages/server/src/modules/bill-reading/bill-text.ts';
import { matchEntity } from '../packages/server/src/modules/bill-reading/entity-match.ts';
import { describeOcrLanguages, ocrModels } from '../packages/server/src/modules/bill-reading/ocr-languages.ts';
import { parseArgs } from './lib/args.ts';
import {
  BILLERS,
  DISTRACTORS,
  type GeneratedBill,
  generateBills,
  LANGUAGES,
  type Language,
  MEDIA,
  type Medium,
  SCAN_SIDE,
} from './lib/bills.ts';
import { Random } from './lib/random.ts';

const HELP = `
\`npm run bench:read-bills -- [options]\`: the bill reader's accuracy (docs/performance.md, "Reading bills").
Generates real-looking bills (US, German and French; text PDFs, scanned PDFs, PNG scans and JPEG photos; four
layouts) from a seed, reads each as the server does (worker thread, pdf.js text or OCR, the same parsers and entity
match against a ledger of the billers and look-alike names), and prints the OCR languages used, per field how many
came out right by language, by medium and for each language's scans, how many of the scans' words with ä, ö, ü or ß
OCR read exactly, the wrong ones, and the slowest readings.

  --seed S           the draw of bills (default 20261128; printed)
  --per-language N   bills of each language (default 8: five text PDFs, a scanned PDF, a PNG, a photo)
  --languages L,L    only these of en, de, fr (default all three)
  --media M,M        the media each language's bills take in turn, of pdf, scanned-pdf, png, photo (default five
                     pdf, then one of each other); \`--languages de --media scanned-pdf,png,photo\`: German scans only
  --scan-side PX     the longest side of scans and photos in pixels (default 2200, about 200 dots per inch; 1100 is a
                     rough 100 dpi scan)
  --ocr-languages C,C  OCR with only these of the installed models (eng, fra, deu), to compare: \`eng,fra\` reads as
                     the server does without Debian's tesseract-ocr-deu (default every installed model)
  --timeout-seconds S  each reading's time limit (default 600; the server's is 120)
  --keep DIR         also write the generated files and their truth to DIR, to look at
  --help`;

const args = parseArgs(process.argv.slice(2), {
  seed: 'number',
  'per-language': 'number',
  languages: 'string',
  media: 'string',
  'ocr-languages': 'string',
  'scan-side': 'number',
  keep: 'string',
  'timeout-seconds': 'number',
  help: 'boolean',
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const SEED = args.seed ?? 20261128;
const PER_LANGUAGE = args['per-language'] ?? 8;
/** Each reading's time limit (the server's is READING_TIMEOUT_MS). */
const TIMEOUT_MS = (args['timeout-seconds'] ?? 600) * 1000;

/** The comma-separated values of an option, each one of `allowed`. */
function list<T extends string>(option: string, value: string | undefined, allowed: readonly T[]): T[] | undefined {
  if (value === undefined) return undefined;
  const values = value.split(',').map((v) => v.trim());
  const unknown = values.filter((v) => !allowed.includes(v as T));
  if (unknown.length > 0 || values.length === 0)
    throw new Error(`--${option}: ${unknown.join(', ')} is not one of ${allowed.join(', ')}`);
  return values as T[];
}
const installed = ocrModels();
const ocrCodes = list(
  'ocr-languages',
  args['ocr-languages'],
  installed.map((m) => m.code),
);
const models = ocrCodes ? installed.filter((m) => ocrCodes.includes(m.code)) : installed;
const languages: readonly Language[] = list('languages', args.languages, LANGUAGES) ?? LANGUAGES;
const media: readonly Medium[] | undefined = list('media', args.media, MEDIA);
const scanSide = args['scan-side'] ?? SCAN_SIDE;

const FIELDS = ['amount', 'date', 'dueDate', 'entity'] as const;
type Field = (typeof FIELDS)[number];

const entities = [...Object.values(BILLERS).flat(), ...DISTRACTORS].map((name, i) => ({ id: i + 1, name }));

function typeOf(bill: GeneratedBill): AttachmentType {
  return bill.medium === 'png' ? 'image/png' : bill.medium === 'photo' ? 'image/jpeg' : 'application/pdf';
}

console.log(
  `read-bills: seed ${SEED}, ${PER_LANGUAGE} bills per language (${languages.join(', ')})${media ? `, media ${media.join(', ')}` : ''}, scans ${scanSide} px; ${describeOcrLanguages(models)} (${models.map((m) => m.code).join('+')})`,
);
const bills = await generateBills(new Random(SEED), PER_LANGUAGE, languages, media, scanSide);
if (args.keep) {
  mkdirSync(args.keep, { recursive: true });
  for (const bill of bills) writeFileSync(join(args.keep, bill.name), bill.bytes);
  writeFileSync(
    join(args.keep, 'truth.json'),
    JSON.stringify(
      bills.map(({ bytes: _, ...rest }) => rest),
      null,
      2,
    ),
  );
}

const tally = new Map<string, { right: number; total: number }>();
const count = (key: string, right: boolean) => {
  const entry = tally.get(key) ?? { right: 0, total: 0 };
  entry.total++;
  if (right) entry.right++;
  tally.set(key, entry);
};
const wrong: string[] = [];
const times: Array<{ name: string; ms: number }> = [];
/** Of the scans' words with a letter only German writes (ä, ö, ü, ß), how many OCR read exactly, per language. */
const germanWords = new Map<Language, { right: number; total: number }>();
/** A word with a letter only German writes, without the punctuation around it. */
const GERMAN_LETTER = /[äöüßÄÖÜ]/;
const bare = (word: string) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

for (const bill of bills) {
  const started = performance.now();
  // Accuracy, not speed, is measured here: a loaded machine gets more time than the server's limit.
  const read = await readBillFile(bill.bytes, typeOf(bill), () => {}, { timeoutMs: TIMEOUT_MS, models });
  const ms = performance.now() - started;
  times.push({ name: bill.name, ms });
  const fields = read ? readBillText(read.text) : null;
  const entity = read ? matchEntity(read.text, entities) : null;
  const got: Record<Field, string | number | null> = {
    amount: fields?.amount ?? null,
    date: fields?.date ?? null,
    dueDate: fields?.dueDate ?? null,
    entity: entity?.name ?? null,
  };
  const want: Record<Field, string | number> = {
    amount: bill.truth.amountCents,
    date: bill.truth.date,
    dueDate: bill.truth.dueDate,
    entity: bill.truth.biller,
  };
  for (const field of FIELDS) {
    const right = got[field] === want[field];
    count(`all ${field}`, right);
    count(`${bill.language} ${field}`, right);
    count(`${bill.medium} ${field}`, right);
    if (bill.medium !== 'pdf') {
      count(`scans ${field}`, right);
      count(`${bill.language} scans ${field}`, right);
    }
    if (!right) wrong.push(`${bill.name} (layout ${bill.layout}) ${field}: read ${got[field]}, is ${want[field]}`);
  }
  if (bill.medium !== 'pdf') {
    const readWords = new Set((read?.text ?? '').split(/\s+/).map(bare));
    const entry = germanWords.get(bill.language) ?? { right: 0, total: 0 };
    for (const word of bill.words.map(bare).filter((w) => GERMAN_LETTER.test(w))) {
      entry.total++;
      if (readWords.has(word)) entry.right++;
    }
    germanWords.set(bill.language, entry);
  }
  console.log(`${bill.name}: ${read ? read.source : 'unreadable'} in ${(ms / 1000).toFixed(1)} s`);
}

const share = (key: string) => {
  const entry = tally.get(key);
  return entry ? `${entry.right}/${entry.total}` : '-';
};
console.log(`\nRight per field (seed ${SEED}, ${bills.length} bills, OCR ${models.map((m) => m.code).join('+')}):`);
console.log(`| | ${FIELDS.join(' | ')} |`);
console.log(`|---|${FIELDS.map(() => '---').join('|')}|`);
const groups = ['all', ...LANGUAGES, ...MEDIA, 'scans', ...LANGUAGES.map((language) => `${language} scans`)];
for (const group of groups.filter((g) => tally.has(`${g} amount`)))
  console.log(`| ${group} | ${FIELDS.map((field) => share(`${group} ${field}`)).join(' | ')} |`);
for (const [language, { right, total }] of germanWords)
  if (total > 0) console.log(`\n${language} scans: words with ä, ö, ü or ß read exactly: ${right}/${total}`);
console.log(`\nWrong (${wrong.length}):`);
for (const line of wrong) console.log(`  ${line}`);
console.log('\nSlowest readings:');
for (const { name, ms } of times.sort((a, b) => b.ms - a.ms).slice(0, 5))
  console.log(`  ${name}: ${(ms / 1000).toFixed(1)} s`);
