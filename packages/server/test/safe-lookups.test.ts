import type { AccountFile } from '@billfold/contract/account-file';
import { INHERITED_KEYS } from '@billfold/contract/own-keys';
import { PAYMENT_METHOD_CODES } from '@billfold/contract/payment-methods';
import type { Stats } from '@billfold/contract/stats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyMapping } from '../src/modules/imports/import-mapping.ts';
import { interpretRow } from '../src/modules/imports/import-rows.ts';
import { fileEntity, fileInvoice, smallAccountFile } from './helpers/account-file.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { type Api, createBill, createEntry, createPayment, request } from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';
import { multipart } from './helpers/multipart.ts';
import { changedTables, snapshot, tableNames } from './security/database-state.ts';

/**
 * No user value is ever a plain-object key (docs/security.md, Safe lookups): the keys every object inherits
 * (`__proto__`, `constructor`, `toString`, …) in a CSV cell, a query value, a JSON key, an account-file value or
 * an entity name are refused with a 4xx that says why, or kept as the text they are, never a 5xx.
 */

const KEYS = INHERITED_KEYS;
/** What a lookup that fell through to `Object.prototype` shows when it reaches a message or a body. */
const LEAKED = /function|\[object|native code/;

describe('a CSV row read through the mapping', () => {
  it('never throws, and a row it accepts has a flow and a payment method of the lists, whatever the cells', () => {
    const mapping = { ...emptyMapping(), date: 0, amount: 1, entity: 2, flow: 3, paid: 4, method: 5, category: 6 };
    const cell = fc.oneof(fc.constantFrom(...KEYS, ...KEYS.map((k) => k.toUpperCase()), ' __proto__ '), fc.string());
    fc.assert(
      fc.property(cell, cell, cell, (flow, method, category) => {
        const cells = ['2026-01-05', '-10.00', 'Power Co', flow, '10.00', method, category];
        const { row, candidate } = interpretRow(2, cells, mapping, 'YYYY-MM-DD');
        expect(row.errors.every((e) => typeof e === 'string' && !LEAKED.test(e))).toBe(true);
        if (candidate) {
          expect(['income', 'expense', 'internal']).toContain(candidate.flow);
          expect(PAYMENT_METHOD_CODES).toContain(candidate.method);
        }
      }),
      { numRuns: 3000 },
    );
  });
});

describe.each(dialects)('safe lookups on %s', (dialect) => {
  let t: TestApp;
  const newUser = async (): Promise<Api> => ({ app: t.app, session: await signUp(t.app) });
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const upload = (api: Api, url: string, content: string, fields: Record<string, unknown> = {}) => {
    const body = multipart({ name: 'keys.csv', content }, fields);
    return t.app.inject({
      method: 'POST',
      url: `/api/v1${url}`,
      headers: { ...api.session.headers, ...body.headers },
      payload: body.payload,
    });
  };
  const quoted = (cell: string) => `"${cell.replaceAll('"', '""')}"`;

  it('a flow or payment-method cell that is an inherited key is a row error naming it, never a 5xx', async () => {
    const api = await newUser();
    const tables = await tableNames(t.app.db);
    const before = await snapshot(t.app.db, tables);
    for (const key of KEYS) {
      for (const column of ['flow', 'method'] as const) {
        const row =
          column === 'flow'
            ? ['2026-01-05', 'Power Co', 'Bill', '10.00', quoted(key), '', '']
            : ['2026-01-05', 'Power Co', 'Bill', '10.00', 'expense', '10.00', quoted(key)];
        const csv = `Date,Payee,Memo,Amount,Flow,Paid,Method\n${row.join(',')}\n`;
        const preview = await upload(api, '/imports/preview', csv);
        expect(preview.statusCode, `${column} ${key}: ${preview.body}`).toBe(200);
        const [first] = preview.json<{ rows: { errors: string[] }[] }>().rows;
        const label = column === 'flow' ? 'Flow' : 'Payment method';
        expect(first?.errors).toEqual([
          column === 'flow'
            ? `${label} "${key}" is not income, expense or internal.`
            : `${label} "${key}" is not one of the payment methods.`,
        ]);
        const commit = await upload(api, '/imports', csv);
        expect(commit.statusCode, `${column} ${key}: ${commit.body}`).toBe(400);
        expect(commit.json<{ message: string }>().message).toContain('line 2:');
        expect(commit.body).not.toMatch(LEAKED);
      }
    }
    expect(changedTables(before, await snapshot(t.app.db, tables))).toEqual([]);
  });

  it('entities, descriptions and categories spelled like inherited keys import as text and show in the stats', async () => {
    const api = await newUser();
    const names = ['__proto__', 'constructor', 'toString'];
    const csv = [
      'Date,Payee,Memo,Amount,Category,Paid,Method',
      ...names.map((name, i) => `2026-01-0${i + 1},${name},${name},-${i + 1}.00,${name},${i + 1}.00,Cash`),
    ].join('\n');
    const preview = await upload(api, '/imports/preview', csv);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json<{ errorCount: number; newEntities: string[] }>()).toMatchObject({ errorCount: 0 });
    const commit = await upload(api, '/imports', csv);
    expect(commit.statusCode, commit.body).toBe(200);

    const stats = (await request(api, 'GET', '/entries/stats')).json<Stats>();
    expect(Object.entries(stats.topExpenseRecipients).sort()).toEqual([
      ['__proto__', 1],
      ['constructor', 2],
      ['toString', 3],
    ]);
    expect(stats.top5ExpenseCategories).toEqual({ Uncategorized: 6 });
    const list = (await request(api, 'GET', '/entries?sortField=invoiceId&sortOrder=asc')).json<{
      entries: { name: string; services: string }[];
    }>();
    expect(list.entries.map((e) => [e.name, e.services])).toEqual(names.map((n) => [n, n]));
  });

  it('an entity named like an inherited key keeps its own line in the stats', async () => {
    const api = await newUser();
    for (const [i, name] of ['__proto__', 'constructor', 'hasOwnProperty'].entries()) {
      const bill = await createBill(api, { name });
      const entry = await createEntry(api, { billId: bill.id, flow: 'income', amount: 10 * (i + 1) });
      await createPayment(api, { entryId: entry.entryId, amount: 10 * (i + 1) });
    }
    const res = await request(api, 'GET', '/entries/stats');
    expect(res.statusCode).toBe(200);
    // Compared as entries: an object literal's `__proto__:` would set its prototype, not a key.
    expect(Object.entries(res.json<Stats>().topIncomeSources)).toEqual([
      ['hasOwnProperty', 30],
      ['constructor', 20],
      ['__proto__', 10],
    ]);
  });

  it('query values that are inherited keys are refused with a 400 in words, or read as the text they are', async () => {
    const api = await newUser();
    await createEntry(api);
    const params = [
      'sortField',
      'sortOrder',
      'flow',
      'paid',
      'archives',
      'due',
      'partyList',
      'categoryList',
      'startDate',
      'invoiceNum',
      'min',
    ];
    const urls = ['/entries', '/entries/stats', '/entries/export', '/bills', '/recycle', '/entries/due-summary'];
    for (const key of KEYS) {
      for (const url of urls) {
        for (const param of params) {
          const res = await request(api, 'GET', `${url}?${param}=${encodeURIComponent(key)}`);
          expect(res.statusCode, `${url}?${param}=${key}: ${res.body}`).toBeLessThan(500);
          if (res.statusCode >= 400) expect(res.body, `${url}?${param}=${key}`).not.toMatch(LEAKED);
        }
        const keyed = await request(api, 'GET', `${url}?${encodeURIComponent(key)}=1`);
        expect(keyed.statusCode, `${url}?${key}=1: ${keyed.body}`).toBeLessThan(500);
      }
    }
    const sorted = await request(api, 'GET', '/entries?sortField=constructor');
    expect(sorted.statusCode).toBe(400);
    expect(sorted.json<{ message: string }>().message).toMatch(/sortField/);
  });

  it('JSON keys that are inherited keys never reach a lookup: refused or ignored, never a 5xx', async () => {
    const api = await newUser();
    const entry = await createEntry(api);
    for (const key of KEYS) {
      const bodies: [string, string, Record<string, unknown>][] = [
        ['POST', '/bills', { name: `Keyed ${key}`, category: 'Utilities' }],
        ['POST', '/entries/new', { billId: entry.billId, date: '2026-01-01', flow: 'income', amount: 1 }],
        ['PUT', '/entries/edit', { entryId: entry.entryId, amount: 2 }],
        [
          'POST',
          '/payments',
          { entryId: entry.entryId, date: '2026-01-02', amount: 1, type: 'cash', medium: 'person' },
        ],
      ];
      for (const [method, url, body] of bodies) {
        for (const value of [1, 'x', { a: 1 }, null]) {
          const payload = `${JSON.stringify(body).slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(value)}}`;
          const res = await t.app.inject({
            method: method as 'POST' | 'PUT',
            url: `/api/v1${url}`,
            headers: { ...api.session.headers, 'content-type': 'application/json' },
            payload,
          });
          expect(res.statusCode, `${method} ${url} ${payload}: ${res.body}`).toBeLessThan(500);
          expect(res.body).not.toMatch(LEAKED);
        }
      }
    }
  });

  it("the CSV import's mapping and keep fields with inherited keys are refused or ignored, never a 5xx", async () => {
    const api = await newUser();
    const csv = 'Date,Payee,Amount\n2026-01-05,Power Co,-10.00\n';
    for (const key of KEYS) {
      const mappings = [
        JSON.parse(`{${JSON.stringify(key)}: {"date": 0}, "date": 0, "amount": 2, "debit": null, "credit": null,
          "entity": 1, "description": null, "flow": null, "category": null, "paid": null, "method": null,
          "dateFormat": "YYYY-MM-DD"}`),
        JSON.parse(`{${JSON.stringify(key)}: 1}`),
        { dateFormat: key },
      ];
      for (const mapping of mappings) {
        const res = await upload(api, '/imports/preview', csv, { mapping });
        expect(res.statusCode, `${JSON.stringify(mapping)}: ${res.body}`).toBeLessThan(500);
        expect(res.body).not.toMatch(LEAKED);
      }
      const keep = await upload(api, '/imports', csv, { keep: JSON.parse(`{${JSON.stringify(key)}: [2]}`) });
      expect(keep.statusCode, keep.body).toBe(400);
    }
    // Column names that are inherited keys map to nothing: the preview asks for the columns in words.
    const headers = await upload(api, '/imports/preview', `${KEYS.join(',')}\n${KEYS.map(() => 'x').join(',')}\n`);
    expect(headers.statusCode, headers.body).toBe(200);
    const seen = headers.json<{ headers: string[]; problems: string[]; mapping: Record<string, unknown> }>();
    expect(seen.headers).toEqual([...KEYS]);
    expect(seen.problems).toContain('Choose the column that holds the date.');
    expect(Object.values(seen.mapping).every((v) => v === null)).toBe(true);
  });

  it('account-file values that are inherited keys are refused naming the field; names spelled so round-trip', async () => {
    const base = () => smallAccountFile();
    const api = await newUser();
    for (const key of KEYS) {
      const hostile: [string, (f: AccountFile) => void][] = [
        ['payments.0.method', (f) => Object.assign(f.payments[0] ?? {}, { method: key })],
        ['entities.0.category', (f) => Object.assign(f.entities[0] ?? {}, { category: key })],
        ['invoices.0.flow', (f) => Object.assign(f.invoices[0] ?? {}, { flow: key })],
        ['version', (f) => Object.assign(f, { version: key })],
      ];
      for (const [path, spoil] of hostile) {
        const file = base();
        spoil(file);
        const res = await request(api, 'POST', '/account/import', file);
        expect(res.statusCode, `${path} = ${key}: ${res.body}`).toBe(400);
        expect(res.json<{ message: string }>().message.toLowerCase()).toContain(path.split('.').at(-1));
        expect(res.body).not.toMatch(LEAKED);
      }
    }
    const named = base();
    named.entities = KEYS.map((name, i) => ({
      ...fileEntity,
      ref: i + 1,
      name,
    }));
    named.invoices = [{ ...fileInvoice, description: 'constructor' }];
    const res = await request(api, 'POST', '/account/import', named);
    expect(res.statusCode, res.body).toBe(200);
    const back = (await request(api, 'GET', '/account/export')).json<AccountFile>();
    expect(back.entities.map((e) => e.name)).toEqual([...KEYS]);
    expect(back.invoices.map((i) => i.description)).toEqual(['constructor']);
  });
});
