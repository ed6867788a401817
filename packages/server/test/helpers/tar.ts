/**
 * Tar archives built by hand for tests, field by field and independent of the server's writer (src/lib/tar.ts), so
 * that a test can also build what no writer should: wrong checksums, links, names outside the archive, huge sizes.
 */

export interface RawEntry {
  name: string;
  body: Buffer;
  /** The size the header states (default: the body's length). */
  size?: number;
  /** `0` a file, `1` a hard link, `2` a symbolic link, `5` a folder, `x` a pax header… (default `0`). */
  type?: string;
  /** Added to the right checksum (default 0: the header is valid). */
  checksumOff?: number;
  /** The size field's text as written, instead of the size in octal. */
  sizeField?: string;
}

function field(block: Buffer, offset: number, length: number, text: string): void {
  block.write(text.slice(0, length), offset, 'latin1');
}

/** One ustar header block. */
export function rawHeader(entry: RawEntry): Buffer {
  const block = Buffer.alloc(512);
  const size = entry.size ?? entry.body.length;
  const name = Buffer.from(entry.name, 'latin1');
  // A long name goes to the prefix field, split at a slash, as POSIX writers do.
  if (name.length > 100) {
    const cut = entry.name.lastIndexOf('/', 155);
    field(block, 345, 155, entry.name.slice(0, cut));
    field(block, 0, 100, entry.name.slice(cut + 1));
  } else field(block, 0, 100, entry.name);
  field(block, 100, 8, '0000644\0');
  field(block, 108, 8, '0000000\0');
  field(block, 116, 8, '0000000\0');
  field(block, 124, 12, entry.sizeField ?? `${size.toString(8).padStart(11, '0')}\0`);
  field(block, 136, 12, '14712345670\0');
  field(block, 156, 1, entry.type ?? '0');
  field(block, 257, 6, 'ustar\0');
  field(block, 263, 2, '00');
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  field(block, 148, 8, `${(sum + (entry.checksumOff ?? 0)).toString(8).padStart(6, '0')}\0 `);
  return block;
}

/** A whole archive: each entry's header, body and padding, then two zero blocks. */
export function rawTar(entries: RawEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(rawHeader(entry), entry.body, Buffer.alloc((512 - (entry.body.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}
