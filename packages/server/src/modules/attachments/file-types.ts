import type { AttachmentType } from '@billfold/contract/attachments';

/** Bytes of a file's start that `sniffType` needs. */
export const SNIFF_BYTES = 16;

const ascii = (bytes: Uint8Array, start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));

/** HEIF brands of photos from phones (HEIC, and the HEIF container iPhones and Android cameras write). */
const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);

/**
 * The file's type by its first bytes (its "magic number"), never by its name or the type the client sent; null when
 * it is none of the types an attachment may have.
 */
export function sniffType(head: Uint8Array): AttachmentType | null {
  if (ascii(head, 0, 5) === '%PDF-') return 'application/pdf';
  if (head.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => head[i] === b))
    return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'image/webp';
  if (ascii(head, 4, 8) === 'ftyp' && HEIF_BRANDS.has(ascii(head, 8, 12))) return 'image/heic';
  return null;
}

/** The usual file name ending of each type (a download's name gets it when the stored name has none). */
export const EXTENSIONS: Record<AttachmentType, string> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/heic': 'heic',
};
