import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { richAccountFile } from './helpers/account-file.ts';
import { dialects } from './helpers/app.ts';
import { type ServerDeployment, serverDeployment, until } from './helpers/server-deployment.ts';
import { changedTables, describeChanges, snapshot, tableNames } from './security/database-state.ts';

/**
 * An account import stopped midway in the real server process (docs/decisions/0707-account-import-in-steps.md): its
 * parts are committed one by one into a ledger of its own, so a client that goes or a process that is killed leaves
 * that ledger behind for a moment. The client gone: the server removes it at once. The process killed (SIGKILL, no
 * shutdown code runs): it is still there with the server down, and the next start removes it. Either way every table
 * ends as it was before the import.
 */

const TEXT = JSON.stringify(richAccountFile(20_000));

const IMPORTING = `select count(distinct l.id) as ledgers, count(e.id) as invoices from ledgers l
  left join entries e on e.ledger_id = l.id where l.importing_since is not null`;

/**
 * The ledgers an import is writing, and the invoices in them, read beside the running server: on SQLite through a
 * read-only connection of its own (an application connection would first run its settings, which wait for the
 * server's write lock).
 */
async function importing(d: ServerDeployment): Promise<{ ledgers: number; invoices: number }> {
  let row: { ledgers: number | string; invoices: number | string } | undefined;
  if (d.database.dialect === 'sqlite') {
    const db = new SQLite(d.database.file, { readonly: true, fileMustExist: true });
    try {
      row = db.prepare(IMPORTING).get() as typeof row;
    } finally {
      db.close();
    }
  } else {
    row = await d.read(async (db) => (await sql.raw<NonNullable<typeof row>>(IMPORTING).execute(db)).rows[0]);
  }
  return { ledgers: Number(row?.ledgers ?? 0), invoices: Number(row?.invoices ?? 0) };
}

describe.each(dialects)('an account import stopped midway on %s', (dialect) => {
  it('leaves every table as it was: the client gone (at once), the process killed (at the next start)', async () => {
    const d = await serverDeployment(dialect, 'import-stop');
    try {
      let server = await d.start();
      const token = await d.signUp();
      const send = (signal?: AbortSignal) =>
        fetch(`${server.url}/api/v1/account/import`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: TEXT,
          signal,
        }).catch(() => null);
      const tables = await d.read(tableNames);
      const before = await d.read((db) => snapshot(db, tables));
      const unchanged = async () => {
        const after = await d.read((db) => snapshot(db, tables));
        expect(changedTables(before, after), describeChanges(before, after)).toEqual([]);
      };
      const writing = async () => (await importing(d)).invoices > 0;

      // The client goes while parts are written.
      const client = new AbortController();
      const first = send(client.signal);
      await until(writing, 60_000, 'the import to write');
      client.abort();
      await first;
      await until(async () => (await importing(d)).ledgers === 0, 60_000, 'the import to be removed');
      await unchanged();

      // The process is killed while parts are written: the import's ledger outlives it, and the next start removes it.
      const second = send();
      await until(writing, 60_000, 'the import to write again');
      await server.kill();
      await second;
      expect((await importing(d)).ledgers).toBe(1);
      server = await d.start();
      await until(async () => (await importing(d)).ledgers === 0, 60_000, 'the next start to remove it');
      await unchanged();
    } finally {
      await d.dispose();
    }
  }, 240_000);
});
