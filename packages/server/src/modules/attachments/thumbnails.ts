import { Worker } from 'node:worker_threads';
import type { AttachmentType } from '@billfold/contract/attachments';
import { workerStart } from '../../lib/worker-url.ts';

/** The types whose thumbnail is the picture itself, scaled down; every other type's is a generic picture. */
export const THUMBNAIL_TYPES: ReadonlySet<AttachmentType> = new Set(['image/png', 'image/jpeg']);

/** The longest side of a thumbnail, in pixels. */
export const THUMBNAIL_SIDE = 320;

/**
 * Pictures with more pixels than this are not decoded (a small file can claim a huge picture: a decompression
 * bomb); 50 megapixels is more than any phone camera's photo.
 */
export const MAX_PIXELS = 50_000_000;

const WORKER = workerStart(new URL('./thumbnail.worker.ts', import.meta.url));

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
 * A PNG thumbnail of the picture (its longest side `THUMBNAIL_SIDE`), decoded and scaled by jimp (pure JavaScript)
 * in a worker thread with a memory ceiling, so no request waits on the decoding; null when the picture cannot be
 * read or is too large to decode (docs/decisions/1142-attachment-thumbnails.md).
 */
export async function makeThumbnail(bytes: Uint8Array, type: AttachmentType): Promise<Uint8Array | null> {
  const size = statedSize(bytes, type);
  if (!size || size.width === 0 || size.height === 0 || size.width * size.height > MAX_PIXELS) return null;
  return new Promise((resolve) => {
    const worker = new Worker(WORKER.entry, {
      workerData: { ...WORKER.workerData, bytes, side: THUMBNAIL_SIDE },
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    worker.once('message', (png: Uint8Array | null) => {
      resolve(png);
      void worker.terminate();
    });
    worker.once('error', () => resolve(null));
    worker.once('exit', () => resolve(null));
  });
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
