import type { AttachmentType } from '@billfold/contract/attachments';
import { runLimitedWorker } from '../../lib/limited-worker.ts';
import { MAX_PIXELS, statedSize } from '../attachments/thumbnails.ts';
import { type OcrModel, ocrDataDir, ocrModels } from './ocr-languages.ts';

/** A bill's text and where it came from: the PDF's text layer, or OCR of a photo or a scanned page. */
export interface ReadText {
  text: string;
  source: 'text' | 'ocr';
}

/** The types a bill can be read from. */
export const READABLE_TYPES: ReadonlySet<AttachmentType> = new Set(['application/pdf', 'image/png', 'image/jpeg']);

/** A reading's worker is ended after this long (OCR of a page takes seconds; a hostile file could take forever). */
export const READING_TIMEOUT_MS = 120_000;

export interface ReadOptions {
  /** The worker's time limit; default `READING_TIMEOUT_MS`. */
  timeoutMs?: number;
  /** Ends the reading early (the server is stopping): it gives null. */
  signal?: AbortSignal;
  /** The OCR models to read with; default those installed (`ocrModels()`). */
  models?: readonly OcrModel[];
}

let installed: OcrModel[] | null = null;

/**
 * The text of a bill (a PDF's text layer, else OCR of its first page; OCR of a photo), read in a worker thread with
 * a time and a heap limit (lib/limited-worker.ts); null when it cannot be read. A photo stating more than
 * `MAX_PIXELS` is not decoded.
 */
export async function readBillFile(
  bytes: Uint8Array,
  type: AttachmentType,
  onProgress: (share: number) => void,
  options: ReadOptions = {},
): Promise<ReadText | null> {
  if (!READABLE_TYPES.has(type)) return null;
  if (type !== 'application/pdf') {
    const size = statedSize(bytes, type);
    if (!size || size.width === 0 || size.height === 0 || size.width * size.height > MAX_PIXELS) return null;
  }
  installed ??= ocrModels();
  const models = options.models ?? installed;
  const languages = models.map((m) => m.code);
  // Checked each time (a few file checks once it exists): a temp folder cleaned meanwhile is made again.
  const ocrDir = ocrDataDir(models);
  return runLimitedWorker<ReadText | null>(
    new URL('./bill-reader.worker.ts', import.meta.url),
    { bytes, kind: type === 'application/pdf' ? 'pdf' : 'image', ocrDir, languages },
    { timeoutMs: options.timeoutMs ?? READING_TIMEOUT_MS, heapMb: 768, signal: options.signal },
    onProgress,
  );
}
