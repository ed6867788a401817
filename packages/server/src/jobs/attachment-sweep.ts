import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '../db/database.ts';
import type { FileStore, StoredObject } from '../lib/file-store.ts';
import { HOUR } from '../lib/time.ts';

/** How old an unreferenced file must be before the sweep removes it: an upload stores its file before its row. */
export const SWEEP_GRACE = HOUR;

export interface SweepReport {
  /** Files of the store that no attachment row names (thumbnails of such files included). */
  orphans: StoredObject[];
  /** Of those, how many were removed (only when asked to, and only those older than the grace). */
  removed: number;
  /** Keys that attachment rows name but the store lacks: files lost outside the app. */
  missing: string[];
  /** Uploads left half-written in the temp folder by a crash, removed when asked to. */
  staleUploads: number;
}

/**
 * Compares the store with the attachment rows (docs/decisions/1141-attachment-lifecycle.md). With `remove`, files
 * no row names and last written before `olderThan` are removed, with their derived files (thumbnails), and so are
 * uploads in the temp folder older than that. After the recycle-bin purge has deleted invoices and payments (their
 * attachment rows going by foreign-key cascade), this is what deletes their files.
 */
export async function sweepAttachmentFiles(
  db: Db,
  store: FileStore,
  options: { olderThan: number; remove: boolean },
): Promise<SweepReport> {
  const rows = await db.selectFrom('attachments').select('file_key').distinct().execute();
  const referenced = new Set(rows.map((row) => row.file_key));
  const seen = new Set<string>();
  const report: SweepReport = { orphans: [], removed: 0, missing: [], staleUploads: 0 };
  for await (const object of store.list()) {
    const base = object.key.slice(0, 64);
    if (referenced.has(base)) {
      if (object.key === base) seen.add(base);
      continue;
    }
    report.orphans.push(object);
    if (options.remove && object.modifiedAt < options.olderThan) {
      await store.remove(object.key);
      report.removed += 1;
    }
  }
  report.missing = [...referenced].filter((key) => !seen.has(key)).sort();
  if (options.remove) report.staleUploads = await removeStaleUploads(store.tempDir, options.olderThan);
  return report;
}

async function removeStaleUploads(dir: string, olderThan: number): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith('.part')) continue;
    const path = join(dir, name);
    const s = await stat(path).catch(() => null);
    if (s && s.mtimeMs < olderThan) {
      await rm(path, { force: true });
      removed += 1;
    }
  }
  return removed;
}

/** The hourly job's summary for the log line: counts, not the list. */
export function sweepSummary(report: SweepReport) {
  return {
    orphans: report.orphans.length,
    removed: report.removed,
    missing: report.missing.length,
    staleUploads: report.staleUploads,
  };
}
