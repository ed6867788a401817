import { describe, expect, it } from 'vitest';
import { Batched } from '../src/lib/batched.ts';

/** `Batched` (lib/batched.ts), the ledger group's member checks: who goes in which batch, and what each gets. */
describe('Batched', () => {
  /** A `Batched` whose batches the test ends: each batch's keys, and how to answer or fail it. */
  function held() {
    const batches: { keys: number[]; answer: () => void; fail: (e: Error) => void }[] = [];
    const batched = new Batched<number, string>(
      (keys) =>
        new Promise((resolve, reject) => {
          batches.push({
            keys,
            // A key of 0 finds nothing.
            answer: () => resolve(keys.map((k) => (k === 0 ? undefined : `row ${k}`))),
            fail: reject,
          });
        }),
    );
    return { batched, batches };
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('sends a lookup at once when none is under way, and those asked meanwhile together after it', async () => {
    const { batched, batches } = held();
    const first = batched.get(1);
    expect(batches.map((b) => b.keys)).toEqual([[1]]);
    const later = [batched.get(2), batched.get(0), batched.get(3)];
    await settle();
    // Asked for after the first batch was sent: not in it, and not sent until it ends.
    expect(batches.map((b) => b.keys)).toEqual([[1]]);
    batches[0]?.answer();
    expect(await first).toBe('row 1');
    await settle();
    expect(batches.map((b) => b.keys)).toEqual([[1], [2, 0, 3]]);
    batches[1]?.answer();
    expect(await Promise.all(later)).toEqual(['row 2', undefined, 'row 3']);
    // Idle again: the next lookup goes alone, at once.
    void batched.get(4);
    expect(batches.map((b) => b.keys)).toEqual([[1], [2, 0, 3], [4]]);
  });

  it('sends at most 500 lookups in one batch, the rest in the next', async () => {
    const { batched, batches } = held();
    void batched.get(1);
    const waiting = Array.from({ length: 501 }, (_, i) => batched.get(i + 2));
    batches[0]?.answer();
    await settle();
    expect(batches.map((b) => b.keys.length)).toEqual([1, 500]);
    batches[1]?.answer();
    await settle();
    expect(batches.map((b) => b.keys.length)).toEqual([1, 500, 1]);
    batches[2]?.answer();
    expect((await Promise.all(waiting)).at(-1)).toBe('row 502');
  });

  it('fails only the lookups of a failed batch, and goes on with the next', async () => {
    const { batched, batches } = held();
    const first = batched.get(1);
    const second = batched.get(2);
    batches[0]?.fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await settle();
    batches[1]?.answer();
    expect(await second).toBe('row 2');
  });
});
