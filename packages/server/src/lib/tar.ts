/**
 * POSIX tar (ustar), uncompressed, regular files only: what the ledger archive is
 * (docs/decisions/1160-ledger-archive.md). Both sides stream: the writer yields a header, the entry's bytes as they
 * come and its padding; the reader hands out each entry's bytes as they arrive, so neither ever holds an entry
 * whole. The reader is strict, since its input is a stranger's upload: a header's checksum must match, every entry
 * is a regular file (no links, folders, or extended headers), sizes are plain octal, and the archive ends with its
 * two zero blocks followed by nothing but zeros; anything else is a `TarError`.
 */

export const TAR_BLOCK = 512;

/** A file the reader refuses: the message says what is wrong, for the client. */
export class TarError extends Error {}

const ZERO_BLOCKS = new Uint8Array(2 * TAR_BLOCK);
/** The largest size 11 octal digits hold (8 GiB − 1). */
const MAX_OCTAL_SIZE = 8 ** 11 - 1;

/** Where the fields of a ustar header are: [offset, length]. */
const FIELD = {
  name: [0, 100],
  mode: [100, 8],
  uid: [108, 8],
  gid: [116, 8],
  size: [124, 12],
  mtime: [136, 12],
  checksum: [148, 8],
  type: [156, 1],
  magic: [257, 6],
  version: [263, 2],
  prefix: [345, 155],
} as const satisfies Record<string, readonly [number, number]>;

function put(block: Uint8Array, [offset, length]: readonly [number, number], text: string): void {
  const bytes = Buffer.from(text, 'latin1');
  if (bytes.length > length) throw new Error(`tar field too long: ${text}`);
  block.set(bytes, offset);
}

const octal = (value: number, digits: number) => `${value.toString(8).padStart(digits, '0')}\0`;

/** The sum of the header's bytes with its checksum field counted as spaces. */
function checksumOf(block: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < TAR_BLOCK; i++) {
    sum += i >= FIELD.checksum[0] && i < FIELD.checksum[0] + FIELD.checksum[1] ? 0x20 : (block[i] as number);
  }
  return sum;
}

/** The header of a regular file `name` (at most 100 ASCII bytes) of `size` bytes, written at `mtime` (ms). */
export function tarHeader(name: string, size: number, mtime: number): Uint8Array {
  if (!/^[\x21-\x7e]{1,100}$/.test(name)) throw new Error(`not a tar entry name: ${name}`);
  if (!Number.isSafeInteger(size) || size < 0 || size > MAX_OCTAL_SIZE) throw new Error(`not a tar size: ${size}`);
  const block = new Uint8Array(TAR_BLOCK);
  put(block, FIELD.name, name);
  put(block, FIELD.mode, octal(0o644, 7));
  put(block, FIELD.uid, octal(0, 7));
  put(block, FIELD.gid, octal(0, 7));
  put(block, FIELD.size, octal(size, 11));
  put(block, FIELD.mtime, octal(Math.max(0, Math.floor(mtime / 1000)), 11));
  put(block, FIELD.type, '0');
  put(block, FIELD.magic, 'ustar\0');
  put(block, FIELD.version, '00');
  put(block, FIELD.checksum, `${checksumOf(block).toString(8).padStart(6, '0')}\0 `);
  return block;
}

/** Zeros from the end of an entry of `size` bytes to its next block. */
export function tarPadding(size: number): Uint8Array {
  return new Uint8Array((TAR_BLOCK - (size % TAR_BLOCK)) % TAR_BLOCK);
}

/** The end of an archive: two zero blocks. */
export function tarEnd(): Uint8Array {
  return ZERO_BLOCKS.slice();
}

/**
 * One regular-file entry: its header, the bytes of `body` as they come, its padding. `body` must give exactly
 * `size` bytes, else this throws (a header once sent cannot be taken back: the archive is broken off instead).
 */
export async function* tarEntry(
  name: string,
  size: number,
  mtime: number,
  body: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<Uint8Array> {
  yield tarHeader(name, size, mtime);
  let sent = 0;
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    sent += bytes.length;
    if (sent > size) throw new Error(`tar entry ${name} is longer than its ${size} bytes`);
    if (bytes.length > 0) yield bytes;
  }
  if (sent !== size) throw new Error(`tar entry ${name} has ${sent} bytes, not ${size}`);
  const padding = tarPadding(size);
  if (padding.length > 0) yield padding;
}

/** Bytes from a stream taken as asked for: exactly n, the next n without taking them, or up to n as they come. */
export class ByteReader {
  private readonly source: AsyncIterator<Uint8Array>;
  private pending: Buffer = Buffer.alloc(0);
  private ended = false;

  constructor(source: AsyncIterable<Uint8Array>) {
    this.source = source[Symbol.asyncIterator]();
  }

