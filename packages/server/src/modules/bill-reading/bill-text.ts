import { ENTITY_NAME_CHARS, entityName } from '@billfold/contract/bills';
import { MAX_CENTS } from '@billfold/contract/money';
import { parseDate } from '../imports/import-mapping.ts';

/**
 * Reading a bill's text: its amount, invoice date and due date, in US, German and French writing
 * (docs/decisions/1148-reading-bills.md). Pure functions over the text, so the reader's worker, the API and the
 * accuracy bench (bench/read-bills.ts) share them.
 */

export type BillLanguage = 'en' | 'de' | 'fr';

/** Lower case without accents, and every kind of space as one plain space: how labels are compared. */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .toLowerCase()
    .replace(/[\s\u00a0\u202f]+/g, ' ')
    .trim();
}

const LANGUAGE_WORDS: Array<[BillLanguage, RegExp]> = [
  ['de', /\b(rechnung|betrag|faellig|fallig|zahlbar|datum|mwst|ust|gesamt|summe|bis zum|steuer)\b/g],
  ['fr', /\b(facture|montant|echeance|ttc|tva|date d|a payer|reglement|le montant|total ht|net a payer)\b/g],
  ['en', /\b(invoice|amount|due|balance|total|payment|bill|date|pay by|statement)\b/g],
];

/** The language the bill is written in, by its most frequent words; English when nothing tells. */
export function guessLanguage(text: string): BillLanguage {
  const folded = fold(text);
  let best: BillLanguage = 'en';
  let bestCount = 0;
  for (const [language, words] of LANGUAGE_WORDS) {
    const count = folded.match(words)?.length ?? 0;
    if (count > bestCount) [best, bestCount] = [language, count];
  }
  return best;
}

// ---------------------------------------------------------------- amounts

const SPACE = '[ \\u00a0\\u202f]';
/** An amount as written on a bill: digits with thousands groups and two decimals in any of the three writings. */
const AMOUNT_PATTERN = new RegExp(
  `(?<![\\d.,])(\\d{1,3}(?:,\\d{3})+(?:\\.\\d{2})?|\\d{1,3}(?:\\.\\d{3})+(?:,\\d{2})?|\\d{1,3}(?:${SPACE}\\d{3})+(?:[.,]\\d{2})?|\\d+[.,]\\d{2})(?![\\d]|[.,]\\d)`,
  'g',
);

/**
 * Cents of one amount written in US (1,234.56), German (1.234,56) or French (1 234,56) style, or plain (1234.56,
 * 1234,56); null when the text is not one. A comma or a dot followed by exactly two digits at the end is the
 * decimal mark; groups of three are thousands.
 */
export function parseBillAmount(text: string): number | null {
  const bare = text.replace(/[\s\u00a0\u202f]+/g, ' ').trim();
  const match = /^(\d{1,3}(?:([,. ])\d{3})*|\d+)(?:([.,])(\d{2}))?$/.exec(bare);
  if (!match) return null;
  const [, whole = '', group, decimal, fraction = '00'] = match;
  if (group && group === decimal) return null;
  const digits = group ? whole.split(group).join('') : whole;
  if (digits.length > 9) return null;
  const cents = Number(digits) * 100 + Number(fraction);
  return cents > 0 && cents <= MAX_CENTS ? cents : null;
}

/** Every amount in a line, in order, with where it starts. */
export function amountsIn(line: string): Array<{ cents: number; at: number }> {
  const found: Array<{ cents: number; at: number }> = [];
  for (const match of line.matchAll(AMOUNT_PATTERN)) {
    const cents = parseBillAmount(match[0]);
    if (cents !== null) found.push({ cents, at: match.index });
  }
  return found;
}

