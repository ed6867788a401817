import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import type { FileStore } from '../lib/file-store.ts';

/**
 * The attachment files a database copy names, copied from the file store (disk or S3) into a folder beside the copy,
 * in the disk store's own layout (`objects/<first two characters>/<key>`), so that restoring them is copying that
 * folder into `ATTACHMENTS_DIR` (docs/decisions/1144-backups-carry-files.md). Every file is checked against its key
 * (the SHA-256 of its bytes) as it is copied; a file the copy names but the store no longer has is reported, not
 * fatal: the backup still holds every other file, and `npm run attachments:check` says the same of the live store.
 */

export interface FilesBackupResult {
  files: number;
  bytes: number;
  /** Keys the database copy names that the store does not hold. */
  missing: string[];
}

/** The distinct file keys the attachment rows of an SQLite database name, in key order. */
function keysOf(copy: string): string[] {
  const db = new SQLite(copy, { readonly: true, fileMustExist: true });
  try {
    return (
      db.prepare('select distinct file_key from attachments order by file_key').all() as { file_key: string }[]
    ).map((row) => row.file_key);
  } finally {
    db.close();
  }
}

export async function copyAttachmentFiles(copy: string, store: FileStore, target: string): Promise<FilesBackupResult> {
  const result: FilesBackupResult = { files: 0, bytes: 0, missing: [] };
  mkdirSync(join(target, 'objects'), { recursive: true });
  for (const key of keysOf(copy)) {
    let source: Awaited<ReturnType<FileStore['read']>>;
    try {
      source = await store.read(key);
    } catch {
      result.missing.push(key);
      continue;
    }
    const folder = join(target, 'objects', key.slice(0, 2));
    mkdirSync(folder, { recursive: true });
    const hash = createHash('sha256');
    let bytes = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(source, count, createWriteStream(join(folder, key)));
    const digest = hash.digest('hex');
    if (digest !== key)
      throw new Error(`the stored file ${key} does not hold the bytes its name says (SHA-256 ${digest})`);
    result.files += 1;
    result.bytes += bytes;
  }
  return result;
}
