import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortByKey, sortInTurns } from '../src/lib/sorted.ts';

/**
 * `sortInTurns` (the ledger index's own sort orders, ledger-index-store.ts) against the engine's stable sort: any
 * keys, ties among them kept in their first order, and the event loop given turns on long inputs.
 */
/**
 * `sort` of 300,000 items, the positions, by `keyOf` each: the result ascending by key, ties by position, and the
 * event loop given turns meanwhile.
 */
async function sortsLongInputInTurns(
  keyOf: (i: number) => number,
  sort: (items: Int32Array, keys: Float64Array) => Promise<Int32Array>,
): Promise<void> {
  const n = 300_000;
  const keys = Float64Array.from({ length: n }, (_, i) => keyOf(i));
  let turns = 0;
  const timer = setInterval(() => turns++, 0);
  const sorted = await sort(
    Int32Array.from({ length: n }, (_, i) => i),
    keys,
  );
  clearInterval(timer);
  let misplaced = -1;
  for (let i = 1; i < n && misplaced < 0; i++) {
    const [a, b] = [sorted[i - 1] as number, sorted[i] as number];
    const [ka, kb] = [keys[a] as number, keys[b] as number];
    if (!(ka < kb || (ka === kb && a < b))) misplaced = i;
  }
  expect(misplaced).toBe(-1);
  expect(turns).toBeGreaterThan(0);
}

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
    await sortsLongInputInTurns(
      (i) => (i * 7919) % 1009,
      (items, keys) => sortInTurns(items, (a, b) => (keys[a] as number) - (keys[b] as number) || a - b),
    );
  });
});

/**
 * `sortByKey` (the ledger index's sort orders by a key per slot) against the engine's stable sort, for keys of one
 * digit's span, of two, of more than its digits hold, and not whole (the last two take `sortInTurns`).
 */
describe('sortByKey', () => {
  const spans = [
    fc.integer({ min: -5, max: 5 }),
    fc.integer({ min: -70_000, max: 70_000 }),
    fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
    fc.integer({ min: 0, max: 3 }).map((k) => k * 2 ** 31 - 2 ** 33),
    fc.double({ min: -10, max: 10, noNaN: true }),
  ];
  for (const [i, span] of spans.entries()) {
    it(`sorts like a stable sort, keys of span ${i + 1}`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(span, { maxLength: 400 }), async (keys) => {
          const items = Int32Array.from(keys.keys()).reverse();
          const sorted = await sortByKey(items, (item) => keys[item] as number);
          expect([...sorted]).toEqual([...items].sort((a, b) => (keys[a] as number) - (keys[b] as number)));
          expect([...items]).toEqual([...keys.keys()].reverse());
        }),
      );
    });
  }

  it('lets other work run while it sorts a long input by a key of two digits', async () => {
    await sortsLongInputInTurns(
      (i) => ((i * 7919) % 100_003) - 50_000,
      (items, keys) => sortByKey(items, (item) => keys[item] as number),
    );
  });
});