/** Labels of the sum to pay, strongest first (folded: lower case, no accents). */
const AMOUNT_LABELS: RegExp[] = [
  /\b(amount due|total due|balance due|amount to pay|please pay|amount payable|total amount due)\b/,
  /\b(rechnungsbetrag|zu zahlen(der betrag)?|zahlbetrag|gesamtbetrag|endbetrag|faelliger betrag|falliger betrag)\b/,
  /\b(montant ttc|total ttc|net a payer|montant a payer|montant du|reste a payer|montant total)\b/,
  /\b(grand total|total|summe|gesamt|montant)\b/,
];
/** Lines that name a part of the sum, never the sum to pay. */
const NOT_THE_SUM =
  /\b(subtotal|sub-total|sous-total|zwischensumme|netto|nettobetrag|total ht|montant ht|\bht\b|tva|mwst|ust\.?|vat|tax|steuer|previous balance|paid|bezahlt|deja paye)\b/;

/**
 * The sum to pay: the amount on (or just under) the line with the strongest label; without any label, the largest
 * amount on the bill. Cents, or null when the bill has no amount at all.
 */
export function findAmount(lines: readonly string[]): number | null {
  const folded = lines.map(fold);
  for (const label of AMOUNT_LABELS) {
    for (let i = 0; i < folded.length; i++) {
      const line = folded[i] ?? '';
      const hit = label.exec(line);
      if (!hit || NOT_THE_SUM.test(line.replace(label, ''))) continue;
      const after = amountsIn(line.slice(hit.index + hit[0].length));
      if (after.length > 0) return after.at(-1)?.cents ?? null;
      const next = amountsIn(folded[i + 1] ?? '');
      if (next.length > 0) return next[0]?.cents ?? null;
    }
  }
  let largest: number | null = null;
  for (const line of folded)
    for (const { cents } of amountsIn(line)) if (largest === null || cents > largest) largest = cents;
  return largest;
}

// ---------------------------------------------------------------- dates

/** Month names (folded) of the three languages, with their usual abbreviations, and the month's number. */
const MONTHS: ReadonlyMap<string, number> = new Map(
  (
    [
      ['january jan januar janv janvier jaenner', 1],
      ['february feb februar fevr fevrier fev', 2],
      ['march mar maerz marz mars', 3],
      ['april apr avril avr', 4],
      ['may mai', 5],
      ['june jun juni juin', 6],
      ['july jul juli juillet juil', 7],
      ['august aug aout', 8],
      ['september sep sept septembre', 9],
      ['october oct oktober okt octobre', 10],
      ['november nov novembre', 11],
      ['december dec dezember dez decembre', 12],
    ] as const
  ).flatMap(([names, month]) => names.split(' ').map((name) => [name, month] as const)),
);

const MONTH_WORD = '([a-z]{3,9})\\.?';
const DATE_PATTERNS: Array<{ pattern: RegExp; read: (m: RegExpExecArray, language: BillLanguage) => string | null }> = [
  { pattern: /\b(\d{4})-(\d{2})-(\d{2})\b/g, read: (m) => parseDate(m[0], 'YYYY-MM-DD') },
  { pattern: /\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b/g, read: (m) => parseDate(m[0], 'DD.MM.YYYY') },
  {
    pattern: /\b(\d{1,2})[/-](\d{1,2})[/-](\d{4})\b/g,
    read: (m, language) => {
      const text = m[0].replaceAll('-', '/');
      const us = parseDate(text, 'MM/DD/YYYY');
      const eu = parseDate(text, 'DD/MM/YYYY');
      // Only one reading is a real date (15/03 or 03/15), or the bill's language decides.
      if (!us || !eu) return us ?? eu;
      return language === 'en' ? us : eu;
    },
  },
  {
    // 15 March 2026, 15. März 2026, 1er mars 2026
    pattern: new RegExp(`\\b(\\d{1,2})(?:\\.|er)? ?${MONTH_WORD},? (\\d{4})\\b`, 'g'),
    read: (m) => monthDate(m[3], m[2], m[1]),
  },
  {
    // March 15, 2026
    pattern: new RegExp(`\\b${MONTH_WORD} (\\d{1,2})(?:st|nd|rd|th)?,? (\\d{4})\\b`, 'g'),
    read: (m) => monthDate(m[3], m[1], m[2]),
  },
];

