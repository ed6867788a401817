import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { endianness } from 'node:os';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_CHANNEL } from '../src/db/checkpointer.ts';
import { createDatabase } from '../src/db/database.ts';
import { createTestDatabase } from './helpers/app.ts';

/**
 * SQLite checkpoints its WAL into the database file automatically inside the commit of the connection that writes:
 * after a large transaction (an account file, a CSV import) that held the event loop for seconds. The app's
 * connection leaves them to a thread of its own (db/checkpointer.ts; docs/decisions/0706-limits-and-fairness.md).
 * What SQLite has copied is read from the WAL index (the `-shm` file): the WAL's last frame (`mxFrame`, byte 16 of
 * its header) and the frames copied into the database (`nBackfill`, byte 96), in the machine's byte order.
 */
function walIndex(file: string): { frames: number; copied: number } {
  const shm = readFileSync(`${file}-shm`);
  const read = (at: number) => (endianness() === 'LE' ? shm.readUInt32LE(at) : shm.readUInt32BE(at));
  return { frames: read(16), copied: read(96) };
}

describe('SQLite checkpoints', () => {
  it("a large commit copies nothing on the app's connection; the checkpointer thread copies the whole WAL soon after", async () => {
    const database = await createTestDatabase('sqlite');
    const file = (database.config as { file: string }).file;
    const db = createDatabase(database.config);
    const reports: { file: string; log: number; checkpointed: number }[] = [];
    let copiedAll: () => void = () => {};
    const allCopied = new Promise<void>((resolve) => {
      copiedAll = resolve;
    });
    const listen = (message: unknown) => {
      const report = message as (typeof reports)[number];
      if (report.file !== file) return;
      reports.push(report);
      if (report.log > 0 && report.checkpointed === report.log) copiedAll();
    };
    subscribe(CHECKPOINT_CHANNEL, listen);
    try {
      await sql`create table big (id integer primary key, body text not null)`.execute(db);
      // About 20 MB in one transaction: some 5,000 pages, five times SQLite's automatic checkpoint threshold.
      await db.transaction().execute(async (trx) => {
        for (let chunk = 0; chunk < 100; chunk++) {
          const rows = Array.from({ length: 500 }, (_, i) => ({ body: `${chunk}-${i}-${'x'.repeat(400)}` }));
          await trx
            .insertInto('big' as never)
            .values(rows as never)
            .execute();
        }
      });
      const afterCommit = walIndex(file);
      expect(afterCommit.frames).toBeGreaterThan(4_000);
      // Before: the commit itself copied every frame here, with the event loop waiting.
      expect(afterCommit.copied).toBeLessThan(1_000);

      await allCopied;
      expect(walIndex(file).copied).toBe(walIndex(file).frames);
      const rows = await sql<{ n: number }>`select count(*) as n from big`.execute(db);
      expect(rows.rows[0]?.n).toBe(50_000);
    } finally {
      unsubscribe(CHECKPOINT_CHANNEL, listen);
      await db.destroy();
      await database.drop();
    }
  });
});
