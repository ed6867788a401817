import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { badRequest, HttpError } from '../../lib/http-error.ts';
import { bodyTooLarge } from '../../plugins/body.ts';
import { ATTACHMENT_MESSAGES } from './attachments.messages.ts';
import { SNIFF_BYTES } from './file-types.ts';

/** A file received whole into a temp file of the store's temp folder, not yet stored. */
export interface ReceivedFile {
  tempFile: string;
  size: number;
  /** The SHA-256 of the bytes, in hex: the file's key in the store. */
  key: string;
  /** The file's first bytes, for its type. */
  head: Uint8Array;
  /** The name the client gave, as sent. */
  fileName: string;
}

/**
 * Writes `source` to `out` (a new temp file), hashing and counting the bytes on the way, so that a file is never held
 * whole in memory: its size, SHA-256 (its key in the store) and first bytes (its type).
 */
export async function hashToFile(
  source: AsyncIterable<Uint8Array>,
  out: WriteStream,
): Promise<Pick<ReceivedFile, 'size' | 'key' | 'head'>> {
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (size < SNIFF_BYTES) head.push(chunk.subarray(0, SNIFF_BYTES - size));
      size += chunk.length;
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(source, tap, out);
  return { size, key: hash.digest('hex'), head: new Uint8Array(Buffer.concat(head)) };
}

/** Room for the form's boundaries and part headers around the file. */
export const FORM_OVERHEAD = 64 * 1024;

/** The form parser's (@fastify/multipart's) refusals of a form with more than the one file. */
const TOO_MANY_PARTS = new Set(['FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT', 'FST_FILES_LIMIT']);

/**
 * Reads the one `file` part of a multipart body into a temp file under `tempDir`, hashing it on the way: the file
 * is never held whole in memory, and a file over `maxBytes` is refused at its first byte over (the temp file is
 * removed). Any other part, a second file, a cut-off body or a wrong boundary is the client's error (400).
 */
export async function receiveFile(request: FastifyRequest, tempDir: string, maxBytes: number): Promise<ReceivedFile> {
  if (!request.isMultipart()) throw badRequest(ATTACHMENT_MESSAGES.notMultipart);
  await mkdir(tempDir, { recursive: true });
  let received: ReceivedFile | null = null;
  const tempFile = join(tempDir, `${randomBytes(12).toString('hex')}.part`);
  let out: WriteStream | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file' || part.fieldname !== 'file' || received) {
        throw badRequest(ATTACHMENT_MESSAGES.notMultipart);
      }
      out = createWriteStream(tempFile, { flags: 'wx' });
      const written = await hashToFile(part.file, out);
      if (part.file.truncated) throw bodyTooLarge(maxBytes, 'The file');
      received = { tempFile, ...written, fileName: part.filename };
    }
  } catch (err) {
    // A write stream opens its file asynchronously: a body cut off at once would otherwise have the file created
    // after it was removed. Its close comes after its open.
    if (out && !out.closed) await new Promise<void>((resolve) => out?.once('close', () => resolve()));
    await rm(tempFile, { force: true });
    const code = String((err as { code?: string }).code);
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw bodyTooLarge(maxBytes, 'The file');
    if (TOO_MANY_PARTS.has(code)) throw badRequest(ATTACHMENT_MESSAGES.notMultipart);
    const status = (err as { statusCode?: number }).statusCode;
    if (err instanceof HttpError || (status && status < 500)) throw err;
    // A failing disk (no space, no permission) is the server's.
    if ((err as NodeJS.ErrnoException).syscall) throw err;
    // The form parser's own errors (a cut-off body, a wrong boundary) are the client's.
    throw badRequest(ATTACHMENT_MESSAGES.malformed);
  }
  if (!received) throw badRequest(ATTACHMENT_MESSAGES.notMultipart);
  return received;
}
