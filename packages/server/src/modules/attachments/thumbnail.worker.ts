import { parentPort, workerData } from 'node:worker_threads';
import type { AttachmentType } from '@billfold/contract/attachments';
import { Jimp } from 'jimp';
import type { LimitedWorkerMessage } from '../../lib/limited-worker.ts';
import { openPdf, renderFirstPage } from './pdf-pages.ts';

// A worker thread of `makeThumbnail`: one picture decoded (or a PDF's first page drawn), scaled to fit a square of
// `side` pixels, and posted back as PNG bytes (null when it cannot be read).
const { bytes, side, type } = workerData as { bytes: Uint8Array; side: number; type: AttachmentType };

async function thumbnail(): Promise<Uint8Array> {
  if (type === 'application/pdf') {
    const pdf = await openPdf(bytes);
    try {
      return await renderFirstPage(pdf, side);
    } finally {
      await pdf.destroy();
    }
  }
  const image = await Jimp.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (image.width > side || image.height > side) image.scaleToFit({ w: side, h: side });
  return new Uint8Array(await image.getBuffer('image/png'));
}

let done: Uint8Array | null = null;
try {
  done = await thumbnail();
} catch {
  // Not readable: the generic sheet.
}
parentPort?.postMessage({ done } satisfies LimitedWorkerMessage<Uint8Array | null>);
