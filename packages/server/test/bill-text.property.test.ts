import { ENTITY_NAME_CHARS, entityName } from '@billfold/contract/bills';
import { nameProblem } from '@billfold/contract/text-rules';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readingResult } from '../src/modules/bill-reading/bill-reading.service.ts';
import {
  amountsIn,
  type BillLanguage,
  datesIn,
  findAmount,
  findDates,
  guessLanguage,
  parseBillAmount,
  readBillText,
  suggestedName,
} from '../src/modules/bill-reading/bill-text.ts';
import { matchEntity } from '../src/modules/bill-reading/entity-match.ts';

/**
 * Reading a bill's text (docs/decisions/1148-reading-bills.md): amounts and dates as the three locales write them
 * (formatted here by the runtime's own Intl, not by our code), labels, and the entity match.
 */

const SEED = Number(process.env.BILL_TEXT_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = { seed: SEED, numRuns: 300 };
console.log(`bill text properties: seed ${SEED} (BILL_TEXT_SEED replays it)`);

const LOCALES: Record<BillLanguage, string> = { en: 'en-US', de: 'de-DE', fr: 'fr-FR' };
const languages = fc.constantFrom<BillLanguage>('en', 'de', 'fr');
const cents = fc.integer({ min: 1, max: 99_999_999_999 });
const day = fc
  .integer({ min: Date.UTC(1990, 0, 1) / 86_400_000, max: Date.UTC(2099, 11, 31) / 86_400_000 })
  .map((d) => new Date(d * 86_400_000));

const money = (value: number, language: BillLanguage) =>
  new Intl.NumberFormat(LOCALES[language], { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value / 100);
const numericDate = (date: Date, language: BillLanguage) =>
  new Intl.DateTimeFormat(LOCALES[language], {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);
const longDate = (date: Date, language: BillLanguage, month: 'long' | 'short') =>
  new Intl.DateTimeFormat(LOCALES[language], { day: 'numeric', month, year: 'numeric', timeZone: 'UTC' }).format(date);
const iso = (date: Date) => date.toISOString().slice(0, 10);

describe('amounts', () => {
  it('reads US, German and French writings and plain ones', () => {
    expect(parseBillAmount('1,234.56')).toBe(123_456);
    expect(parseBillAmount('1.234,56')).toBe(123_456);
    expect(parseBillAmount('1 234,56')).toBe(123_456);
    expect(parseBillAmount('1\u202f234,56')).toBe(123_456);
    expect(parseBillAmount('1234.56')).toBe(123_456);
    expect(parseBillAmount('1234,56')).toBe(123_456);
    expect(parseBillAmount('12')).toBe(1200);
    expect(parseBillAmount('1,234')).toBe(123_400);
    expect(parseBillAmount('1.234')).toBe(123_400);
    expect(parseBillAmount('12,50')).toBe(1250);
    expect(parseBillAmount('1,234,567.89')).toBe(123_456_789);
    expect(parseBillAmount('1.234.567,89')).toBe(123_456_789);
    for (const wrong of ['1,2345.00', '1.234.56', '12.3', '0.00', '1,234,56.7', '9 999 999 999,00', 'abc', ''])
      expect(parseBillAmount(wrong), wrong).toBeNull();
  });

  it('finds any amount the three locales write, with its currency, in a line of text', () => {
    fc.assert(
      fc.property(cents, languages, fc.constantFrom('€', '$', 'EUR', ''), (value, language, currency) => {
        const written = money(value, language);
        const line = language === 'en' ? `Total: ${currency}${written} now` : `Summe ${written} ${currency}`;
        expect(parseBillAmount(written)).toBe(value);
        expect(amountsIn(line).map((a) => a.cents)).toEqual([value]);
      }),
      RUNS,
    );
  });

  it('takes the labelled sum to pay over subtotals, taxes and other amounts', () => {
    expect(findAmount(['Subtotal 100.00', 'Tax 8.25', 'Amount due $108.25', 'Previous balance 12.00'])).toBe(10_825);
    expect(findAmount(['Nettobetrag 100,00 €', 'MwSt. 19 % 19,00 €', 'Rechnungsbetrag 119,00 €'])).toBe(11_900);
    expect(findAmount(['Total HT 1 000,00 €', 'TVA 20 % 200,00 €', 'Montant TTC 1 200,00 €'])).toBe(120_000);
    // The label on its own line, the amount under it.
    expect(findAmount(['Amount due', '$1,234.56'])).toBe(123_456);
    // A stronger label wins wherever it is.
    expect(findAmount(['Total 50.00', 'Balance due 75.00'])).toBe(7500);
    // No label: the largest amount.
    expect(findAmount(['Widget 12.00', 'Gadget 30.50'])).toBe(3050);
    expect(findAmount(['Nothing to see'])).toBeNull();
  });
});

describe('dates', () => {
  it('reads numeric dates in each locale, the order settled by the language when both readings are real', () => {
    fc.assert(
      fc.property(day, languages, (date, language) => {
        expect(datesIn(`on ${numericDate(date, language)}.`, language)).toEqual([iso(date)]);
      }),
      RUNS,
    );
    expect(datesIn('03/04/2026', 'en')).toEqual(['2026-03-04']);
    expect(datesIn('03/04/2026', 'fr')).toEqual(['2026-04-03']);
    // Only one reading is a date: the language does not matter.
    expect(datesIn('03/15/2026', 'fr')).toEqual(['2026-03-15']);
    expect(datesIn('15/03/2026', 'en')).toEqual(['2026-03-15']);
    expect(datesIn('2026-03-15 and 31.02.2026', 'de')).toEqual(['2026-03-15']);
  });

  it('reads month names in English, German and French, long and short', () => {
    fc.assert(
      fc.property(day, languages, fc.constantFrom<'long' | 'short'>('long', 'short'), (date, language, month) => {
        const written = longDate(date, language, month);
        expect(datesIn(`Date: ${written}`, language), written).toEqual([iso(date)]);
      }),
      RUNS,
    );
    expect(datesIn('1er mars 2026', 'fr')).toEqual(['2026-03-01']);
    expect(datesIn('Fällig am 1. März 2026', 'de')).toEqual(['2026-03-01']);
    expect(datesIn('March 3rd, 2026', 'en')).toEqual(['2026-03-03']);
  });

  it('tells the invoice date from the due date by their labels, and skips periods of service', () => {
    expect(
      findDates(['Billing period 02/01/2026 - 02/28/2026', 'Invoice date: 03/02/2026', 'Due date: 03/20/2026'], 'en'),
    ).toEqual({ date: '2026-03-02', dueDate: '2026-03-20' });
    expect(findDates(['Rechnungsdatum 02.03.2026', 'Zahlbar bis 16.03.2026'], 'de')).toEqual({
      date: '2026-03-02',
      dueDate: '2026-03-16',
    });
    expect(findDates(['Facture du 2 mars 2026', 'Échéance :', '20 mars 2026'], 'fr')).toEqual({
      date: '2026-03-02',
      dueDate: '2026-03-20',
    });
    expect(findDates(['Période du 01/02/2026 au 28/02/2026', 'Date de facture 05/03/2026'], 'fr')).toEqual({
      date: '2026-03-05',
      dueDate: null,
    });
    // Labels side by side over their values, either way round.
    expect(findDates(['Date d’émission      Échéance', '09/12/2026      19/12/2026'], 'fr')).toEqual({
      date: '2026-12-09',
      dueDate: '2026-12-19',
    });
    expect(findDates(['Due date    Invoice date', 'March 19, 2026    March 5, 2026'], 'en')).toEqual({
      date: '2026-03-05',
      dueDate: '2026-03-19',
    });
    // No label: the first date is the invoice's; a due date before it was some other date.
    expect(findDates(['ACME', '03/02/2026'], 'en')).toEqual({ date: '2026-03-02', dueDate: null });
    expect(findDates(['Invoice date 03/02/2026', 'Due 01/02/2026'], 'en').dueDate).toBeNull();
  });
});

describe('a whole bill', () => {
  it('reads language, sum, dates and heading', () => {
    const bill = [
      'Stadtwerke Musterstadt GmbH',
      'Rechnung Nr. 4711',
      'Rechnungsdatum: 15.03.2026',
      'Fällig am 29.03.2026',
      'Rechnungsbetrag 1.234,56 €',
    ];
    expect(readBillText(bill.join('\n'))).toEqual({
      language: 'de',
      amount: 123_456,
      date: '2026-03-15',
      dueDate: '2026-03-29',
      heading: 'Stadtwerke Musterstadt GmbH',
    });
    expect(guessLanguage('FACTURE\nMontant TTC\nÉchéance')).toBe('fr');
    expect(guessLanguage('')).toBe('en');
  });

  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        const read = readBillText(text);
        if (read.amount !== null) expect(read.amount).toBeGreaterThan(0);
        for (const date of [read.date, read.dueDate]) if (date) expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }),
      RUNS,
    );
  });
});

