import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Limits } from '../../config.ts';
import type { FileStore } from '../../lib/file-store.ts';
import { badRequest, HttpError } from '../../lib/http-error.ts';
import { type ByteReader, readTar, type TarEntry, TarError, tarEnd, tarEntry } from '../../lib/tar.ts';
import { bodyTooLarge, byteSize } from '../../plugins/body.ts';
import { hashToFile } from '../attachments/attachments.upload.ts';
import { sniffType } from '../attachments/file-types.ts';
import type { NamedFile } from './account-file-parser.ts';

/**
 * The ledger archive (docs/decisions/1160-ledger-archive.md): an uncompressed POSIX tar of `ledger.json` (the ledger
 * file's JSON) and then `files/<sha256>` for each file its attachments name, once each. Written and read as a stream:
 * the JSON is spooled to a temp file (a tar header needs its size first), the files come from the store one at a
 * time, and an upload's files go to temp files as they arrive.
 */

export const LEDGER_JSON = 'ledger.json';
const FILE_NAME = /^files\/([0-9a-f]{64})$/;

export type ArchiveLimits = Pick<Limits, 'accountFileBytes' | 'attachmentBytes' | 'ledgerAttachmentBytes'>;

const tempName = (dir: string) => join(dir, `${randomBytes(12).toString('hex')}.part`);