  private async fill(n: number): Promise<void> {
    const parts = [this.pending];
    let length = this.pending.length;
    while (length < n && !this.ended) {
      const next = await this.source.next();
      if (next.done) this.ended = true;
      else {
        parts.push(Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength));
        length += next.value.byteLength;
      }
    }
    if (parts.length > 1) this.pending = Buffer.concat(parts, length);
  }

  /** Up to the next `n` bytes, left to be read (fewer only at the end of the stream). */
  async peek(n: number): Promise<Buffer> {
    await this.fill(n);
    return this.pending.subarray(0, n);
  }

  /** Exactly the next `n` bytes, or null when the stream ends before. */
  async take(n: number): Promise<Buffer | null> {
    await this.fill(n);
    if (this.pending.length < n) return null;
    const taken = this.pending.subarray(0, n);
    this.pending = this.pending.subarray(n);
    return taken;
  }

  /** The next `n` bytes in chunks as they arrive; stops early (with fewer) only at the end of the stream. */
  async *chunks(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (this.pending.length === 0) {
        if (this.ended) return;
        await this.fill(1);
        continue;
      }
      const chunk = this.pending.subarray(0, left);
      this.pending = this.pending.subarray(chunk.length);
      left -= chunk.length;
      yield chunk;
    }
  }

  /** Whether the rest of the stream is zeros only (read to its end, a chunk at a time). */
  async restIsZero(): Promise<boolean> {
    for (;;) {
      if (this.pending.some((b) => b !== 0)) return false;
      this.pending = Buffer.alloc(0);
      if (this.ended) return true;
      await this.fill(1);
    }
  }
}

/** `ustar\0` (POSIX) or `ustar ` (GNU) at the magic's offset: the first block is a tar header. */
export function looksLikeTar(start: Uint8Array): boolean {
  const [offset] = FIELD.magic;
  return start.length >= offset + 5 && Buffer.from(start.subarray(offset, offset + 5)).toString('latin1') === 'ustar';
}

const text = (block: Buffer, [offset, length]: readonly [number, number]) => {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('latin1');
};

/** A numeric field: octal digits, with the NULs and spaces tar writers put around them. */
function number(block: Buffer, field: readonly [number, number], what: string): number {
  const digits = block
    .subarray(field[0], field[0] + field[1])
    .toString('latin1')
    .replace(/^[ \0]+|[ \0]+$/g, '');
  if (!/^[0-7]{1,12}$/.test(digits)) throw new TarError(`The archive has a header whose ${what} is not a number.`);
  return Number.parseInt(digits, 8);
}

/** An entry of the archive being read: take its `body` whole before asking for the next entry. */
export interface TarEntry {
  name: string;
  size: number;
  /** The entry's bytes as they arrive; a cut-off archive throws a `TarError` here. */
  body: AsyncGenerator<Buffer>;
}

const CUT_OFF = 'The archive is cut off in the middle of a file.';

/** An entry's bytes as they arrive; `left` counts what is still unread, for the reader to skip. */
async function* bodyOf(reader: ByteReader, state: { left: number }): AsyncGenerator<Buffer> {
  for await (const chunk of reader.chunks(state.left)) {
    state.left -= chunk.length;
    yield chunk;
  }
  if (state.left > 0) throw new TarError(CUT_OFF);
}

/**
 * The entries of a tar stream in their order. Before each next entry the previous one's unread bytes are skipped.
 * Throws a `TarError` for a cut-off archive, a header whose checksum or numbers are wrong, an entry that is not a
 * regular file, or anything but zeros after the end.
 */
export async function* readTar(reader: ByteReader): AsyncGenerator<TarEntry> {
  for (;;) {
    const block = await reader.take(TAR_BLOCK);
    if (block === null) throw new TarError('The archive is cut off: it has no end.');
    if (block.every((b) => b === 0)) {
      const second = await reader.take(TAR_BLOCK);
      if (second === null || !second.every((b) => b === 0) || !(await reader.restIsZero()))
        throw new TarError('The archive does not end as a tar archive ends.');
      return;
    }
    if (!looksLikeTar(block)) throw new TarError('The archive has a header that is not a POSIX tar header.');
    if (number(block, FIELD.checksum, 'checksum') !== checksumOf(block))
      throw new TarError('The archive has a header whose checksum is wrong.');
    const prefix = text(block, FIELD.prefix);
    const name = prefix === '' ? text(block, FIELD.name) : `${prefix}/${text(block, FIELD.name)}`;
    const type = block[FIELD.type[0]];
    if (type !== 0x30 && type !== 0)
      throw new TarError(
        `The archive entry "${name}" is not a plain file (links, folders and extended headers are not taken).`,
      );
    const size = number(block, FIELD.size, 'size');
    const state = { left: size };
    yield { name, size, body: bodyOf(reader, state) };
    // Whatever the caller left of the entry is skipped, then its padding.
    for await (const chunk of reader.chunks(state.left)) state.left -= chunk.length;
    if (state.left > 0 || (await reader.take(tarPadding(size).length)) === null) throw new TarError(CUT_OFF);
  }
}
