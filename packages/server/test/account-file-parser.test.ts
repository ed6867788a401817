import { threadId } from 'node:worker_threads';
import { CATEGORIES } from '@billfold/contract/categories';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../src/lib/http-error.ts';
import {
  checkAccountFile,
  parseAccountFile,
  WORKER_MIN_BYTES,
} from '../src/modules/account-data/account-file-parser.ts';
import { createTestApp, dialects } from './helpers/app.ts';
import { signUp } from './helpers/factories.ts';

/**
 * A large account file is parsed and checked off the event loop (docs/decisions/0706-limits-and-fairness.md): in
 * a worker thread, posted back in parts. Timings are the benchmark's (`npm run bench:stall`); these tests prove the
 * mechanism: this thread keeps turning while the worker parses, the result is exactly the file the schema makes
 * of it, a refusal keeps its status, code and words, and the import's writes let other requests through.
 */

/** A valid version-2 account file of `invoices` invoices, each paid, as JSON bytes. */
function accountFileBytes(invoices: number): Buffer {
  const at = '2026-01-01T00:00:00.000Z';
  const file = {
    format: 'billfold-account',
    version: 2,
    exportedAt: at,
    lastInvoiceNumber: invoices,
    entities: CATEGORIES.map((category, i) => ({
      ref: i + 1,
      name: `Entity ${i + 1}`,
      category,
      internal: false,
      archived: false,
      createdAt: at,
      deletedAt: null,
    })),
    invoices: Array.from({ length: invoices }, (_, i) => ({
      ref: i + 1,
      entity: (i % CATEGORIES.length) + 1,
      number: i + 1,
      date: `2025-${String((i % 12) + 1).padStart(2, '0')}-15`,
      flow: 'expense',
      amount: `${(i % 900) + 10}.25`,
      description: `Invoice ${i + 1} with a description long enough to weigh something`,
      createdAt: at,
      deletedAt: null,
      deletedWithEntity: false,
    })),
    payments: Array.from({ length: invoices }, (_, i) => ({
      ref: i + 1,
      invoice: i + 1,
      date: `2025-${String((i % 12) + 1).padStart(2, '0')}-20`,
      amount: `${(i % 900) + 10}.25`,
      method: 'bank|ach',
      notes: '',
      autopay: false,
      createdAt: at,
      deletedAt: null,
      deletedWithInvoice: false,
    })),
    schedules: [],
  };
  return Buffer.from(JSON.stringify(file));
}

/** Counts turns of this thread's event loop until `work` settles. */
async function turnsWhile<T>(work: Promise<T>): Promise<{ turns: number; result: PromiseSettledResult<T> }> {
  let turns = 0;
  let done = false;
  const spin = () => {
    if (done) return;
    turns += 1;
    setImmediate(spin);
  };
  setImmediate(spin);
  const [result] = await Promise.allSettled([work]);
  done = true;
  return { turns, result: result as PromiseSettledResult<T> };
}

describe('the account file parser', () => {
  it('parses a large file in a worker thread while this thread keeps turning, to exactly the checked file', async () => {
    const bytes = accountFileBytes(3_000);
    expect(bytes.length).toBeGreaterThan(WORKER_MIN_BYTES);
    const expected = checkAccountFile(bytes);
    const { turns, result } = await turnsWhile(parseAccountFile(Buffer.from(bytes)));
    expect(result.status).toBe('fulfilled');
    expect((result as PromiseFulfilledResult<unknown>).value).toEqual(expected);
    // Parsed here, the whole parse would be one turn; the worker's start-up and parse leave many.
    expect(turns).toBeGreaterThan(20);
    expect(threadId).toBe(0);
  }, 60_000);

  it("keeps a refusal's status, code and words from the worker", async () => {
    const bytes = accountFileBytes(3_000);
    const broken = Buffer.concat([bytes.subarray(0, bytes.length - 10), Buffer.from('"oops')]);
    const { result } = await turnsWhile(parseAccountFile(broken));
    expect(result.status).toBe('rejected');
    const err = (result as PromiseRejectedResult).reason as HttpError;
    expect(err).toBeInstanceOf(HttpError);
    expect([err.statusCode, err.code]).toEqual([400, 'MALFORMED_JSON']);
    expect(err.message).toMatch(/^The request body is not valid JSON/);

    const text = bytes.toString().replace('"ref":1,"invoice":1,', '"ref":1,"invoice":999999,');
    const dangling = await parseAccountFile(Buffer.from(text)).catch((e: HttpError) => e);
    expect(dangling).toBeInstanceOf(HttpError);
    expect([(dangling as HttpError).statusCode, (dangling as HttpError).code]).toEqual([400, 'VALIDATION_FAILED']);
    expect((dangling as HttpError).message).toMatch(/payments\.0/i);

    const proto = Buffer.from(bytes.toString().replace('"schedules":[]', '"schedules":[],"__proto__":{}'));
    const forbidden = await parseAccountFile(proto).catch((e: HttpError) => e);
    expect((forbidden as HttpError).code).toBe('FORBIDDEN_KEY');
  }, 60_000);
});

describe.each(dialects)('a large account import on %s', (dialect) => {
  it('answers health requests while the file is parsed and written, and stores the whole file', async () => {
    const t = await createTestApp(dialect);
    try {
      const me = await signUp(t.app);
      const bytes = accountFileBytes(3_000);
      let finished = false;
      const importing = t.app
        .inject({
          method: 'POST',
          url: '/api/v1/account/import',
          headers: { ...me.headers, 'content-type': 'application/json' },
          payload: bytes,
        })
        .finally(() => {
          finished = true;
        });
      let answeredDuring = 0;
      while (!finished) {
        const health = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
        expect(health.statusCode).toBe(200);
        if (!finished) answeredDuring += 1;
        // Another client's next request arrives from the network: a turn of the event loop later.
        await new Promise((resolve) => setImmediate(resolve));
      }
      const res = await importing;
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        entities: CATEGORIES.length,
        invoices: 3_000,
        payments: 3_000,
        schedules: 0,
        categories: 0,
      });
      expect(answeredDuring).toBeGreaterThan(5);
    } finally {
      await t.close();
    }
  }, 120_000);
});