/** A write stream's file exists once it has opened: wait for its close before removing it. */
async function closed(out: WriteStream | null): Promise<void> {
  if (out && !out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
}

/** The store's bytes of `sha256`, checked against the key as they pass: a store serving other bytes breaks the export. */
async function* verified(stream: Readable, sha256: string): AsyncGenerator<Uint8Array> {
  const hash = createHash('sha256');
  for await (const chunk of stream) {
    hash.update(chunk as Uint8Array);
    yield chunk as Uint8Array;
  }
  if (hash.digest('hex') !== sha256) throw new Error(`the stored file ${sha256} does not have that SHA-256`);
}

/**
 * The archive's bytes: `json` written to a temp file under the store's temp folder (its size goes in the header),
 * then sent as `ledger.json`, then each file from the store, then the end. The temp file is gone when the JSON has
 * been sent or the archive broken off.
 */
export async function* writeArchive(
  json: AsyncIterable<string>,
  files: readonly NamedFile[],
  store: FileStore,
  at: number,
): AsyncGenerator<Uint8Array> {
  await mkdir(store.tempDir, { recursive: true });
  const temp = tempName(store.tempDir);
  let out: WriteStream | null = null;
  try {
    let size = 0;
    out = createWriteStream(temp, { flags: 'wx' });
    await pipeline(async function* () {
      for await (const text of json) {
        const bytes = Buffer.from(text, 'utf8');
        size += bytes.length;
        yield bytes;
      }
    }, out);
    yield* tarEntry(LEDGER_JSON, size, at, createReadStream(temp));
  } finally {
    await closed(out);
    await rm(temp, { force: true });
  }
  for (const file of files) {
    yield* tarEntry(`files/${file.sha256}`, file.size, at, verified(await store.read(file.sha256), file.sha256));
  }
  yield tarEnd();
}

/** A refusal of the archive's structure as the 400 the route answers. */
const invalid = (message: string) => badRequest(message, 'INVALID_FILE');

/** The reader's refusals (a cut-off archive, a bad header) as 400s; anything else as it is. */
export function asRefusal(err: unknown): unknown {
  return err instanceof TarError ? invalid(err.message) : err;
}

/** The archive's first entry, `ledger.json`, read whole (at most `LIMIT_ACCOUNT_FILE_BYTES`), and the entries after it. */
export async function readLedgerJson(
  reader: ByteReader,
  limits: ArchiveLimits,
): Promise<{ json: Uint8Array; entries: AsyncGenerator<TarEntry> }> {
  const entries = readTar(reader);
  try {
    const first = await entries.next();
    if (first.done || first.value.name !== LEDGER_JSON) throw invalid(`A ledger archive starts with ${LEDGER_JSON}.`);
    if (first.value.size > limits.accountFileBytes) throw bodyTooLarge(limits.accountFileBytes, LEDGER_JSON);
    const json = Buffer.alloc(first.value.size);
    let at = 0;
    for await (const chunk of first.value.body) {
      json.set(chunk, at);
      at += chunk.length;
    }
    return { json, entries };
  } catch (err) {
    await entries.return(undefined);
    throw asRefusal(err);
  }
}

/**
 * Before a byte of the files is read: each file within `LIMIT_ATTACHMENT_BYTES`, and the attachments' sizes added up
 * (as the ledger's quota counts them) within `LIMIT_LEDGER_ATTACHMENT_BYTES` (413 otherwise).
 */
export function checkFileLimits(files: readonly NamedFile[], attachmentBytes: number, limits: ArchiveLimits): void {
  const quota = limits.ledgerAttachmentBytes;
  if (attachmentBytes > quota)
    throw new HttpError(
      413,
      `The file's attachments add up to more than this ledger's storage limit of ${byteSize(quota)}.`,
      {},
      'ATTACHMENT_QUOTA_EXCEEDED',
    );
  const large = files.find((f) => f.size > limits.attachmentBytes);
  if (large) throw bodyTooLarge(limits.attachmentBytes, `The attached file ${large.sha256}`);
}

/** Files received from an archive into temp files, by SHA-256; `remove` deletes those not yet moved into the store. */
export interface ReceivedFiles {
  temps: Map<string, string>;
  remove: () => Promise<void>;
}

/**
 * The archive's entries after `ledger.json`, each into a temp file as it arrives, checked against the file the
 * attachments name: its name is `files/<sha256>` of one of them (and comes once), its size is theirs, its bytes have
 * that SHA-256 and are of their type; when the archive ends, every named file has come. Any refusal (400) leaves no
 * temp file behind.
 */
export async function receiveFiles(
  entries: AsyncGenerator<TarEntry>,
  files: readonly NamedFile[],
  tempDir: string,
): Promise<ReceivedFiles> {
  const named = new Map(files.map((f) => [f.sha256, f]));
  const temps = new Map<string, string>();
  const remove = async () => {
    const all = [...temps.values()];
    temps.clear();
    await Promise.all(all.map((temp) => rm(temp, { force: true })));
  };
  try {
    await mkdir(tempDir, { recursive: true });
    for await (const entry of entries) {
      const sha256 = FILE_NAME.exec(entry.name)?.[1];
      if (sha256 === undefined)
        throw invalid(`The archive holds "${entry.name}": a ledger archive holds only ledger.json and files/<sha256>.`);
      const file = named.get(sha256);
      if (!file) throw invalid(`The archive holds the file ${sha256}, which no attachment in ledger.json names.`);
      if (temps.has(sha256)) throw invalid(`The archive holds the file ${sha256} twice.`);
      if (entry.size !== file.size)
        throw invalid(`The file ${sha256} has ${entry.size} bytes in the archive, but ${file.size} in ledger.json.`);
      const temp = tempName(tempDir);
      temps.set(sha256, temp);
      const out = createWriteStream(temp, { flags: 'wx' });
      let written: Awaited<ReturnType<typeof hashToFile>>;
      try {
        written = await hashToFile(entry.body, out);
      } finally {
        await closed(out);
      }
      if (written.key !== sha256) throw invalid(`The bytes of the file ${sha256} do not have that SHA-256.`);
      if (sniffType(written.head) !== file.contentType)
        throw badRequest(
          `The file ${sha256} is not the ${file.contentType} file ledger.json says it is.`,
          'ATTACHMENT_TYPE_NOT_ALLOWED',
        );
    }
    const missing = files.find((f) => !temps.has(f.sha256));
    if (missing)
      throw invalid(`The archive lacks the file ${missing.sha256}, which an attachment in ledger.json names.`);
    return { temps, remove };
  } catch (err) {
    await remove();
    throw asRefusal(err);
  }
}
