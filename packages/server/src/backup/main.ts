import { loadBackupConfig } from '../config.ts';
import { createFileStore } from '../lib/file-store.ts';
import { copyAttachmentFiles } from './attachments-backup.ts';
import { backupSqlite } from './sqlite-backup.ts';

/**
 * `npm run backup`: a consistent copy of the configured SQLite database, safe while the server runs, with the
 * attachment files it names (docs/decisions/1144-backups-carry-files.md). PostgreSQL is backed up with its own
 * tools (docs/operations.md).
 */

try {
  const config = loadBackupConfig();
  if (config.database.dialect === 'postgres') {
    console.error(
      'DATABASE_URL points at PostgreSQL: back it up with pg_dump (for example `pg_dump --format=custom --file=billfold.dump "$DATABASE_URL"`) and restore with pg_restore; see docs/operations.md.',
    );
    process.exit(2);
  }
  const store = createFileStore(config.attachments.dir, config.attachments.s3);
  let result: Awaited<ReturnType<typeof backupSqlite>>;
  try {
    result = await backupSqlite({
      file: config.database.file,
      dir: config.dir,
      keep: config.keep,
      files: (copy, folder) => copyAttachmentFiles(copy, store, folder),
    });
  } finally {
    store.close?.();
  }
  const removed = result.removed.length > 0 ? `; removed ${result.removed.length} older (keeping ${config.keep})` : '';
  const files = result.files
    ? `; ${result.files.files} attachment files (${result.files.bytes} bytes) in ${result.files.path}`
    : '';
  console.log(`Backup written: ${result.path} (${result.bytes} bytes, integrity ok)${files}${removed}`);
  if (result.files && result.files.missing.length > 0)
    console.error(
      `Warning: ${result.files.missing.length} attachment files the database names are not in the store: ${result.files.missing.join(', ')} (see npm run attachments:check)`,
    );
} catch (err) {
  console.error(`Backup failed: ${(err as Error).message}`);
  process.exit(1);
}
