import { existsSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import type { DataVersionRepository } from './data-version.repository.ts';
import { LedgerIndex } from './ledger-index.ts';
import {
  openSavedFolder,
  readSavedLedgerIndex,
  removeUnnamedSavedIndexes,
  type SavedFolder,
  savedIndexFile,
  saveLedgerIndex,
} from './ledger-index-file.ts';
import { estimateLedgerBytes } from './ledger-index-size.ts';
import { IndexRebuildNeeded, IndexTooLarge } from './ledger-index-store.ts';

/** How the ledger indexes are kept (docs/decisions/0405-ledger-index.md). Options, so tests reach every path. */
export interface LedgerIndexOptions {
  /** Memory for every ledger's index together, in bytes; 0 turns them off (every read runs SQL). */
  maxBytes: number;
  /** A ledger smaller than this is indexed during the request that first needs it; a larger one in the background. */
  loadInlineBelow: number;
  /** An index unused for longer than this is read afresh, not caught up (the change log keeps an hour). */
  staleAfterMs: number;
  /** After a failed load, wait this long before the next try. */
  retryAfterMs: number;
  /** More invoices changed than this since the last read, and the index is read afresh instead of caught up. */
  catchUpUpTo: number;
  /** A ledger whose index would not fit in `maxBytes` is estimated again after this long (it may have shrunk). */
  tooLargeRecheckMs: number;
  /**
   * Where the ledgers' indexes are saved and read back at the next start or load (ledger-index-file.ts,
   * docs/decisions/0407-saved-ledger-index.md); null: never saved.
   */
  savedDir: string | null;
}

export const DEFAULT_LEDGER_INDEX_OPTIONS: LedgerIndexOptions = {
  maxBytes: 512 * 1024 * 1024,
  loadInlineBelow: 50_000,
  staleAfterMs: 30 * 60_000,
  retryAfterMs: 60_000,
  // Each changed invoice costs one index seek per sort order (eleven) to move.
  catchUpUpTo: 2_000,
  tooLargeRecheckMs: 30 * 60_000,
  savedDir: null,
};

/** A ledger's demand (`LedgerSlot.demand`) halves every minute it is not asked for. */
const DEMAND_HALF_LIFE_MS = 60_000;
/**
 * With the memory full, a ledger without an index loads one only when it is asked for more than this many times as
 * much as the index it would push out (`admits`).
 */
const ADMIT_OVER = 2;
/**
 * Loads that run at once. Loads share the one thread with the requests: fifty started together all end after fifty
 * loads' time, and each request waiting for one waits that long; past this many, SQL answers the request instead
 * (docs/decisions/0405-ledger-index.md, "Loads at once").
 */
export const LOADS_AT_ONCE = 4;

/**
 * A ledger as a request reads it: its id, and its data version as the request began when the request knows it
 * (the ledger group's hook reads it with the member check, plugins/ledger.ts; `request.ledger` is one).
 */
export interface LedgerAt {
  id: number;
  version?: number;
}

interface LedgerSlot {
  index: LedgerIndex | null;
  loading: boolean;
  usedAt: number;
  /** How much the ledger is asked for lately: one per read, halving every `DEMAND_HALF_LIFE_MS` (at `demandAt`). */
  demand: number;
  demandAt: number;
  /** Not before this instant: the next load after a failure or an index too large for the memory. */
  retryAt: number;
  /** One reader or catch-up at a time per ledger: reads never see an index half caught up. */
  queue: Promise<unknown>;
  /** What answered the ledger's latest read. */
  answered: 'index' | 'sql';
  /** Where the index came from: its saved copy or the database. */
  source: 'saved' | 'database' | null;
  /** The version of the index's saved copy (-1: none this process knows of). */
  savedVersion: number;
}

/** The slot's demand as of `now`. */
function demandOf(slot: LedgerSlot, now: number): number {
  return slot.demand * 2 ** (-(now - slot.demandAt) / DEMAND_HALF_LIFE_MS);
}

/**
 * The index of each ledger: loaded on first need (at most `LOADS_AT_ONCE` at a time, and once the memory is full only
 * for a ledger asked for more than the index it would push out), caught up with the ledger's data version before each
 * read, evicted least recently used beyond `maxBytes`. When a ledger has no index ready, `read` returns null and the
 * repository answers from SQL: the index only ever makes a read faster, never different.
 */
export class LedgerIndexes {
  private readonly ledgers = new Map<number, LedgerSlot>();
  /** Loads under way (`LOADS_AT_ONCE`). */
  private loads = 0;
  /** The saved folder, opened at its first use (its `holder` file made then). */
  private savedFolder: Promise<SavedFolder> | null = null;

  constructor(
    private readonly db: Db,
    private readonly versions: DataVersionRepository,
    private readonly ledgerSize: (ledgerId: number) => Promise<number>,
    private readonly options: LedgerIndexOptions = DEFAULT_LEDGER_INDEX_OPTIONS,
    private readonly now: () => number = Date.now,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** What answered the ledger's latest read: the index, or SQL (while it loads, or with the index off). */
  answered(ledgerId: number): 'index' | 'sql' {
    return this.ledgers.get(ledgerId)?.answered ?? 'sql';
  }

  /** The data version the ledger's index in memory has caught up to, or undefined when it has none. */
  versionOf(ledgerId: number): number | undefined {
    return this.ledgers.get(ledgerId)?.index?.version;
  }

  /** Where the ledger's index in memory came from, or null when it has none. */
  source(ledgerId: number): 'saved' | 'database' | null {
    const slot = this.ledgers.get(ledgerId);
    return slot?.index ? slot.source : null;
  }

  /**
   * Runs `work` on the ledger's index, exact at the ledger's data version as it is now (or as the request began,
   * `known`), or returns null when the index is off, loading, or could not be kept. `known` is the version the request read as it began (the ledger
   * group's hook reads it with the member check): the index answers at it, or at a later version it has already
   * caught up to, without reading the version again. Only an index ahead of `known` reads it again, to tell a
   * write since the request began from a version that went back.
   */
  async read<T>(
    ledgerId: number,
    work: (index: LedgerIndex) => T | Promise<T>,
    known?: number,
  ): Promise<{ value: T } | null> {
    if (this.options.maxBytes <= 0) return null;
    const slot = this.ledgers.get(ledgerId) ?? this.track(ledgerId);
    const now = this.now();
    slot.demand = demandOf(slot, now) + 1;
    slot.demandAt = now;
    // A second try after an index that had to be read afresh (for a small ledger, at once).
    for (let attempt = 0; attempt < 2; attempt++) {
      if (!(await this.ensure(ledgerId, slot))) break;
      const run = slot.queue.then(async () => {
        const index = slot.index;
        if (!index) return null;
        try {
          let version = known ?? (await this.versions.version(ledgerId));
          if (version < index.version && known !== undefined) version = await this.versions.version(ledgerId);
          if (version < index.version) throw new IndexRebuildNeeded('the data version went back');
          await index.catchUp(version, this.options.catchUpUpTo);
          // Grown past the memory by the changes it took in: dropped, and SQL answers.
          if (index.bytes > this.options.maxBytes) throw new IndexTooLarge('grown past the memory');
          return { value: await work(index) };
        } catch (err) {
          if (err instanceof IndexTooLarge) {
            if (slot.index === index) slot.index = null;
            slot.retryAt = this.now() + this.options.tooLargeRecheckMs;
            return null;
          }
          if (!(err instanceof IndexRebuildNeeded)) throw err;
          this.log?.info({ ledgerId, reason: err.message }, 'ledger index read afresh');
          if (slot.index === index) slot.index = null;
          return null;
        }
      });
      slot.queue = run.catch(() => undefined);
      const result = await run;
      if (result) {
        slot.answered = 'index';
        return result;
      }
    }
    slot.answered = 'sql';
    return null;
  }

  /** Whether the ledger has an index: loaded now for a small ledger, started in the background for a large one. */
  private async ensure(ledgerId: number, slot: LedgerSlot): Promise<boolean> {
    const now = this.now();
    if (slot.index && now - slot.usedAt > this.options.staleAfterMs) slot.index = null;
    slot.usedAt = now;
    if (slot.index) return true;
    if (slot.loading || now < slot.retryAt || this.loads >= LOADS_AT_ONCE || !this.admits(slot, now)) return false;
    // Started (and counted in `loads`) before the size is read, so that requests meanwhile see it.
    const load = this.load(ledgerId, slot);
    // A small ledger's request waits for its load; a large one's goes on by SQL while it loads.
    if ((await this.ledgerSize(ledgerId)) >= this.options.loadInlineBelow) return false;
    await load;
    return slot.index !== null;
  }

  /**
   * Whether a ledger without an index may load one now. While the indexes held leave room for one more of their
   * average size, always. Once they fill the memory, a load pushes the least recently used index out, and many
   * tenants asked for at random (more ledgers than fit) would have every request load one ledger and drop another:
   * each load reads the whole ledger where SQL reads the page asked for. So the ledger loads only when it is asked
   * for more than `ADMIT_OVER` times as much lately as that index; otherwise SQL answers it
   * (docs/decisions/0405-ledger-index.md, "When the memory is full").
   */
  private admits(slot: LedgerSlot, now: number): boolean {
    const { bytes, count, oldest } = this.held();
    if (!oldest || bytes + bytes / count <= this.options.maxBytes) return true;
    return demandOf(slot, now) > ADMIT_OVER * demandOf(oldest, now);
  }

  /** The indexes in memory: their bytes, how many they are, and the least recently used of them. */
  private held(): { bytes: number; count: number; oldest: LedgerSlot | null } {
    let bytes = 0;
    let count = 0;
    let oldest: LedgerSlot | null = null;
    for (const slot of this.ledgers.values()) {
      if (!slot.index) continue;
      bytes += slot.index.bytes;
      count++;
      if (!oldest || slot.usedAt < oldest.usedAt) oldest = slot;
    }
    return { bytes, count, oldest };
  }

  private track(ledgerId: number): LedgerSlot {
    const slot: LedgerSlot = {
      index: null,
      loading: false,
      usedAt: 0,
      demand: 0,
      demandAt: 0,
      retryAt: 0,
      queue: Promise.resolve(),
      answered: 'sql',
      source: null,
      savedVersion: -1,
    };
    this.ledgers.set(ledgerId, slot);
    return slot;
  }

  private async load(ledgerId: number, slot: LedgerSlot): Promise<void> {
    if (slot.loading) return;
    slot.loading = true;
    this.loads++;
    const started = this.now();
    const { maxBytes } = this.options;
    const tooLarge = (bytes: number | undefined) => {
      slot.retryAt = this.now() + this.options.tooLargeRecheckMs;
      this.log?.warn({ ledgerId, bytes, maxBytes }, 'ledger index larger than its memory: SQL answers');
    };
    try {
      if (await this.takeSaved(ledgerId, slot)) return;
      // Sized from SQL first: a ledger that would not fit is never read into memory.
      const estimate = await estimateLedgerBytes(this.db, ledgerId);
      if (estimate.bytes > maxBytes) return tooLarge(estimate.bytes);
      const version = await this.versions.version(ledgerId);
      const index = await LedgerIndex.load(this.db, ledgerId, version, maxBytes, estimate.invoices);
      // Saved before it answers, while nothing else can touch it.
      slot.savedVersion = await this.save(index);
      index.warm();
      slot.index = index;
      slot.source = 'database';
      this.evict(ledgerId);
      this.log?.info({ ledgerId, bytes: index.bytes, ms: this.now() - started }, 'ledger index loaded');
    } catch (err) {
      if (err instanceof IndexTooLarge) return tooLarge(undefined);
      slot.retryAt = this.now() + this.options.retryAfterMs;
      this.log?.error({ err, ledgerId }, 'ledger index failed to load');
    } finally {
      slot.loading = false;
      this.loads--;
    }
  }

  /** Makes the ledger's saved copy, caught up, its index; false when there is none to take. */
  private async takeSaved(ledgerId: number, slot: LedgerSlot): Promise<boolean> {
    const started = this.now();
    const saved = await this.readSaved(ledgerId);
    if (!saved) return false;
    const { index } = saved;
    index.warm();
    slot.index = index;
    slot.source = 'saved';
    slot.savedVersion = saved.version; // saved again at stop only once the index has moved past it
    this.evict(ledgerId);
    this.log?.info({ ledgerId, bytes: index.bytes, ms: this.now() - started }, 'ledger index read from its saved copy');
    return true;
  }

  /**
   * Before the server answers (`main.ts`): the saved copies of the ledgers whose members signed in most recently,
   * read back until `withinMs` has passed or the memory is full, so that those ledgers answer from memory from the
   * first request on. The rest load in the background (`preload`). Returns how many were read.
   */
  async readSavedBeforeListening(withinMs: number): Promise<number> {
    if (this.options.maxBytes <= 0 || !this.options.savedDir) return 0;
    const until = this.now() + withinMs;
    let read = 0;
    for (const ledgerId of await this.versions.ledgersByRecentSignIn()) {
      if (this.now() >= until || this.held().bytes >= this.options.maxBytes) break;
      const slot = this.ledgers.get(ledgerId) ?? this.track(ledgerId);
      slot.usedAt = this.now();
      if (await this.takeSaved(ledgerId, slot)) read++;
    }
    return read;
  }

  /** The ledger's index from its saved copy, caught up to the ledger's version now; null when there is none to take. */
  private async readSaved(ledgerId: number): Promise<{ index: LedgerIndex; version: number } | null> {
    const folder = this.folder();
    if (!folder || !existsSync(savedIndexFile(folder.dir, ledgerId))) return null;
    try {
      const version = await this.versions.version(ledgerId);
      const read = await readSavedLedgerIndex(this.db, await folder.opened, ledgerId, version, this.options);
      if ('index' in read) return read;
      if (read.skipped !== 'none') this.log?.info({ ledgerId, reason: read.skipped }, 'saved ledger index not taken');
    } catch (err) {
      this.log?.warn({ err, ledgerId }, 'saved ledger index could not be read');
    }
    return null;
  }

  /** Saves a ledger's index (nothing else may touch it meanwhile); the version saved, or -1. */
  private async save(index: LedgerIndex): Promise<number> {
    const folder = this.folder();
    if (!folder) return -1;
    try {
      return await saveLedgerIndex(this.db, await folder.opened, index, this.now());
    } catch (err) {
      this.log?.warn({ err, ledgerId: index.ledgerId }, 'ledger index could not be saved');
      return -1;
    }
  }

  /** The saved folder's path and, once opened, its name; null when indexes are never saved. */
  private folder(): { dir: string; opened: Promise<SavedFolder> } | null {
    const dir = this.options.savedDir;
    if (!dir) return null;
    if (!this.savedFolder) {
      const opening = openSavedFolder(dir);
      this.savedFolder = opening;
      // A folder that could not be opened is tried again at the next use.
      opening.catch(() => {
        if (this.savedFolder === opening) this.savedFolder = null;
      });
    }
    return { dir, opened: this.savedFolder };
  }

  /**
   * Saves every index that moved since its copy was saved, each in its ledger's turn (no read sees it half
   * written): when the server stops, so the next start reads them back instead of from the database.
   */
  async saveAll(): Promise<void> {
    const saves = [...this.ledgers.values()].map((slot) => {
      const run = slot.queue.then(async () => {
        const { index } = slot;
        if (index && index.version !== slot.savedVersion) {
          const saved = await this.save(index);
          if (saved >= 0) slot.savedVersion = saved;
        }
      });
      slot.queue = run.catch(() => undefined);
      return run;
    });
    await Promise.all(saves);
  }

  /** Least recently used indexes go until all fit in `maxBytes` (the one just loaded stays). */
  private evict(keep: number): void {
    let total = this.held().bytes;
    const byAge = [...this.ledgers.entries()].filter(([, u]) => u.index).sort(([, a], [, b]) => a.usedAt - b.usedAt);
    for (const [ledgerId, slot] of byAge) {
      if (total <= this.options.maxBytes) break;
      if (ledgerId === keep) continue;
      total -= slot.index?.bytes ?? 0;
      slot.index = null;
    }
  }

  /**
   * Loads the indexes of the ledgers with invoices whose members signed in most recently, one after another, up to
   * the memory (server start).
   */
  async preload(): Promise<void> {
    if (this.options.maxBytes <= 0) return;
    const folder = this.folder();
    if (folder) {
      const removed = await removeUnnamedSavedIndexes(this.db, await folder.opened, this.now());
      if (removed > 0) this.log?.info({ removed }, 'saved ledger indexes of no ledger removed');
    }
    for (const ledgerId of await this.versions.ledgersByRecentSignIn()) {
      const slot = this.ledgers.get(ledgerId) ?? this.track(ledgerId);
      slot.usedAt = this.now();
      if (!slot.index) await this.load(ledgerId, slot);
      if (this.held().bytes >= this.options.maxBytes) break;
    }
  }
}
