import { parentPort, workerData } from 'node:worker_threads';
import { Jimp } from 'jimp';

// A worker thread of `makeThumbnail`: one picture decoded, scaled to fit a square of `side` pixels, and posted back
// as PNG bytes (null when it cannot be read).
const { bytes, side } = workerData as { bytes: Uint8Array; side: number };
try {
  const image = await Jimp.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (image.width > side || image.height > side) image.scaleToFit({ w: side, h: side });
  const png = await image.getBuffer('image/png');
  parentPort?.postMessage(new Uint8Array(png));
} catch {
  parentPort?.postMessage(null);
}
