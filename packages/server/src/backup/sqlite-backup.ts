import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import type { FilesBackupResult } from './attachments-backup.ts';

/**
 * A consistent copy of a live SQLite database through SQLite's online backup API, written under a temporary
 * name, checked with `PRAGMA integrity_check`, then renamed into place, so a file named like a backup is
 * always a whole, verified one. With `files`, the attachment files the copy names are copied beside it
 * (`billfold-<time>.files/`) before either is renamed into place. The oldest backups beyond `keep` are removed
 * afterwards, their files with them.
 * docs/operations.md says how to restore one.
 */

export interface BackupOptions {
  /** The live database file (the server may be writing to it). */
  file: string;
  dir: string;
  keep: number;
  now?: () => number;
  /** Copies the files the verified database copy names into the given folder. */
  files?: (copy: string, folder: string) => Promise<FilesBackupResult>;
}

export interface BackupResult {
  path: string;
  bytes: number;
  pages: number;
  removed: string[];
  /** The attachment files copied, when `files` was given, and their folder. */
  files?: FilesBackupResult & { path: string };
}

const PREFIX = 'billfold-';
const SUFFIX = '.db';
/** `billfold-2026-11-23T00-36-09-123Z.db`: sorts by time as text. */
const NAME = /^billfold-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.db$/;

export function backupName(at: number): string {
  return `${PREFIX}${new Date(at).toISOString().replace(/[:.]/g, '-')}${SUFFIX}`;
}

/** The folder of a backup's attachment files: `billfold-<time>.files` beside `billfold-<time>.db`. */
export const filesFolderOf = (backup: string) => backup.replace(/\.db$/, '.files');

/** Backups in `dir`, oldest first. */
export function listBackups(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((name) => NAME.test(name)).sort();
}

export async function backupSqlite({ file, dir, keep, now = Date.now, files }: BackupOptions): Promise<BackupResult> {
  if (!Number.isInteger(keep) || keep < 1) throw new Error('keep must be a whole number of at least 1');
  mkdirSync(dir, { recursive: true });
  const target = join(dir, backupName(now()));
  const partial = `${target}.partial`;
  const folder = filesFolderOf(target);
  const partialFolder = `${folder}.partial`;
  rmSync(partial, { force: true });
  rmSync(partialFolder, { recursive: true, force: true });
  const source = new SQLite(file, { fileMustExist: true });
  let pages = 0;
  try {
    source.pragma('busy_timeout = 5000');
    // All remaining pages in one step: one read transaction, so a write committed meanwhile cannot restart the
    // copy (with WAL, readers never block the server's writers).
    const progress = await source.backup(partial, { progress: () => 0x7fffffff });
    pages = progress.totalPages;
  } finally {
    source.close();
  }
  let copied: FilesBackupResult | undefined;
  try {
    verify(partial);
    copied = files ? await files(partial, partialFolder) : undefined;
  } catch (err) {
    rmSync(partial, { force: true });
    rmSync(partialFolder, { recursive: true, force: true });
    throw err;
  }
  // The files first: a database named like a backup always has its files beside it.
  if (copied) renameSync(partialFolder, folder);
  renameSync(partial, target);
  const existing = listBackups(dir);
  const removed = existing.slice(0, Math.max(existing.length - keep, 0));
  for (const name of removed) {
    rmSync(join(dir, name), { force: true });
    rmSync(filesFolderOf(join(dir, name)), { recursive: true, force: true });
  }
  return {
    path: target,
    bytes: statSync(target).size,
    pages,
    removed,
    ...(copied ? { files: { ...copied, path: folder } } : {}),
  };
}

function verify(path: string): void {
  const copy = new SQLite(path, { fileMustExist: true });
  try {
    // The copy keeps the source's WAL mode; a backup is one self-contained file.
    copy.pragma('journal_mode = DELETE');
    const rows = copy.pragma('integrity_check') as { integrity_check: string }[];
    const problems = rows.map((row) => row.integrity_check).filter((line) => line !== 'ok');
    if (problems.length > 0) throw new Error(`the copy failed its integrity check: ${problems.join('; ')}`);
  } finally {
    copy.close();
  }
}
