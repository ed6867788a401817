import { parentPort, workerData } from 'node:worker_threads';
import type { LimitedWorkerMessage } from '../../lib/limited-worker.ts';
import { openPdf, pdfText, renderFirstPage } from '../attachments/pdf-pages.ts';
import type { ReadText } from './bill-reader.ts';

// A worker thread of `readBillFile`: a PDF's text layer, or, for a photo or a scanned PDF, the text OCR reads off it.
// Posts its progress (0 to 1) and then the text, or null when the file cannot be read.
// `ocrDir` holds each of `languages`' models as `<code>.traineddata` (ocr-languages.ts).
const { bytes, kind, ocrDir, languages } = workerData as {
  bytes: Uint8Array;
  kind: 'pdf' | 'image';
  ocrDir: string;
  languages: string[];
};

/** A PDF with fewer letters and digits than this in its text layer is a scan: its first page is read by OCR. */
const MIN_TEXT = 20;
/** The longest side a scanned page is drawn at for OCR (about 190 dots per inch on A4 or Letter paper). */
const OCR_SIDE = 2200;

const progress = (share: number) => parentPort?.postMessage({ progress: share } satisfies LimitedWorkerMessage<never>);

async function ocr(picture: Uint8Array, from: number): Promise<string> {
  // Loaded only when a picture is to be read: a PDF with text never starts OCR.
  const { createWorker } = await import('tesseract.js');
  // Read from the prepared folder, uncompressed, never cached elsewhere nor fetched.
  const reader = await createWorker(languages, 1, {
    langPath: ocrDir,
    gzip: false,
    cacheMethod: 'none',
    logger: (m) => {
      if (m.status === 'recognizing text') progress(from + (1 - from) * m.progress);
    },
  });
  try {
    const result = await reader.recognize(Buffer.from(picture.buffer, picture.byteOffset, picture.byteLength));
    return result.data.text;
  } finally {
    await reader.terminate();
  }
}

async function read(): Promise<ReadText> {
  if (kind === 'image') return { text: await ocr(bytes, 0.1), source: 'ocr' };
  const pdf = await openPdf(bytes);
  try {
    const text = await pdfText(pdf, 3);
    progress(0.2);
    if (text.replace(/[^\p{L}\p{N}]/gu, '').length >= MIN_TEXT) return { text, source: 'text' };
    const page = await renderFirstPage(pdf, OCR_SIDE);
    progress(0.3);
    return { text: await ocr(page, 0.3), source: 'ocr' };
  } finally {
    await pdf.destroy();
  }
}

let done: ReadText | null = null;
try {
  done = await read();
} catch {
  // Not readable: the caller says nothing was read.
}
parentPort?.postMessage({ done } satisfies LimitedWorkerMessage<ReadText | null>);
