/**
 * `npm run attachments:check [-- --remove]`: compares the attachment files in the store with the attachment rows
 * (docs/decisions/1141-attachment-lifecycle.md) and prints the orphans (files no row names) and the missing files
 * (rows whose file is gone). With `--remove`, orphans older than an hour are removed, as the hourly job does. Exits
 * 1 when it finds either. Reads the same configuration as the server, so run it where the server runs.
 */
import { loadConfig } from '../config.ts';
import { closeDatabase, createDatabase, migrateToLatest } from '../db/database.ts';
import { SWEEP_GRACE, type SweepReport, sweepAttachmentFiles } from '../jobs/attachment-sweep.ts';
import { createFileStore } from '../lib/file-store.ts';
import { isProgram } from '../lib/program.ts';

/** The report as lines of text. */
export function describeReport(report: SweepReport, now: number): string[] {
  const lines = report.orphans.map(
    (o) => `orphan  ${o.key}  ${o.size} bytes, written ${Math.round((now - o.modifiedAt) / 60_000)} minutes ago`,
  );
  for (const key of report.missing) lines.push(`missing ${key}  named by an attachment, not in the store`);
  lines.push(
    `${report.orphans.length} orphan(s), ${report.removed} removed; ${report.missing.length} missing; ${report.staleUploads} interrupted upload(s) removed`,
  );
  return lines;
}

async function main(args: string[]): Promise<number> {
  const remove = args.includes('--remove');
  if (args.some((a) => a !== '--remove')) {
    console.error('Usage: npm run attachments:check [-- --remove]');
    return 2;
  }
  const config = loadConfig();
  const db = createDatabase(config.database);
  const store = createFileStore(config.attachments?.dir ?? '', config.attachments?.s3 ?? null);
  try {
    await migrateToLatest(db);
    const now = Date.now();
    const report = await sweepAttachmentFiles(db, store, { olderThan: now - SWEEP_GRACE, remove });
    for (const line of describeReport(report, now)) console.log(line);
    return report.orphans.length - report.removed > 0 || report.missing.length > 0 ? 1 : 0;
  } finally {
    store.close?.();
    await closeDatabase(db);
  }
}

if (isProgram(import.meta.url)) process.exitCode = await main(process.argv.slice(2));