describe('entity match', () => {
  const entities = [
    { id: 1, name: 'City Power & Light' },
    { id: 2, name: 'Stadtwerke Musterstadt GmbH' },
    { id: 3, name: 'Électricité de Lyon SA' },
    { id: 4, name: 'Power' },
    { id: 5, name: 'City Water' },
  ];

  it('finds the entity named on the bill, legal forms, accents, case and one misread letter aside', () => {
    expect(matchEntity('CITY POWER AND LIGHT INC.\nInvoice', entities)?.id).toBe(1);
    expect(matchEntity('Stadtwerke Musterstadt\nRechnung', entities)?.id).toBe(2);
    expect(matchEntity('ELECTRICITE DE LYON\nFacture', entities)?.id).toBe(3);
    // OCR read one letter wrong.
    expect(matchEntity('Stadtwerke Mustcrstadt', entities)?.id).toBe(2);
    // "Power" alone is on the bill too; the longer name that is all there wins.
    expect(matchEntity('City Power & Light, your power company', entities)?.id).toBe(1);
  });

  it('proposes none when no name is close enough, and never one of another list', () => {
    expect(matchEntity('Gas Company of Springfield', entities)).toBeNull();
    expect(matchEntity('City Power & Light', [])).toBeNull();
    expect(matchEntity('Water Works', entities)).toBeNull();
  });
});

