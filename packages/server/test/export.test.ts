import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { SqliteReader } from '../src/db/sqlite-reader.ts';
import { CSV_COLUMNS } from '../src/modules/entries/entries-export.ts';
import { EntriesListService, EXPORT_CHUNK } from '../src/modules/entries/entries-list.service.ts';
import { DEFAULT_LEDGER_INDEX_OPTIONS } from '../src/modules/read-model/ledger-indexes.ts';
import { ReadModelRepository } from '../src/modules/read-model/read-model.repository.ts';
import { createTestApp, dialects, indexedServer, type TestApp, testConfig } from './helpers/app.ts';
import { type Session, signUp } from './helpers/factories.ts';
import { type SeededBill, type SeededEntry, seedBills, seedEntries, userIdOf } from './helpers/seed.ts';

/** A strict RFC 4180 reader: CRLF records, quoted fields with doubled quotes; throws on anything else. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let cell = '';
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        const quote = text.indexOf('"', i);
        if (quote < 0) throw new Error('unterminated quoted field');
        cell += text.slice(i, quote);
        i = quote + 1;
        if (text[i] !== '"') break;
        cell += '"';
        i += 1;
      }
    } else {
      const end = text.slice(i).search(/[,\r\n"]/);
      const stop = end < 0 ? text.length : i + end;
      if (text[stop] === '"') throw new Error(`bare quote at ${stop}`);
      cell = text.slice(i, stop);
      i = stop;
    }
    row.push(cell);
    if (text[i] === ',') {
      i += 1;
    } else if (text.startsWith('\r\n', i)) {
      rows.push(row);
      row = [];
      i += 2;
    } else {
      throw new Error(`record not ended by CRLF at ${i}`);
    }
  }
  if (row.length > 0) throw new Error('last record not ended by CRLF');
  return rows;
}

const TOTAL = 2 * EXPORT_CHUNK + 500;
const DATES = ['2026-03-01', '2026-02-01', '2026-01-01'];

describe.each(dialects)('GET /api/v1/entries/export on %s', (dialect) => {
  let t: TestApp;
  let alice: Session;
  let bills: SeededBill[];
  let bulk: SeededEntry[];
  let tricky: SeededEntry[];
  let hidden: SeededEntry[];

  const download = (query = '', session: Session | null = alice) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/entries/export${query ? `?${query}` : ''}`,
      headers: session ? session.headers : {},
    });
  const rowsOf = async (query = '') => {
    const res = await download(query);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const [header, ...rows] = parseCsv(res.body);
    expect(header).toEqual([...CSV_COLUMNS]);
    return rows;
  };
  const column = (name: (typeof CSV_COLUMNS)[number]) => CSV_COLUMNS.indexOf(name);
  const invoiceNumbers = (rows: string[][]) => rows.map((r) => Number(r[column('Invoice #')]));

  beforeAll(async () => {
    t = await createTestApp(dialect);
    alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const db = t.app.db;
    const aliceId = await userIdOf(db, alice.username);
    bills = await seedBills(db, aliceId, [
      { name: 'Smith, Jones & Co', category: 'Home Services' },
      { name: '=HYPERLINK("http://evil.example")', category: 'Shopping' },
      { name: 'Savings', category: 'Financial', internal: true, archived: true },
    ]);
    const [smith, evil, savings] = bills as [SeededBill, SeededBill, SeededBill];
    // Three dates only, so ties in the sort key straddle every chunk boundary.
    bulk = await seedEntries(
      db,
      aliceId,
      Array.from({ length: TOTAL }, (_, i) => ({
        bill: smith,
        date: DATES[i % DATES.length],
        amountCents: (i % 7) * 1_000,
        flow: i % 2 === 0 ? ('INCOMING' as const) : ('OUTGOING' as const),
        services: `job ${i}`,
      })),
    );
    tricky = await seedEntries(db, aliceId, [
      { bill: evil, date: '2025-06-01', amountCents: 123_456, services: '=SUM(A1:A9)' },
      { bill: evil, date: '2025-06-02', amountCents: 5, services: '+1 555 0100' },
      { bill: evil, date: '2025-06-03', amountCents: 0, services: '-2+3' },
      { bill: evil, date: '2025-06-04', amountCents: 100, services: '@cmd' },
      { bill: evil, date: '2025-06-05', amountCents: 100, services: '\tindented' },
      { bill: evil, date: '2025-06-06', amountCents: 100, services: '\rcarriage' },
      {
        bill: smith,
        date: '2025-06-07',
        amountCents: 100,
        services: 'He said "hi", then left\nline two\r\nline three',
      },
      {
        bill: savings,
        date: '2025-06-08',
        amountCents: 10_000,
        services: 'plain',
        payments: [{ amountCents: 12_345 }],
      },
      {
        bill: smith,
        date: '2025-06-09',
        amountCents: 10_000,
        services: 'half',
        dueDate: '2025-07-09',
        payments: [{ amountCents: 5_000 }],
      },
    ]);
    // A schedule's invoice still at its estimate (docs/decisions/0212-estimated-amounts.md).
    await db
      .updateTable('entries')
      .set({ estimate_cents: 9_500, estimated: 1 })
      .where('id', '=', tricky[8]?.id ?? 0)
      .execute();
    hidden = await seedEntries(db, aliceId, [
      { bill: smith, date: '2026-03-01', amountCents: 100, services: 'recycled', recycledAt: Date.UTC(2026, 10, 1) },
    ]);
    const bobId = await userIdOf(db, bob.username);
    const [bobBill] = await seedBills(db, bobId, [{ name: 'Bob Bill' }]);
    if (!bobBill) throw new Error('no bill');
    hidden.push(...(await seedEntries(db, bobId, [{ bill: bobBill, date: '2026-03-01', services: 'bob' }])));
  });
  afterAll(() => t.close());

  it('is an attachment named by today’s date, text/csv in UTF-8', async () => {
    const res = await download('invoiceNum=1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    // The test clock starts at 2026-11-22T12:00:00Z.
    expect(res.headers['content-disposition']).toBe('attachment; filename="billfold-invoices-2026-11-22.csv"');
    expect(res.body.startsWith(`${CSV_COLUMNS.join(',')}\r\n`)).toBe(true);
  });

  it('holds every matching row across several chunks, in list order, none twice', async () => {
    const rows = await rowsOf();
    const all = [...bulk, ...tricky];
    expect(rows).toHaveLength(all.length);
    expect(all.length).toBeGreaterThan(2 * EXPORT_CHUNK);
    const expected = [...all]
      .sort((a, b) => (a.date === b.date ? b.invoiceNumber - a.invoiceNumber : a.date < b.date ? 1 : -1))
      .map((e) => e.invoiceNumber);
    expect(invoiceNumbers(rows)).toEqual(expected);
    // A recycled invoice and another user's never appear (Bob's numbers overlap Alice's: check the content).
    expect(hidden.map((e) => e.services)).toEqual(['recycled', 'bob']);
    expect(rows.some((r) => ['recycled', 'bob'].includes(r[column('Description')] ?? ''))).toBe(false);
    expect(invoiceNumbers(rows)).not.toContain(hidden[0]?.invoiceNumber);
  });

  it('reads in keyset chunks: a small chunk size gives the same bytes as the route, one piece per chunk', async () => {
    const userId = await userIdOf(t.app.db, alice.username);
    const service = new EntriesListService(new ReadModelRepository(t.app.db), t.clock.now, 97);
    const query = { sortField: 'date', sortOrder: 'desc' } as const;
    const pieces: string[] = [];
    for await (const piece of service.exportCsv({ id: userId }, query)) pieces.push(piece);
    const rows = bulk.length + tricky.length;
    expect(pieces).toHaveLength(1 + Math.ceil(rows / 97));
    expect(pieces.join('')).toBe((await download('sortField=date&sortOrder=desc')).body);
  });

  it('follows the requested sort across chunk boundaries (keyset on ties)', async () => {
    const byAmount = await rowsOf('sortField=amount&sortOrder=asc');
    const all = [...bulk, ...tricky];
    expect(invoiceNumbers(byAmount)).toEqual(
      [...all]
        .sort((a, b) => a.amountCents - b.amountCents || a.invoiceNumber - b.invoiceNumber)
        .map((e) => e.invoiceNumber),
    );
    const byName = await rowsOf('sortField=name&sortOrder=desc');
    expect(invoiceNumbers(byName)).toEqual(
      [...all]
        .sort((a, b) => {
          const [x, y] = [a.bill.name.toLowerCase(), b.bill.name.toLowerCase()];
          return x === y ? b.invoiceNumber - a.invoiceNumber : x < y ? 1 : -1;
        })
        .map((e) => e.invoiceNumber),
    );
  });

  it('honours the filters', async () => {
    const income = await rowsOf('flow=income&startDate=2026-02-01');
    const expected = bulk.filter((e) => e.flow === 'INCOMING' && e.date >= '2026-02-01');
    expect(income).toHaveLength(expected.length);
    expect(new Set(income.map((r) => r[column('Flow')]))).toEqual(new Set(['Income']));
    const internal = await rowsOf('flow=internal');
    expect(invoiceNumbers(internal)).toEqual([tricky[7]?.invoiceNumber]);
    expect(await rowsOf('partyList=Nobody')).toEqual([]);
  });

  it('writes amounts as plain decimals and the derived columns', async () => {
    const rows = await rowsOf('startDate=2025-06-08&endDate=2025-06-09');
    expect(rows).toEqual([
      [
        String(tricky[8]?.invoiceNumber),
        'Smith, Jones & Co',
        '2025-06-09',
        'Expense',
        '100.00',
        '50.00',
        '50.00',
        '0.00',
        'In Progress',
        'half',
        'Home Services',
        'No',
        'No',
        '2025-07-09',
        '95.00',
        'Yes',
      ],
      [
        String(tricky[7]?.invoiceNumber),
        'Savings',
        '2025-06-08',
        'Internal',
        '100.00',
        '123.45',
        '0.00',
        '23.45',
        'Overpaid',
        'plain',
        'Financial',
        'Yes',
        'Yes',
        '',
        '',
        'No',
      ],
    ]);
    const big = await rowsOf(`invoiceNum=${tricky[0]?.invoiceNumber}`);
    expect(big[0]?.[column('Amount')]).toBe('1234.56');
    const tiny = await rowsOf(`invoiceNum=${tricky[1]?.invoiceNumber}`);
    expect(tiny[0]?.[column('Amount')]).toBe('0.05');
  });

  it('writes the estimate and its mark alike from the ledger index and from SQL', async () => {
    const servers = [
      await buildApp(testConfig(t.database.config, { now: t.clock.now }), {
        readModel: { ledgerIndex: { ...DEFAULT_LEDGER_INDEX_OPTIONS, maxBytes: 0 } },
      }),
      await indexedServer(t, alice.headers),
    ];
    try {
      const [bySql, byIndex] = servers as [FastifyInstance, FastifyInstance];
      const get = (app: FastifyInstance, path: string) =>
        app.inject({ method: 'GET', url: `/api/v1${path}`, headers: alice.headers });
      // A confirmed one keeps its estimate, marked No.
      await t.app.db
        .updateTable('entries')
        .set({ estimated: 0 })
        .where('id', '=', tricky[8]?.id ?? 0)
        .execute();
      const path = '/entries/export?startDate=2025-06-08&endDate=2025-06-09&sortField=date&sortOrder=desc';
      const [fromSql, fromIndex] = [(await get(bySql, path)).body, (await get(byIndex, path)).body];
      expect(fromIndex).toBe(fromSql);
      const cells = parseCsv(fromIndex).map((r) => [r[column('Estimate')], r[column('Estimated')]]);
      expect(cells).toEqual([
        ['Estimate', 'Estimated'],
        ['95.00', 'No'],
        ['', 'No'],
      ]);
    } finally {
      await t.app.db
        .updateTable('entries')
        .set({ estimated: 1 })
        .where('id', '=', tricky[8]?.id ?? 0)
        .execute();
      for (const app of servers) await app.close();
    }
  });

  it('reads its chunks, the scans of stats and trends, a list page and the entity snapshot by SQL on SQLite’s reader thread, answering as the ledger index does', async () => {
    const bySql = await buildApp(testConfig(t.database.config, { now: t.clock.now }), {
      readModel: { ledgerIndex: { ...DEFAULT_LEDGER_INDEX_OPTIONS, maxBytes: 0 } },
    });
    const byIndex = await indexedServer(t, alice.headers);
    const aside = vi.spyOn(SqliteReader.prototype, 'all');
    try {
      const path = '/api/v1/entries/export?sortField=amount&sortOrder=desc';
      const fromSql = await bySql.inject({ method: 'GET', url: path, headers: alice.headers });
      // Every chunk of the whole ledger, and the empty read that ends it when the last one is full.
      expect(aside.mock.calls.length).toBe(
        dialect === 'sqlite' ? Math.floor((bulk.length + tricky.length) / EXPORT_CHUNK) + 1 : 0,
      );
      aside.mockClear();
      const fromIndex = await byIndex.inject({ method: 'GET', url: path, headers: alice.headers });
      expect(aside).not.toHaveBeenCalled();
      expect(fromSql.body).toBe(fromIndex.body);
      expect(parseCsv(fromSql.body)).toHaveLength(1 + bulk.length + tricky.length);
      // An amount filter the rollups do not keep: stats count the invoices outside the range (the complement plan)
      // and scan the invoices and their payments, trends scan the invoices.
      for (const [read, reads] of [
        ['/api/v1/entries/stats?min=1', 3],
        ['/api/v1/entries/trends?min=1&interval=month', 1],
        // A list page by SQL (the index loading): the page itself, its total from the same complement count.
        ['/api/v1/entries?min=1&sortField=services&sortOrder=desc&pageSize=7', 2],
        // The entity snapshot (ADR 0406): the entities with their sums over the rollups, and their schedules. The
        // forecast and the due summary take their schedules from it at the same data version.
        ['/api/v1/bills/overview?sortField=balance&sortOrder=desc', 2],
        ['/api/v1/forecast?months=3', 0],
        ['/api/v1/entries/due-summary', 0],
      ] as const) {
        aside.mockClear();
        const bySqlAnswer = await bySql.inject({
          method: 'GET',
          url: read,
          headers: { ...alice.headers, 'cache-control': 'no-cache' },
        });
        expect(aside.mock.calls.length, read).toBe(dialect === 'sqlite' ? reads : 0);
        const byIndexAnswer = await byIndex.inject({ method: 'GET', url: read, headers: alice.headers });
        expect(bySqlAnswer.statusCode, bySqlAnswer.body).toBe(200);
        expect(bySqlAnswer.json()).toEqual(byIndexAnswer.json());
      }
    } finally {
      aside.mockRestore();
      await bySql.close();
      await byIndex.close();
    }
  });

  it('quotes commas, quotes and line breaks (RFC 4180)', async () => {
    const res = await download(`invoiceNum=${tricky[6]?.invoiceNumber}`);
    expect(res.body).toContain('"Smith, Jones & Co"');
    expect(res.body).toContain('"He said ""hi"", then left\nline two\r\nline three"');
    const [, row] = parseCsv(res.body);
    expect(row?.[column('Description')]).toBe('He said "hi", then left\nline two\r\nline three');
  });

  it('neutralises cells a spreadsheet would run as formulas', async () => {
    const rows = await rowsOf('startDate=2025-06-01&endDate=2025-06-06&sortField=date&sortOrder=asc');
    expect(rows.map((r) => r[column('Description')])).toEqual([
      "'=SUM(A1:A9)",
      "'+1 555 0100",
      "'-2+3",
      "'@cmd",
      "'\tindented",
      "'\rcarriage",
    ]);
    expect(new Set(rows.map((r) => r[column('Entity')]))).toEqual(new Set(['\'=HYPERLINK("http://evil.example")']));
  });

  it('rejects invalid filters with 400 JSON, and needs a token', async () => {
    for (const query of ['sortField=password', 'paid=maybe', 'min=abc', 'pageSize=0&flow=nope']) {
      const res = await download(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
    expect((await download('', null)).statusCode).toBe(401);
  });

  it('is documented in the OpenAPI document with its text/csv response, like the list and stats', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json<{
      paths: Record<string, { get?: { responses: Record<string, { content: Record<string, unknown> }> } }>;
    }>();
    const exported = doc.paths['/api/v1/entries/export']?.get;
    expect(Object.keys(exported?.responses['200']?.content ?? {})).toEqual(['text/csv']);
    expect(Object.keys(exported?.responses['400']?.content ?? {})).toEqual(['application/json']);
    for (const path of ['/api/v1/entries', '/api/v1/entries/stats']) {
      expect(Object.keys(doc.paths[path]?.get?.responses['200']?.content ?? {}), path).toEqual(['application/json']);
    }
  });

  it('is served by the export route, not taken for GET /entries/{id}', async () => {
    const res = await download('invoiceNum=1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
  });
});
