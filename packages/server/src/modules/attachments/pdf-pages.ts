import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { getDocument, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * A PDF's first pages through pdf.js (its text layer) and @napi-rs/canvas (its first page drawn), for the
 * thumbnail and bill-reading workers only: both run in worker threads with time and memory limits
 * (docs/decisions/1147-pdf-first-page.md). Nothing here reaches the network: fonts come from pdf.js's own files.
 */

/** The standard fonts pdf.js draws the 14 base fonts with, from its installed package (never fetched). */
const PDFJS_DIR = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const FONTS = `${join(PDFJS_DIR, 'standard_fonts')}/`;

/** The most pixels a drawn page may have (a page can state any size; its drawing is scaled to fit this). */
export const MAX_PAGE_PIXELS = 3000 * 3000;

export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  return getDocument({
    // pdf.js takes the buffer over; the caller's bytes stay its own.
    data: bytes.slice(),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl: FONTS,
    verbosity: 0,
  }).promise;
}

/** The text layer of the first `pages` pages, a line per line of text as pdf.js marks line ends. */
export async function pdfText(pdf: PDFDocumentProxy, pages: number): Promise<string> {
  const lines: string[] = [];
  for (let n = 1; n <= Math.min(pages, pdf.numPages); n++) {
    const page = await pdf.getPage(n);
    const content = await page.getTextContent();
    let line = '';
    for (const item of content.items) {
      if (!('str' in item)) continue;
      line += item.str;
      if (item.hasEOL) {
        lines.push(line);
        line = '';
      } else if (item.str && !line.endsWith(' ')) line += ' ';
    }
    if (line) lines.push(line);
    page.cleanup();
  }
  return lines.join('\n');
}

/**
 * The first page drawn on white as PNG bytes, scaled so its longest side is `side` pixels (and its area at most
 * `MAX_PAGE_PIXELS`).
 */
export async function renderFirstPage(pdf: PDFDocumentProxy, side: number): Promise<Uint8Array> {
  const page = await pdf.getPage(1);
  const natural = page.getViewport({ scale: 1 });
  const longest = Math.max(natural.width, natural.height, 1);
  let scale = side / longest;
  const area = natural.width * natural.height * scale * scale;
  if (area > MAX_PAGE_PIXELS) scale *= Math.sqrt(MAX_PAGE_PIXELS / area);
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.round(viewport.width));
  const height = Math.max(1, Math.round(viewport.height));
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  await page.render({
    // @napi-rs/canvas stands in for the browser's canvas (pdf.js's own Node support uses it).
    canvas: canvas as never,
    canvasContext: context as never,
    viewport,
  }).promise;
  page.cleanup();
  return new Uint8Array(canvas.toBuffer('image/png'));
}
