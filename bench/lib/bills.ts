import { createCanvas, loadImage } from '@napi-rs/canvas';
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import { openPdf, renderFirstPage } from '../../packages/server/src/modules/attachments/pdf-pages.ts';
import type { Random } from './random.ts';

/**
 * Real-looking bills for the bill reader's accuracy bench (bench/read-bills.ts): US, German and French billers,
 * amounts and dates written as each country writes them (by the runtime's Intl), labels of each language, four
 * layouts, with the lines a bill carries besides the sum (subtotals, tax, previous balance, service periods,
 * customer numbers). Each is a PDF with a text layer, a scanned PDF (a picture of the page, no text), a PNG scan or
 * a JPEG photo (slightly turned, on grey paper).
 */

export type Language = 'en' | 'de' | 'fr';
export type Medium = 'pdf' | 'scanned-pdf' | 'png' | 'photo';

export interface GeneratedBill {
  name: string;
  language: Language;
  medium: Medium;
  layout: number;
  bytes: Uint8Array;
  /** The words printed on the bill, as written (to see which OCR read exactly). */
  words: string[];
  truth: { amountCents: number; date: string; dueDate: string; biller: string };
}

const LOCALE: Record<Language, string> = { en: 'en-US', de: 'de-DE', fr: 'fr-FR' };

/** Billers of each country; the ledger's entities are these and `DISTRACTORS`. */
export const BILLERS: Record<Language, string[]> = {
  en: ['City Power & Light', 'Evergreen Water Co', 'Bright Fiber Internet', 'Summit Insurance', 'Lakeside Dental'],
  de: [
    'Stadtwerke Musterstadt',
    'Telekom Deutschland',
    'Allianz Versicherung',
    'Hausverwaltung Becker',
    'Zahnarztpraxis Weber',
  ],
  fr: ['Électricité de Lyon', 'Eaux du Grand Paris', 'Orange Fibre', 'Assurances Dupont', 'Cabinet Médical Martin'],
};
/** Entities of the ledger that share words with the billers, so a loose match would pick them. */
export const DISTRACTORS = [
  'City Water',
  'Musterstadt Bäder',
  'Lyon Parking',
  'Summit Gym',
  'Orange Bank',
  'Weber Grill',
];

const LABELS: Record<Language, { amount: string[]; date: string[]; due: string[]; invoice: string }> = {
  en: {
    amount: ['Amount due', 'Total due', 'Balance due', 'Please pay'],
    date: ['Invoice date', 'Statement date', 'Date'],
    due: ['Due date', 'Payment due', 'Pay by'],
    invoice: 'Invoice',
  },
  de: {
    amount: ['Rechnungsbetrag', 'Zu zahlender Betrag', 'Gesamtbetrag', 'Zahlbetrag'],
    date: ['Rechnungsdatum', 'Datum'],
    due: ['Fällig am', 'Zahlbar bis', 'Fälligkeit'],
    invoice: 'Rechnung',
  },
  fr: {
    amount: ['Montant TTC', 'Total TTC', 'Net à payer', 'Montant à payer'],
    date: ['Date de facture', 'Date d’émission', 'Facture du'],
    due: ['Échéance', 'Date d’échéance', 'À payer avant le'],
    invoice: 'Facture',
  },
};
const WORDS: Record<Language, { subtotal: string; tax: string; previous: string; customer: string; period: string }> = {
  en: {
    subtotal: 'Subtotal',
    tax: 'Sales tax 8.25%',
    previous: 'Previous balance',
    customer: 'Account number',
    period: 'Service period',
  },
  de: {
    subtotal: 'Nettobetrag',
    tax: 'MwSt. 19 %',
    previous: 'Bereits bezahlt',
    customer: 'Kundennummer',
    period: 'Leistungszeitraum',
  },
  fr: { subtotal: 'Total HT', tax: 'TVA 20 %', previous: 'Déjà réglé', customer: 'N° client', period: 'Période du' },
};

const iso = (date: Date) => date.toISOString().slice(0, 10);
/** Text the PDF's standard fonts can write (WinAnsi): the narrow no-break space French groups use becomes a no-break space. */
const winAnsi = (text: string) => text.replace(/\u202f/g, '\u00a0');

