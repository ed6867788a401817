/** Keys a batch takes at most (three parameters each stay far below either database's limit). */
const MAX_BATCH = 500;

/**
 * One statement for the lookups that concurrent requests wait for (the ledger group's member check, plugins/ledger.ts):
 * a lookup asked for while none is under way is sent at once, alone; those asked for while one is under way wait for it
 * and are then sent together, as one batch. Each batch is sent after every lookup in it was asked for, so it sees every
 * write committed before its requests arrived, as a statement of their own would. `run` answers a batch's keys in
 * their order (undefined for a key it finds nothing for).
 */
export class Batched<K, R> {
  private waiting: { key: K; resolve: (row: R | undefined) => void; reject: (error: unknown) => void }[] = [];
  private running = false;

  constructor(private readonly run: (keys: K[]) => Promise<(R | undefined)[]>) {}

  get(key: K): Promise<R | undefined> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ key, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, MAX_BATCH);
        try {
          const rows = await this.run(batch.map((w) => w.key));
          for (const [i, w] of batch.entries()) w.resolve(rows[i]);
        } catch (error) {
          for (const w of batch) w.reject(error);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