function monthDate(year = '', monthName = '', day = ''): string | null {
  const month = MONTHS.get(monthName);
  if (!month) return null;
  return parseDate(`${year}-${String(month).padStart(2, '0')}-${day.padStart(2, '0')}`, 'YYYY-MM-DD');
}

/** Every date in a line (`YYYY-MM-DD`), in the order written. */
export function datesIn(line: string, language: BillLanguage): string[] {
  const folded = fold(line);
  const found: Array<{ at: number; date: string }> = [];
  for (const { pattern, read } of DATE_PATTERNS) {
    for (const match of folded.matchAll(pattern)) {
      const date = read(match as RegExpExecArray, language);
      if (date && !found.some((f) => f.at <= match.index && match.index < f.at + 10))
        found.push({ at: match.index, date });
    }
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.date);
}

const DUE_LABELS =
  /\b(due date|payment due|due by|due on|pay by|please pay by|payable by|faellig am|fallig am|faellig|fallig|faelligkeit|falligkeit|zahlbar bis|zahlungsziel|zu zahlen bis|echeance|date d'echeance|date limite|a payer avant|payable avant|a regler avant)\b/;
const INVOICE_DATE_LABELS =
  /\b(invoice date|date of invoice|bill date|statement date|issue date|issued|rechnungsdatum|belegdatum|ausstellungsdatum|datum|date de facture|date de facturation|date d'emission|emise le|facture du|date)\b/;
/** Lines whose dates are neither the invoice's nor its due date: periods of service, readings, deliveries. */
const OTHER_DATES =
  /\b(period|service from|billing period|zeitraum|leistungszeitraum|lieferdatum|periode|du [\d./]+ au|customer since|kunde seit|client depuis)\b/;

export interface BillDates {
  date: string | null;
  dueDate: string | null;
}

/**
 * The invoice date and the due date: dates on (or just under) a labelled line; without an invoice date label, the
 * first date on the bill that is not the due date nor in a period line. A due date before the invoice date is
 * dropped (it was another date).
 */
export function findDates(lines: readonly string[], language: BillLanguage): BillDates {
  const folded = lines.map(fold);
  const labelled = (label: RegExp): string | null => {
    for (let i = 0; i < folded.length; i++) {
      const line = folded[i] ?? '';
      const hit = label.exec(line);
      if (!hit) continue;
      const same = datesIn(line.slice(hit.index), language);
      if (same.length > 0) return same[0] ?? null;
      const next = datesIn(folded[i + 1] ?? '', language);
      if (next.length > 0) return next[0] ?? null;
    }
    return null;
  };
  const columns = sideBySide(folded, language);
  if (columns) return columns;
  const dueDate = labelled(DUE_LABELS);
  const withoutDue = folded.map((line) => (DUE_LABELS.test(line) ? '' : line));
  let date = labelledIn(withoutDue, INVOICE_DATE_LABELS, language);
  if (!date) {
    for (const line of withoutDue) {
      if (OTHER_DATES.test(line)) continue;
      const first = datesIn(line, language)[0];
      if (first && first !== dueDate) {
        date = first;
        break;
      }
    }
  }
  return { date, dueDate: dueDate && date && dueDate < date ? null : dueDate };
}

/**
 * Labels side by side over their values, as forms print them: a line naming both the invoice date and the due date
 * (and holding no date), over a line of two dates, each under its label.
 */
function sideBySide(folded: readonly string[], language: BillLanguage): BillDates | null {
  for (let i = 0; i + 1 < folded.length; i++) {
    const line = folded[i] ?? '';
    const due = DUE_LABELS.exec(line);
    if (!due || datesIn(line, language).length > 0) continue;
    const invoice = INVOICE_DATE_LABELS.exec(line.replace(DUE_LABELS, (label) => ' '.repeat(label.length)));
    const next = datesIn(folded[i + 1] ?? '', language);
    if (!invoice || next.length !== 2) continue;
    const [first = null, second = null] = next;
    const [date, dueDate] = invoice.index < due.index ? [first, second] : [second, first];
    return { date, dueDate: dueDate && date && dueDate < date ? null : dueDate };
  }
  return null;
}

function labelledIn(folded: readonly string[], label: RegExp, language: BillLanguage): string | null {
  for (let i = 0; i < folded.length; i++) {
    const line = folded[i] ?? '';
    const hit = label.exec(line);
    if (!hit || OTHER_DATES.test(line)) continue;
    const same = datesIn(line.slice(hit.index), language);
    if (same.length > 0) return same[0] ?? null;
    if (folded[i + 1] !== undefined && !OTHER_DATES.test(folded[i + 1] ?? '')) {
      const next = datesIn(folded[i + 1] ?? '', language);
      if (next.length > 0) return next[0] ?? null;
    }
  }
  return null;
}

// ---------------------------------------------------------------- the whole bill

export interface BillFields extends BillDates {
  language: BillLanguage;
  /** Cents. */
  amount: number | null;
  /**
   * The first line of the bill with letters, usually the biller's name in the letterhead, as the entity name it
   * suggests (`suggestedName`).
   */
  heading: string | null;
}

/** At most this much of a bill's text is read (a text layer can be huge; the fields are at the start). */
export const MAX_TEXT = 200_000;

/** What a bill's text says: its language, sum to pay, invoice date, due date, and heading. */
export function readBillText(text: string): BillFields {
  const lines = text
    .slice(0, MAX_TEXT)
    .split(/\r?\n/)
    .map((line) => line.replace(/[\s\u00a0\u202f]+/g, ' ').trim())
    .filter((line) => line.length > 0);
  const language = guessLanguage(lines.join('\n'));
  const letters = /\p{L}{2}/u;
  let heading: string | null = null;
  for (const line of lines) {
    // Letters must be left once the line is a name: a line of Hangul fillers is no heading.
    const name = letters.test(line) ? suggestedName(line) : null;
    if (name && letters.test(name)) {
      heading = name;
      break;
    }
  }
  return { language, amount: findAmount(lines), ...findDates(lines, language), heading };
}

// ---------------------------------------------------------------- what is suggested

/**
 * Characters a name refuses that show as (or stand for) a space: controls, line and paragraph separators, and every
 * space but U+0020 (docs/decisions/0102-text-characters.md). Each becomes a plain space.
 */
const AS_SPACE = /[\p{Cc}\p{Zl}\p{Zp}\p{Zs}]/gu;
/**
 * The rest of what a name refuses, and what cannot be shown: format characters (zero-width, direction controls, BOM,
 * tags), lone surrogates, private-use and unassigned code points, U+FFFD, the combining grapheme joiner, Hangul
 * fillers and the braille blank. Each is dropped.
 */
const DROPPED = /[\p{Cf}\p{Cs}\p{Co}\p{Cn}\u115F\u1160\u2800\u3164\uFFA0\uFFFD]|\u034F/gu;
const GRAPHEMES = new Intl.Segmenter('und', { granularity: 'grapheme' });

/**
 * A bill's line as the entity name it suggests: what the contract's `entityName` (packages/contract/src/bills.ts)
 * would store unchanged, so a suggestion the user takes is never refused. Text read off a file is not the user's
 * to fix, so refused characters are mapped to a space or dropped rather than failing the reading; runs of spaces
 * become one; it is cut, between characters as shown, to `ENTITY_NAME_CHARS`. Null when nothing is left.
 */
export function suggestedName(line: string): string | null {
  const clean = line.replace(DROPPED, '').replace(AS_SPACE, ' ').normalize('NFC').replace(/ {2,}/g, ' ').trim();
  let cut = '';
  for (const { segment } of GRAPHEMES.segment(clean)) {
    if (cut.length + segment.length > ENTITY_NAME_CHARS) break;
    cut += segment;
  }
  cut = cut.trim();
  // The contract's own rule has the last word: a suggestion it would change or refuse is none.
  const taken = entityName.safeParse(cut);
  return taken.success && taken.data === cut ? cut : null;
}
