import type { ByteRange } from '../../lib/file-store.ts';

/**
 * The one byte range of a `Range: bytes=…` header over a file of `size` bytes: null for none (or a form this server
 * does not serve in part, such as several ranges: the whole file answers, as RFC 9110 allows), `'unsatisfiable'`
 * for a range wholly outside the file (416).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return null;
  if (from === '') {
    // The last `to` bytes.
    const last = Number(to);
    if (last === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - last), end: size - 1 };
  }
  const start = Number(from);
  if (start >= size) return 'unsatisfiable';
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (end < start) return null;
  return { start, end };
}

/**
 * `Content-Disposition` with the stored name: an ASCII fallback (`filename=`) and the exact name in UTF-8
 * (`filename*=`, RFC 6266), so no name can break out of the header. A name without the type's ending gets it.
 */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string, extension: string): string {
  const name = fileName.toLowerCase().endsWith(`.${extension}`) ? fileName : `${fileName}.${extension}`;
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(name)}`;
}

/** Percent-encoding as RFC 5987 wants it: `encodeURIComponent` leaves `'()*` as they are. */
const encodeRfc5987 = (text: string) =>
  encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
