/**
 * Serialized responses per user, each valid only while the user's data version is the one it was stored
 * under: the version grows in the same transaction as any write to the user's invoices (migration
 * `2026-11-25T00-00_data_versions`), so a hit is exactly what the query would return now, from any process.
 * Least recently used entries go first once the bytes exceed the budget (docs/decisions/0403-list-cache.md).
 */
export class VersionedCache {
  private readonly entries = new Map<string, { version: number; body: Buffer }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(ledgerId: number, version: number, key: string): Buffer | undefined {
    const id = `${ledgerId} ${key}`;
    const hit = this.entries.get(id);
    if (!hit) return undefined;
    this.entries.delete(id);
    if (hit.version !== version) {
      this.bytes -= hit.body.length;
      return undefined;
    }
    this.entries.set(id, hit); // most recently used now
    return hit.body;
  }

  /** Keeps `body`, unless a response stored under a newer version (a later request that finished first) is there. */
  set(ledgerId: number, version: number, key: string, body: Buffer): void {
    if (body.length > this.maxBytes / 16) return; // one huge response must not flush everything else
    const id = `${ledgerId} ${key}`;
    const old = this.entries.get(id);
    if (old) {
      if (old.version > version) return;
      this.entries.delete(id);
      this.bytes -= old.body.length;
    }
    this.entries.set(id, { version, body });
    this.bytes += body.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.body.length;
    }
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }
}