describe('what a reading suggests (docs/decisions/0102-text-characters.md)', () => {
  /** The heading a reading of `text` answers, as the service builds it. */
  const headingOf = (text: string) => readingResult({ source: 'ocr', text }, []).heading;
  /** Whether the invoice form's entity name (`entityName`, contract bills.ts) stores `value` unchanged. */
  const storedAsIs = (value: string) => {
    const parsed = entityName.safeParse(value);
    return parsed.success && parsed.data === value && nameProblem(value) === null;
  };

  it('maps or drops every character the entity name refuses, and cuts to its length', () => {
    const table: [string, string, string | null][] = [
      ['line separator', 'Acme\u2028Power', 'Acme Power'],
      ['paragraph separator', 'Acme\u2029Power', 'Acme Power'],
      ['replacement character', 'Acme\uFFFD Power', 'Acme Power'],
      ['Hangul fillers', '\u3164Acme\u115F\u1160 Power\uFFA0', 'Acme Power'],
      ['braille blank and grapheme joiner', 'Ac\u034Fme\u2800Power', 'AcmePower'],
      ['bidi controls', '\u202EAcme\u202C \u2066Power\u2069 \u200E\u200F', 'Acme Power'],
      ['zero-width characters', 'A\u200Bc\u200Cm\u200De\uFEFF \u2060Power\u00AD', 'Acme Power'],
      ['other spaces and tabs', 'Acme\u00A0\u3000Power\tLtd\u000B\u0085Co', 'Acme Power Ltd Co'],
      ['lone surrogates and private use', 'Acme\uD800 \uDC00Power\uE000', 'Acme Power'],
      ['decomposed accents', 'Cafe\u0301 Lyon', 'Caf\u00E9 Lyon'],
      ['only fillers', '\u3164\u3164\u3164', null],
      ['over-long', 'Acme '.repeat(40), `${'Acme '.repeat(20).trim()}`],
      [
        'over-long emoji: the joiner dropped, no surrogate pair cut',
        `Ab${'\u{1F469}\u200D\u{1F4BB}'.repeat(60)}`,
        `Ab${'\u{1F469}\u{1F4BB}'.repeat(24)}\u{1F469}`,
      ],
      ['over-long accents: no letter cut from its mark', `A${'q\u0301'.repeat(60)}`, `A${'q\u0301'.repeat(49)}`],
    ];
    for (const [what, line, expected] of table) {
      const heading = headingOf(line);
      expect({ what, heading }).toEqual({ what, heading: expected });
      if (heading !== null) expect(storedAsIs(heading), what).toBe(true);
    }
    expect(suggestedName('')).toBeNull();
    // The first line left with letters is the heading: a line of fillers is skipped.
    expect(headingOf('\u3164\u3164\nStadtwerke Musterstadt GmbH')).toBe('Stadtwerke Musterstadt GmbH');
  });

  /** Text as a PDF's text layer or OCR may give it: letters of several scripts among everything the rule refuses. */
  const hostile = fc.string({
    unit: fc.oneof(
      fc.constantFrom(...'Acme Stadtwerke Électricité Ωμέγα Привет 東京 مرحبا हिन्दी'.split('')),
      fc.constantFrom(
        '\u2028',
        '\u2029',
        '\uFFFD',
        '\u3164',
        '\u115F',
        '\u1160',
        '\uFFA0',
        '\u2800',
        '\u034F',
        '\u202A',
        '\u202E',
        '\u2066',
        '\u2069',
        '\u200B',
        '\u200C',
        '\u200D',
        '\u200E',
        '\u2060',
        '\u206A',
        '\uFEFF',
        '\uFFF9',
        '\u00AD',
        '\u00A0',
        '\u202F',
        '\u3000',
        '\t',
        '\n',
        '\r',
        '\u0000',
        '\u001B',
        '\u0085',
        '\uD800',
        '\uDFFF',
        '\uE000',
        '\u0301',
        '\u{E0041}',
        '\u{1F469}',
        '\u{1F3FD}',
        ' ',
      ),
      fc.string({ unit: 'binary', maxLength: 3 }),
    ),
    maxLength: 400,
  });

  it('suggests only what the invoice form stores unchanged, whatever the text', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const heading = headingOf(text);
        if (heading !== null) {
          expect(storedAsIs(heading)).toBe(true);
          expect(heading.length).toBeLessThanOrEqual(ENTITY_NAME_CHARS);
        }
        const name = suggestedName(text);
        if (name !== null) expect(storedAsIs(name)).toBe(true);
      }),
      RUNS,
    );
  });
});
