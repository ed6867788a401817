import { createHash, randomUUID } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { migrations } from '../../db/migrations/index.ts';
import { DAY, HOUR } from '../../lib/time.ts';
import { nextTurn } from '../../lib/turns.ts';
import { LedgerIndex } from './ledger-index.ts';
import { COLUMN_TYPES } from './ledger-index-columns.ts';
import { IndexRebuildNeeded, type SavedArray, type SavedLists } from './ledger-index-store.ts';
import { SORT_COLUMNS } from './scope-sql.ts';

/**
 * The saved copy of a ledger's index (docs/decisions/0407-saved-ledger-index.md): a ledger's index written to
 * `<dir>/<ledger id>.index` once it has loaded and when the server stops, and read back at the next start (or load)
 * instead of from the database, then caught up from the change log. A copy is taken back only when it is provably
 * the same data: its random token is the one the database holds for the ledger and the folder, every section's hash
 * matches, the code that reads it has the layout that wrote it, and every data version since it was saved is still
 * in the change log. Anything else, and the index loads from the database as before.
 */

const MAGIC = 'BFLIDX01';
/** Raise it when what a column holds changes without its name or type changing. */
const FORMAT = 1;
/** What reads a copy must be what wrote it: the format, the columns, the sort columns and the newest migration. */
const LAYOUT = JSON.stringify({
  format: FORMAT,
  columns: Object.entries(COLUMN_TYPES).map(([name, type]) => [name, type.name]),
  sorts: SORT_COLUMNS,
  schema: Object.keys(migrations).sort().at(-1),
});
/** The magic, the header's length, padding: the header follows. */
const LEAD_BYTES = 16;
/** A header larger than this is not one this code wrote (descriptions of millions of invoices fit). */
const MAX_HEADER_BYTES = 512 * 1024 * 1024;
/** Bytes hashed or read per step: the event loop gets a turn between steps. */
const STEP_BYTES = 4 * 1024 * 1024;

interface Section {
  name: string;
  type: string;
  length: number;
  /** From the start of the data (after the header, at a multiple of 8). */
  offset: number;
  sha1: string;
}

interface Header {
  layout: string;
  ledgerId: number;
  token: string;
  /** What the index counted as its memory (`LedgerIndexStore.bytes`) when saved. */
  bytes: number;
  lists: SavedLists;
  sections: Section[];
}

const align8 = (n: number) => Math.ceil(n / 8) * 8;
const bytesOf = (a: SavedArray) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** SHA-1 of the bytes, hashed a step at a time. */
async function hashOf(bytes: Uint8Array): Promise<string> {
  const hash = createHash('sha1');
  for (let at = 0; at < bytes.byteLength; at += STEP_BYTES) {
    hash.update(bytes.subarray(at, at + STEP_BYTES));
    await nextTurn();
  }
  return hash.digest('hex');
}

export const savedIndexFile = (dir: string, ledgerId: number) => join(dir, `${ledgerId}.index`);

/**
 * A folder of saved copies and its random name in `ledger_index_files` (its `holder` file, made at first use):
 * processes with folders of their own each have their own rows, so each takes back the copies it wrote.
 */
export interface SavedFolder {
  dir: string;
  holder: string;
}

/** A holder's rows left unsaved this long belong to a folder no process uses any more: removed at start. */
const ABANDONED_AFTER_MS = 30 * DAY;

