import { loadBackupConfig } from '../config.ts';
import { backupSqlite } from './sqlite-backup.ts';

/**
 * `npm run backup`: a consistent copy of the configured SQLite database, safe while the server runs.
 * PostgreSQL is backed up with its own tools (docs/operations.md).
 */

try {
  const config = loadBackupConfig();
  if (config.database.dialect === 'postgres') {
    console.error(
      'DATABASE_URL points at PostgreSQL: back it up with pg_dump (for example `pg_dump --format=custom --file=billfold.dump "$DATABASE_URL"`) and restore with pg_restore; see docs/operations.md.',
    );
    process.exit(2);
  }
  const result = await backupSqlite({ file: config.database.file, dir: config.dir, keep: config.keep });
  const removed = result.removed.length > 0 ? `; removed ${result.removed.length} older (keeping ${config.keep})` : '';
  console.log(`Backup written: ${result.path} (${result.bytes} bytes, integrity ok)${removed}`);
} catch (err) {
  console.error(`Backup failed: ${(err as Error).message}`);
  process.exit(1);
}
