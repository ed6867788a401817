import type { AttachmentType } from '@billfold/contract/attachments';
import { runLimitedWorker } from '../../lib/limited-worker.ts';

/**
 * The types whose thumbnail is drawn from the file (a picture scaled down, a PDF's first page); every other type's is
 * a generic picture.
 */
export const THUMBNAIL_TYPES: ReadonlySet<AttachmentType> = new Set(['image/png', 'image/jpeg', 'application/pdf']);

/** A thumbnail's worker is ended after this long (a PDF can be made to take any time to draw). */
export const THUMBNAIL_TIMEOUT_MS = 60_000;

/** The longest side of a thumbnail, in pixels. */
export const THUMBNAIL_SIDE = 320;

/**
 * Pictures with more pixels than this are not decoded (a small file can claim a huge picture: a decompression
 * bomb); 50 megapixels is more than any phone camera's photo.
 */
export const MAX_PIXELS = 50_000_000;

/** Width and height as the file's header states them (PNG's IHDR, JPEG's start-of-frame), before any decoding. */
export function statedSize(bytes: Uint8Array, type: AttachmentType): { width: number; height: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (type === 'image/png') {
    if (bytes.length < 24) return null;
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (type === 'image/jpeg') {
    let at = 2;
    while (at + 9 < bytes.length) {
      if (bytes[at] !== 0xff) return null;
      const marker = bytes[at + 1] ?? 0;
      // Start of frame: C0–CF but for C4 (Huffman tables), C8 (reserved) and CC (arithmetic coding).
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
        return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
      at += 2 + view.getUint16(at + 2);
    }
  }
  return null;
}

/**
 * A PNG thumbnail of the picture or of a PDF's first page (its longest side `THUMBNAIL_SIDE`), decoded and scaled by
 * jimp (pure JavaScript), or drawn by pdf.js on @napi-rs/canvas, in a worker thread with a memory ceiling and a time
 * limit, so no request waits on the work; null when the file cannot be read, is too large to decode, or takes too
 * long (docs/decisions/1142-attachment-thumbnails.md, docs/decisions/1147-pdf-first-page.md).
 */
export async function makeThumbnail(bytes: Uint8Array, type: AttachmentType): Promise<Uint8Array | null> {
  if (type !== 'application/pdf') {
    const size = statedSize(bytes, type);
    if (!size || size.width === 0 || size.height === 0 || size.width * size.height > MAX_PIXELS) return null;
  }
  return runLimitedWorker<Uint8Array | null>(
    new URL('./thumbnail.worker.ts', import.meta.url),
    { bytes, side: THUMBNAIL_SIDE, type },
    { timeoutMs: THUMBNAIL_TIMEOUT_MS, heapMb: 512 },
  );
}

/** What a file without a drawn thumbnail shows: a sheet with the type's name (our own SVG, no user text in it). */
export function genericThumbnail(type: AttachmentType): string {
  const label = {
    'application/pdf': 'PDF',
    'image/png': 'PNG',
    'image/jpeg': 'JPEG',
    'image/webp': 'WEBP',
    'image/heic': 'HEIC',
  }[type];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="320" viewBox="0 0 240 320"><path d="M20 10h140l60 60v240H20z" fill="#f4f6f8" stroke="#5f6b7a" stroke-width="6"/><path d="M160 10v60h60" fill="none" stroke="#5f6b7a" stroke-width="6"/><text x="120" y="210" font-family="sans-serif" font-size="48" font-weight="700" text-anchor="middle" fill="#37474f">${label}</text></svg>`;
}