export async function openSavedFolder(dir: string): Promise<SavedFolder> {
  const file = join(dir, 'holder');
  await mkdir(dir, { recursive: true });
  try {
    await writeFile(file, randomUUID(), { flag: 'wx' }); // two processes starting on one folder: one name wins
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const holder = (await readFile(file, 'utf8')).trim();
  if (!/^[0-9a-f-]{36}$/.test(holder)) throw new Error(`${file} does not hold a folder name`);
  return { dir, holder };
}

/**
 * Writes the index to its file (a temporary file, synced, then renamed over the old one) and then the file's
 * token to `ledger_index_files`. Nothing else may change the index meanwhile. Returns the version saved.
 */
export async function saveLedgerIndex(db: Db, folder: SavedFolder, index: LedgerIndex, now: number): Promise<number> {
  const { dir, holder } = folder;
  const { arrays, ...lists } = index.savedState();
  const token = randomUUID();
  let offset = 0;
  const sections: Section[] = [];
  for (const [name, array] of arrays) {
    sections.push({
      name,
      type: array.constructor.name,
      length: array.length,
      offset,
      sha1: await hashOf(bytesOf(array)),
    });
    offset += align8(array.byteLength);
  }
  const header: Header = { layout: LAYOUT, ledgerId: index.ledgerId, token, bytes: index.bytes, lists, sections };
  const headerBytes = Buffer.from(JSON.stringify(header));
  const dataStart = align8(LEAD_BYTES + headerBytes.byteLength);
  await mkdir(dir, { recursive: true });
  const file = savedIndexFile(dir, index.ledgerId);
  const temporary = `${file}.${token}.tmp`;
  const out = await open(temporary, 'w');
  try {
    const lead = Buffer.alloc(LEAD_BYTES);
    lead.write(MAGIC, 0, 'latin1');
    lead.writeUInt32LE(headerBytes.byteLength, 8);
    await out.write(lead, 0, LEAD_BYTES, 0);
    await out.write(headerBytes, 0, headerBytes.byteLength, LEAD_BYTES);
    for (const [i, [, array]] of arrays.entries()) {
      const bytes = bytesOf(array);
      const at = dataStart + (sections[i] as Section).offset;
      for (let done = 0; done < bytes.byteLength; done += STEP_BYTES) {
        const part = bytes.subarray(done, done + STEP_BYTES);
        await out.write(part, 0, part.byteLength, at + done);
      }
    }
    await out.sync();
    await out.close();
    await rename(temporary, file);
  } catch (err) {
    await out.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw err;
  }
  const version = lists.version;
  await db
    .insertInto('ledger_index_files')
    .values({ ledger_id: index.ledgerId, holder, token, version, saved_at: now })
    .onConflict((oc) => oc.columns(['ledger_id', 'holder']).doUpdateSet({ token, version, saved_at: now }))
    .execute();
  return version;
}

export type SavedIndexRead = { index: LedgerIndex; version: number } | { skipped: string };

/**
 * The ledger's index from its saved copy, caught up to `version` (the ledger's data version now), with the version
 * the copy was saved at; or why the copy was not taken: `{ skipped: 'none' }` when there is no copy.
 */
export async function readSavedLedgerIndex(
  db: Db,
  folder: SavedFolder,
  ledgerId: number,
  version: number,
  limits: { maxBytes: number; catchUpUpTo: number },
): Promise<SavedIndexRead> {
  let file: FileHandle;
  try {
    file = await open(savedIndexFile(folder.dir, ledgerId), 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { skipped: 'none' };
    throw err;
  }
  try {
    const lead = Buffer.alloc(LEAD_BYTES);
    await readExactly(file, lead, 0);
    if (lead.toString('latin1', 0, 8) !== MAGIC) return { skipped: 'not a saved index' };
    const headerLength = lead.readUInt32LE(8);
    if (headerLength > MAX_HEADER_BYTES) return { skipped: 'not a saved index' };
    const headerBytes = Buffer.alloc(headerLength);
    await readExactly(file, headerBytes, LEAD_BYTES);
    const header = JSON.parse(headerBytes.toString('utf8')) as Header;
    if (header.layout !== LAYOUT) return { skipped: 'written by another version of the code' };
    if (header.ledgerId !== ledgerId) return { skipped: 'of another ledger' };
    if (header.bytes > limits.maxBytes) return { skipped: 'larger than the memory' };
    const row = await db
      .selectFrom('ledger_index_files')
      .select('token')
      .where('ledger_id', '=', ledgerId)
      .where('holder', '=', folder.holder)
      .executeTakeFirst();
    if (row?.token !== header.token) return { skipped: 'not the database’s copy' };
    const saved = header.lists.version;
    if (version < saved) return { skipped: 'newer than the data' };
    if (version > saved && !(await changesLogged(db, ledgerId, saved, version))) {
      return { skipped: 'changes since no longer logged' };
    }
    const dataStart = align8(LEAD_BYTES + headerLength);
    const sections = new Map(header.sections.map((s) => [s.name, s]));
    const index = await LedgerIndex.restore(db, ledgerId, header.lists, async (name, type, length) => {
      const s = sections.get(name);
      if (!s) throw new IndexRebuildNeeded(`the saved copy has no section ${name}`);
      if (s.type !== type.name || (length !== undefined && s.length !== length)) {
        throw new IndexRebuildNeeded(`section ${name} differs`);
      }
      const array = new type(s.length);
      const bytes = bytesOf(array);
      for (let done = 0; done < bytes.byteLength; done += STEP_BYTES) {
        await readExactly(file, bytes.subarray(done, done + STEP_BYTES), dataStart + s.offset + done);
      }
      if ((await hashOf(bytes)) !== s.sha1) throw new IndexRebuildNeeded(`section ${name} changed on disk`);
      return array;
    });
    await index.catchUp(version, limits.catchUpUpTo);
    return { index, version: saved };
  } catch (err) {
    if (err instanceof IndexRebuildNeeded || err instanceof SyntaxError || err instanceof ShortFile) {
      return { skipped: err.message };
    }
    throw err;
  } finally {
    await file.close();
  }
}

class ShortFile extends Error {}

async function readExactly(file: FileHandle, into: Uint8Array, position: number): Promise<void> {
  const { bytesRead } = await file.read(into, 0, into.byteLength, position);
  if (bytesRead !== into.byteLength) throw new ShortFile('the file ends early');
}

/** Whether every data version in (`from`, `to`] still has its rows in the change log (it keeps an hour). */
async function changesLogged(db: Db, ledgerId: number, from: number, to: number): Promise<boolean> {
  const row = await db
    .selectFrom('entry_changes')
    .select(sql<number>`count(distinct version)`.as('n'))
    .where('ledger_id', '=', ledgerId)
    .where('version', '>', from)
    .where('version', '<=', to)
    .executeTakeFirstOrThrow();
  return Number(row.n) === to - from;
}

/**
 * Removes the copies the database no longer names for the folder (ledgers gone, or another database's), temporary
 * files a stopped save left more than an hour ago, and the rows of other folders that saved nothing for 30 days.
 */
export async function removeUnnamedSavedIndexes(db: Db, folder: SavedFolder, now: number): Promise<number> {
  const { dir, holder } = folder;
  await db
    .deleteFrom('ledger_index_files')
    .where('holder', '<>', holder)
    .where('saved_at', '<', now - ABANDONED_AFTER_MS)
    .execute();
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  const known = new Set(
    (await db.selectFrom('ledger_index_files').select('ledger_id').where('holder', '=', holder).execute()).map((r) =>
      Number(r.ledger_id),
    ),
  );
  let removed = 0;
  for (const name of names) {
    const path = join(dir, name);
    const copy = /^(\d+)\.index$/.exec(name);
    const stale = name.endsWith('.tmp') && now - (await stat(path)).mtimeMs > HOUR;
    if ((copy && !known.has(Number(copy[1]))) || stale) {
      await rm(path, { force: true });
      removed++;
    }
  }
  return removed;
}
