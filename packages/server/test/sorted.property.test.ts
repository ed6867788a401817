import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortInTurns } from '../src/lib/sorted.ts';

/**
 * `sortInTurns` (the ledger index's own sort orders, ledger-index-store.ts) against the engine's stable sort: any
 * keys, ties among them kept in their first order, and the event loop given turns on long inputs.
 */
describe('sortInTurns', () => {
  it('sorts like a stable sort for any keys and lengths', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 300 }), async (keys) => {
        const items = Int32Array.from(keys.keys());
        const byKey = (a: number, b: number) => (keys[a] as number) - (keys[b] as number);
        const sorted = await sortInTurns(items, byKey);
        // Array.prototype.sort is stable: positions of equal keys stay ascending.
        expect([...sorted]).toEqual([...items].sort(byKey));
        expect([...items]).toEqual([...keys.keys()]); // the input is left as it was
      }),
    );
  });

  it('lets other work run while it sorts a long input', async () => {
    const n = 300_000;
    const keys = Float64Array.from({ length: n }, (_, i) => (i * 7919) % 1009);
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    const sorted = await sortInTurns(
      Int32Array.from({ length: n }, (_, i) => i),
      (a, b) => (keys[a] as number) - (keys[b] as number) || a - b,
    );
    clearInterval(timer);
    for (let i = 1; i < n; i++) {
      const [a, b] = [sorted[i - 1] as number, sorted[i] as number];
      const [ka, kb] = [keys[a] as number, keys[b] as number];
      expect(ka < kb || (ka === kb && a < b)).toBe(true);
    }
    expect(turns).toBeGreaterThan(0);
  });
});