function money(cents: number, language: Language): string {
  const number = new Intl.NumberFormat(LOCALE[language], { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    cents / 100,
  );
  return language === 'en' ? `$${number}` : `${number} €`;
}

function writtenDate(date: Date, language: Language, long: boolean): string {
  const options: Intl.DateTimeFormatOptions = long
    ? { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }
    : { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' };
  return new Intl.DateTimeFormat(LOCALE[language], options).format(date);
}

interface Line {
  text: string;
  x: 'left' | 'right' | number;
  size?: number;
  bold?: boolean;
}

/** The lines of one bill, top to bottom, in one of four layouts. */
function billLines(random: Random, language: Language, layout: number, truth: GeneratedBill['truth']): Line[][] {
  const labels = LABELS[language];
  const words = WORDS[language];
  const long = random.chance(0.4);
  const date = new Date(`${truth.date}T00:00:00Z`);
  const due = new Date(`${truth.dueDate}T00:00:00Z`);
  const periodEnd = new Date(date.getTime() - random.int(1, 10) * 86_400_000);
  const periodStart = new Date(periodEnd.getTime() - 29 * 86_400_000);
  const tax = Math.round(
    truth.amountCents * (language === 'en' ? 0.0825 / 1.0825 : language === 'de' ? 0.19 / 1.19 : 0.2 / 1.2),
  );
  const net = truth.amountCents - tax;
  const customer = `${random.int(10_000, 99_999)}-${random.int(100, 999)}`;
  const number = `${random.int(2026, 2026)}-${String(random.int(1, 99_999)).padStart(5, '0')}`;
  const dateLine = `${random.pick(labels.date)}: ${writtenDate(date, language, long)}`;
  const dueLine = `${random.pick(labels.due)}: ${writtenDate(due, language, long)}`;
  const amountLabel = random.pick(labels.amount);
  const period =
    language === 'fr'
      ? `${words.period} ${writtenDate(periodStart, language, false)} au ${writtenDate(periodEnd, language, false)}`
      : `${words.period} ${writtenDate(periodStart, language, false)} - ${writtenDate(periodEnd, language, false)}`;
  const head: Line[][] = [[{ text: truth.biller, x: 'left', size: 20, bold: true }]];
  const address =
    language === 'de'
      ? 'Hauptstraße 12, 12345 Musterstadt'
      : language === 'fr'
        ? '8 rue de la République, 69002 Lyon'
        : '400 Main Street, Springfield, IL 62701';
  const totals: Line[][] = [
    [
      { text: words.subtotal, x: 300 },
      { text: money(net, language), x: 'right' },
    ],
    [
      { text: words.tax, x: 300 },
      { text: money(tax, language), x: 'right' },
    ],
    [
      { text: amountLabel, x: 300, bold: true },
      { text: money(truth.amountCents, language), x: 'right', bold: true },
    ],
  ];
  switch (layout) {
    case 0:
      // Letterhead, dates under the title, a table of charges, totals on the right.
      return [
        ...head,
        [{ text: address, x: 'left', size: 9 }],
        [],
        [{ text: `${labels.invoice} ${number}`, x: 'left', size: 16, bold: true }],
        [{ text: dateLine, x: 'left' }],
        [{ text: dueLine, x: 'left' }],
        [{ text: `${words.customer}: ${customer}`, x: 'left' }],
        [],
        [{ text: period, x: 'left' }],
        [],
        ...totals,
      ];
    case 1:
      // Dates in a block on the right, the sum first in a box, the due date last.
      return [
        ...head,
        [{ text: `${labels.invoice} ${number}`, x: 'right', size: 14, bold: true }],
        [{ text: dateLine, x: 'right' }],
        [{ text: `${words.customer}: ${customer}`, x: 'right' }],
        [],
        [{ text: `${amountLabel}: ${money(truth.amountCents, language)}`, x: 'left', size: 16, bold: true }],
        [],
        [
          { text: `${words.previous}`, x: 300 },
          { text: money(random.int(1_000, 20_000), language), x: 'right' },
        ],
        [{ text: period, x: 'left' }],
        [
          { text: words.subtotal, x: 300 },
          { text: money(net, language), x: 'right' },
        ],
        [],
        [{ text: dueLine, x: 'left', bold: true }],
      ];
    case 2:
      // Labels above their values, as forms print them.
      return [
        ...head,
        [{ text: address, x: 'left', size: 9 }],
        [],
        [{ text: labels.invoice.toUpperCase(), x: 'left', size: 18, bold: true }],
        [
          { text: random.pick(labels.date), x: 'left', bold: true },
          { text: random.pick(labels.due), x: 300, bold: true },
        ],
        [
          { text: writtenDate(date, language, long), x: 'left' },
          { text: writtenDate(due, language, long), x: 300 },
        ],
        [],
        [{ text: `${words.customer} ${customer}`, x: 'left' }],
        [{ text: period, x: 'left' }],
        [],
        [{ text: amountLabel, x: 'left', bold: true }],
        [{ text: money(truth.amountCents, language), x: 'left', size: 18, bold: true }],
      ];
    default:
      // A short receipt-like bill: everything on the left, the sum at the end.
      return [
        ...head,
        [{ text: `${labels.invoice} ${number} - ${dateLine}`, x: 'left' }],
        [{ text: `${words.customer}: ${customer}`, x: 'left' }],
        [{ text: dueLine, x: 'left' }],
        [],
        ...totals,
      ];
  }
}

function drawLine(page: PDFPage, line: Line[], y: number, fonts: { regular: PDFFont; bold: PDFFont }): number {
  let tallest = 12;
  for (const item of line) {
    const size = item.size ?? 11;
    const font = item.bold ? fonts.bold : fonts.regular;
    const text = winAnsi(item.text);
    const width = font.widthOfTextAtSize(text, size);
    const x = item.x === 'left' ? 56 : item.x === 'right' ? page.getWidth() - 56 - width : item.x;
    page.drawText(text, { x, y: y - size, size, font, color: rgb(0.1, 0.1, 0.12) });
    tallest = Math.max(tallest, size);
  }
  return y - tallest * 1.7;
}

async function textPdf(lines: Line[][], letter: boolean): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage(letter ? [612, 792] : [595.28, 841.89]);
  const fonts = {
    regular: await pdf.embedFont(StandardFonts.Helvetica),
    bold: await pdf.embedFont(StandardFonts.HelveticaBold),
  };
  page.drawRectangle({
    x: 40,
    y: page.getHeight() - 50,
    width: page.getWidth() - 80,
    height: 3,
    color: rgb(0.2, 0.4, 0.7),
  });
  let y = page.getHeight() - 70;
  for (const line of lines) y = line.length === 0 ? y - 10 : drawLine(page, line, y, fonts);
  return pdf.save({ useObjectStreams: false });
}

/** The longest side of a scan by default: about 200 dots per inch on A4 or Letter paper. */
export const SCAN_SIDE = 2200;

/** The page drawn as a scan: PNG, `side` pixels on its longest side. */
async function scan(pdfBytes: Uint8Array, side: number): Promise<Uint8Array> {
  const pdf = await openPdf(pdfBytes);
  try {
    return await renderFirstPage(pdf, side);
  } finally {
    await pdf.destroy();
  }
}

/** A phone's photo of the page: turned a little, on grey paper with a margin, JPEG. */
async function photo(png: Uint8Array, random: Random): Promise<Uint8Array> {
  const image = await loadImage(Buffer.from(png));
  const canvas = createCanvas(image.width + 160, image.height + 160);
  const context = canvas.getContext('2d');
  context.fillStyle = '#8a8d91';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.translate(canvas.width / 2, canvas.height / 2);
  context.rotate(((random.next() - 0.5) * 2 * Math.PI) / 180);
  context.filter = 'brightness(0.93)';
  context.drawImage(image, -image.width / 2, -image.height / 2);
  return new Uint8Array(canvas.toBuffer('image/jpeg', 85));
}

/** A PDF holding only the page's picture, as a scanner makes it. */
async function scannedPdf(png: Uint8Array, letter: boolean): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage(letter ? [612, 792] : [595.28, 841.89]);
  const image = await pdf.embedPng(png);
  page.drawImage(image, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  return pdf.save();
}

export const LANGUAGES: readonly Language[] = ['en', 'de', 'fr'];
export const MEDIA: readonly Medium[] = ['pdf', 'scanned-pdf', 'png', 'photo'];
/** The media of each language's bills, in order: text PDFs mostly, then one of each picture kind. */
const MEDIA_CYCLE: readonly Medium[] = ['pdf', 'pdf', 'pdf', 'pdf', 'pdf', 'scanned-pdf', 'png', 'photo'];

/**
 * `perLanguage` bills of each of `languages`, drawn from `random`, their media taken in turn from `media` (by default
 * five text PDFs, then a scanned PDF, a PNG and a photo: at least 8 gives every medium), scans drawn `scanSide`
 * pixels on their longest side.
 */
export async function generateBills(
  random: Random,
  perLanguage: number,
  languages: readonly Language[] = LANGUAGES,
  media: readonly Medium[] = MEDIA_CYCLE,
  scanSide = SCAN_SIDE,
): Promise<GeneratedBill[]> {
  const bills: GeneratedBill[] = [];
  for (const language of languages) {
    for (let i = 0; i < perLanguage; i++) {
      const medium = media[i % media.length] ?? 'pdf';
      const layout = random.int(0, 3);
      const date = new Date(Date.UTC(2026, random.int(0, 11), random.int(1, 28)));
      const due = new Date(date.getTime() + random.pick([10, 14, 15, 21, 30]) * 86_400_000);
      const truth = {
        amountCents: Math.max(100, Math.round(random.logNormal(12_000, 1.2))),
        date: iso(date),
        dueDate: iso(due),
        biller: random.pick(BILLERS[language]),
      };
      const letter = language === 'en';
      const lines = billLines(random, language, layout, truth);
      const pdf = await textPdf(lines, letter);
      let bytes = pdf;
      if (medium !== 'pdf') {
        const png = await scan(pdf, scanSide);
        bytes = medium === 'png' ? png : medium === 'photo' ? await photo(png, random) : await scannedPdf(png, letter);
      }
      const ext = medium === 'photo' ? 'jpg' : medium === 'png' ? 'png' : 'pdf';
      bills.push({
        name: `${language}-${String(i + 1).padStart(2, '0')}-${medium}.${ext}`,
        language,
        medium,
        layout,
        bytes,
        words: lines.flatMap((line) => line.flatMap((item) => item.text.split(/\s+/).filter(Boolean))),
        truth,
      });
    }
  }
  return bills;
}
