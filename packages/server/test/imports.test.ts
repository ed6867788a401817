import type { BillList } from '@billfold/contract/bills';
import type { ImportList, ImportPreview, ImportSummary } from '@billfold/contract/imports';
import type { RecycleItem } from '@billfold/contract/recycle';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSV_ERRORS } from '../src/modules/imports/csv-file.ts';
import { IMPORT_MESSAGES } from '../src/modules/imports/imports.messages.ts';
import { rollupDifferences } from '../src/modules/read-model/rollup-tables.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import {
  type Api,
  createBill,
  createEntry,
  createPayment,
  editEntry,
  listRecycle,
  request,
  updateBill,
} from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';
import { multipart } from './helpers/multipart.ts';
import { changedTables, snapshot, tableNames, totalsMismatches } from './security/database-state.ts';

/**
 * CSV import: preview writes nothing and says what each row would become; commit writes all or nothing; Billfold's
 * own export comes back without a mapping; duplicates are flagged and skipped unless kept; one import is undone as
 * a unit; bad files are refused in words. Stored totals and rollups stay exact throughout.
 */

const BANK = [
  'Posted Date,Payee,Memo,Amount',
  '01/05/2026,Power Co,January bill,"-$1,234.56"',
  '01/06/2026,ACME Payroll,Salary,"$2,500.00"',
  '01/07/2026,power co,January bill,"-1,234.56"',
  '01/05/2026,POWER CO,January bill,(1234.56)',
  '02/01/2026,New Gym,Membership,-45',
].join('\n');

describe.each(dialects)('CSV import on %s', (dialect) => {
  let t: TestApp;
  const newUser = async (): Promise<Api> => ({ app: t.app, session: await signUp(t.app) });
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const upload = (
    api: Api,
    url: string,
    content: string | Buffer,
    fields: Record<string, unknown> = {},
    name = 'bank.csv',
  ) => {
    const body = multipart({ name, content }, fields);
    return t.app.inject({
      method: 'POST',
      url: `/api/v1${url}`,
      headers: { ...api.session.headers, ...body.headers },
      payload: body.payload,
    });
  };
  const preview = async (api: Api, content: string | Buffer, fields: Record<string, unknown> = {}) => {
    const res = await upload(api, '/imports/preview', content, fields);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ImportPreview>();
  };
  /** The streamed answer of a commit: its progress shares, then its result. */
  const commit = async (api: Api, content: string | Buffer, fields: Record<string, unknown> = {}) => {
    const res = await upload(api, '/imports', content, fields);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/x-ndjson');
    const events = res.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const progress = events.filter((e) => 'progress' in e).map((e) => e.progress as number);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(1);
    return events.at(-1)?.result as ImportSummary;
  };
  const exact = async () => {
    expect(await totalsMismatches(t.app.db)).toEqual([]);
    expect(await rollupDifferences(t.app.db)).toEqual([]);
  };

  it("brings Billfold's own CSV export back without any mapping", async () => {
    const from = await newUser();
    const power = await createBill(from, { name: 'Power, "Co"', category: 'Utilities' });
    const savings = await createBill(from, { name: 'Savings', category: 'Financial', internal: true });
    const e1 = await createEntry(from, {
      billId: power.id,
      amount: 120.5,
      flow: 'expense',
      services: '=cmd, "quoted"',
    });
    await createEntry(from, {
      billId: power.id,
      amount: 80,
      flow: 'income',
      date: '2025-02-28',
      dueDate: '2025-03-14',
    });
    const e3 = await createEntry(from, { billId: savings.id, amount: 1000 });
    // The export has one Paid column and no method: paid amounts come back as one payment of unspecified method.
    await createPayment(from, { entryId: e1.entryId, amount: 120.5, type: 'other', medium: 'other' });
    await createPayment(from, { entryId: e3.entryId, amount: 400, type: 'other', medium: 'other' });
    const csv = (await request(from, 'GET', '/entries/export?sortField=invoiceId&sortOrder=asc')).body;

    const to = await newUser();
    const seen = await preview(to, csv);
    expect(seen).toMatchObject({ ownExport: true, problems: [], rowCount: 3, errorCount: 0, duplicateCount: 0 });
    expect(seen.newEntities.sort()).toEqual(['Power, "Co"', 'Savings']);
    expect(seen.rows[0]).toMatchObject({
      entity: 'Power, "Co"',
      description: '=cmd, "quoted"',
      flow: 'expense',
      amount: '120.50',
      paid: '120.50',
    });
    expect(seen.rows[1]).toMatchObject({ date: '2025-02-28', dueDate: '2025-03-14' });
    expect(seen.rows[2]).toMatchObject({ flow: 'internal', category: 'Financial', dueDate: null });
    expect(csv.split('\r\n')[0]?.endsWith(',Due Date,Estimate,Estimated')).toBe(true);
    // Exports written before estimates (no last two columns) and before due dates (no last three) are still
    // Billfold's own; so is no other cut.
    const dropLast = (text: string) => text.replace(/,[^,\r\n]*\r\n/g, '\r\n');
    const beforeEstimates = dropLast(dropLast(csv));
    const beforeDueDates = dropLast(beforeEstimates);
    expect(beforeEstimates.split('\r\n')[0]?.endsWith(',Archived,Due Date')).toBe(true);
    expect(beforeDueDates.split('\r\n')[0]?.endsWith(',Archived')).toBe(true);
    for (const older of [beforeEstimates, beforeDueDates])
      expect(await preview(to, older)).toMatchObject({ ownExport: true, problems: [], errorCount: 0 });
    expect(await preview(to, dropLast(csv))).toMatchObject({ ownExport: false });

    const result = await commit(to, csv);
    expect(result).toMatchObject({
      invoices: 3,
      payments: 2,
      entitiesCreated: 2,
      skippedDuplicates: 0,
      undoneAt: null,
    });
    const again = (await request(to, 'GET', '/entries/export?sortField=invoiceId&sortOrder=asc')).body;
    expect(again).toBe(csv);
    const stats = async (api: Api) => (await request(api, 'GET', '/entries/stats')).json();
    expect(await stats(to)).toEqual(await stats(from));
    await exact();
  });

  it('reads a due date column beside the date, in the same format, never before the date', async () => {
    const api = await newUser();
    const file =
      'Date,Payee,Amount,Due Date\r\n01/10/2026,Power,-50.00,01/31/2026\r\n01/10/2026,Power,-60.00,01/05/2026\r\n';
    const seen = await preview(api, file);
    expect(seen.mapping).toMatchObject({ date: 0, entity: 1, amount: 2, dueDate: 3, dateFormat: 'MM/DD/YYYY' });
    expect(seen.rows[0]).toMatchObject({ date: '2026-01-10', dueDate: '2026-01-31', errors: [] });
    expect(seen.rows[1]?.errors).toEqual(['Due date must not be before the invoice date.']);
    // Without a date column, a lone "Due Date" is the invoice's date, as before.
    const lone = await preview(api, 'Due Date,Payee,Amount\r\n2026-01-31,Power,-50.00\r\n');
    expect(lone.mapping).toMatchObject({ date: 0, dueDate: null });
  });

  it('reads a bank file: signed amounts with $ and separators, month-first dates, entities matched or created, duplicates', async () => {
    const api = await newUser();
    const power = await createBill(api, { name: 'Power Co', category: 'Utilities' });
    await createEntry(api, {
      billId: power.id,
      date: '2026-02-01',
      amount: 45,
      flow: 'expense',
      services: 'Membership',
    });
    const seen = await preview(api, BANK);
    expect(seen.mapping).toMatchObject({ date: 0, entity: 1, description: 2, amount: 3, dateFormat: 'MM/DD/YYYY' });
    expect(seen.rows.map((r) => [r.line, r.date, r.entity, r.flow, r.amount, r.duplicate])).toEqual([
      [2, '2026-01-05', 'Power Co', 'expense', '1234.56', null],
      [3, '2026-01-06', 'ACME Payroll', 'income', '2500.00', null],
      [4, '2026-01-07', 'power co', 'expense', '1234.56', null],
      [5, '2026-01-05', 'POWER CO', 'expense', '1234.56', 'file'],
      [6, '2026-02-01', 'New Gym', 'expense', '45.00', null],
    ]);
    expect(seen.newEntities).toEqual(['ACME Payroll', 'New Gym']);
    expect(seen.duplicateCount).toBe(1);

    // The stored invoice of "New Gym"? No: it belongs to Power Co, so New Gym's row is new. Keep the file duplicate.
    const kept = await commit(api, BANK, { keep: [5] });
    expect(kept).toMatchObject({ invoices: 5, entitiesCreated: 2, skippedDuplicates: 0 });
    // The same file again: every row now matches a stored invoice and is skipped, so there is nothing to import.
    const twice = await preview(api, BANK);
    expect(twice.rows.map((r) => r.duplicate)).toEqual(['stored', 'stored', 'stored', 'stored', 'stored']);
    const refused = await upload(api, '/imports', BANK);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(IMPORT_MESSAGES.nothingToImport);
    const bills = (await request(api, 'GET', '/bills?status=all')).json<BillList>();
    expect(bills.billDTOList.map((b) => b.name).sort()).toEqual(['ACME Payroll', 'New Gym', 'Power Co']);
    await exact();
  });

  it('takes an edited mapping: debit and credit columns, day-first dates, payments with their method', async () => {
    const api = await newUser();
    const csv = [
      'When;Who;Out;In;Paid;How;What',
      '31.01.2026;Landlord;1.500,00;;;;Rent', // a European amount is not an amount in en-US: an error in words
      '28.02.2026;Landlord;1500;;1500;Check;Rent',
      '01.03.2026;Client;;900.10;;;Work',
    ].join('\n');
    const mapping = {
      date: 0,
      entity: 1,
      debit: 2,
      credit: 3,
      paid: 4,
      method: 5,
      description: 6,
      amount: null,
      flow: null,
      category: null,
      dateFormat: null,
    };
    const seen = await preview(api, csv, { mapping });
    expect(seen.mapping.dateFormat).toBe('DD.MM.YYYY');
    expect(seen.rows[0]?.errors).toEqual(['Debit "1.500,00" is not an amount.']);
    expect(seen.rows[1]).toMatchObject({
      date: '2026-02-28',
      flow: 'expense',
      amount: '1500.00',
      paid: '1500.00',
      method: 'Check (Mail)',
    });
    expect(seen.rows[2]).toMatchObject({ flow: 'income', amount: '900.10', paid: null });

    const before = await snapshot(t.app.db, await tableNames(t.app.db));
    const refused = await upload(api, '/imports', csv, { mapping });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      '1 row has errors, so nothing was imported (line 2: Debit "1.500,00" is not an amount.).',
    );
    expect(changedTables(before, await snapshot(t.app.db, await tableNames(t.app.db)))).toEqual([]);

    const fixed = csv.replace('1.500,00', '1500');
    const result = await commit(api, fixed, { mapping });
    expect(result).toMatchObject({ invoices: 3, payments: 1, entitiesCreated: 2 });
    const list = (
      await request(api, 'GET', '/entries?sortField=invoiceId&sortOrder=asc&startDate=2026-01-01&endDate=2026-12-31')
    ).json<{
      entries: { status: boolean; amount: number }[];
    }>();
    expect(list.entries.map((e) => [e.amount, e.status])).toEqual([
      [1500, false],
      [1500, true],
      [900.1, false],
    ]);
    await exact();
  });

  it('refuses bad files in words and writes nothing', async () => {
    const api = await newUser();
    const before = await snapshot(t.app.db, await tableNames(t.app.db));
    const message = async (content: string | Buffer, url = '/imports/preview') => {
      const res = await upload(api, url, content);
      expect(res.statusCode, res.body).toBe(400);
      // A file that cannot be read or fails its checks says so by its code too.
      expect(res.json<{ code: string }>().code, res.body).toBe('INVALID_FILE');
      return res.json<{ message: string }>().message;
    };
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Date,Entity,Amount\n', 'utf16le')]);
    expect(await message(utf16)).toBe(CSV_ERRORS.encoding);
    expect(await message(Buffer.from([0x44, 0x61, 0x74, 0x65, 0x0a, 0xe9, 0x74, 0xe9, 0x0a]))).toBe(
      CSV_ERRORS.encoding,
    );
    expect(await message('2026-01-05,Power Co,12.00\n2026-01-06,Water,13.00\n')).toBe(CSV_ERRORS.noHeader);
    expect(await message('Date,Entity,Amount\n')).toBe(CSV_ERRORS.noRows);
    expect(await message('')).toBe(CSV_ERRORS.empty);
    expect(await message('Date,Entity,Amount\n"2026-01-05,Power\n')).toMatch(/^The file is not valid CSV \(line \d+: /);

    const mixed = 'Date,Entity,Amount\n2026-01-05,Power,-12\n01/06/2026,Power,-13\n';
    const seen = await preview(api, mixed);
    expect(seen.problems).toEqual([
      'The dates mix formats: 1 row like "2026-01-05" (YYYY-MM-DD) on line 2; 1 row like "01/06/2026" (MM/DD/YYYY or DD/MM/YYYY) on line 3. Use one date format throughout the file.',
    ]);
    expect(await message(mixed, '/imports')).toBe(seen.problems[0]);
    // Every row of each layout is named, a long list shortened.
    const many = ['Date,Entity,Amount', '2026-01-05,Power,-12'];
    for (let i = 0; i < 12; i++) many.push(`01/${String(i + 10).padStart(2, '0')}/2026,Power,-1`);
    many.push('2026-02-01,Power,-3');
    expect((await preview(api, `${many.join('\n')}\n`)).problems).toEqual([
      'The dates mix formats: 2 rows like "2026-01-05" (YYYY-MM-DD) on lines 2 and 15; 12 rows like "01/10/2026" (MM/DD/YYYY or DD/MM/YYYY) on lines 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 and 2 more. Use one date format throughout the file.',
    ]);
    // Dates of one layout that the file's format cannot read: which rows, and which format.
    const unreadable =
      'Date,Entity,Amount\n01/05/2026,Power,-1\n05/13/2026,Power,-2\n13/05/2026,Power,-3\n31/12/2026,Power,-4\n';
    const read = await preview(api, unreadable);
    expect(read.mapping.dateFormat).toBe('MM/DD/YYYY');
    expect(read.problems).toEqual([
      '2 dates are not in the format MM/DD/YYYY on lines 4 and 5. Fix them in the file, or choose another date format in the mapping.',
    ]);
    expect(read.rows[2]?.errors).toEqual(['Date "13/05/2026" is not a date in the format MM/DD/YYYY.']);

    const huge = 'Date,Entity,Amount\n2026-01-05,Power,"$1,000,000,000.00"\n';
    expect((await preview(api, huge)).rows[0]?.errors).toEqual([
      'Amount "$1,000,000,000.00" is out of range (the most is 999,999,999.99).',
    ]);
    expect(await message(huge, '/imports')).toContain('1 row has errors');

    const tooLarge = await upload(api, '/imports/preview', Buffer.alloc(16 * 1024 * 1024 + 10, 'a'));
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toMatchObject({
      code: 'BODY_TOO_LARGE',
      message: 'The file is larger than the limit of 16 MiB.',
    });
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/v1/imports',
      headers: api.session.headers,
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toBe('Upload the CSV file as multipart/form-data with a "file" field.');
    const cut = await t.app.inject({
      method: 'POST',
      url: '/api/v1/imports/preview',
      headers: { ...api.session.headers, 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nDate,Ent',
    });
    expect(cut.statusCode).toBe(400);
    expect(cut.json().message).toBe('The upload is not a valid multipart/form-data body.');
    // The form parser's refusals name what is wrong, each with its code, never the parser's own words.
    const refused = async (fields: Record<string, unknown>) => {
      const form = multipart({ name: 'a.csv', content: 'Date,Entity,Amount\n2026-01-05,Power,-1\n' }, fields);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/imports/preview',
        headers: { ...api.session.headers, ...form.headers },
        payload: form.payload,
      });
      return { status: res.statusCode, code: res.json().code, message: res.json().message };
    };
    expect(await refused({ mapping: 'x'.repeat(1024 * 1024 + 1) })).toEqual({
      status: 413,
      code: 'FIELD_TOO_LONG',
      message: 'mapping is longer than the limit of 1 MiB.',
    });
    expect(await refused({ a: 1, b: 2, c: 3, d: 4, e: 5 })).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect((await refused({ a: 1, b: 2, c: 3, d: 4, e: 5 })).message).toContain('too many parts');
    expect(await refused({ mapping: { dateFormat: 'soon' } })).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
    });
    expect(await refused({ ['__proto__']: 1 })).toMatchObject({ status: 400, code: 'FORBIDDEN_KEY' });
    // Only the import routes take multipart bodies.
    const form = multipart({ name: 'x.csv', content: 'a' }, { name: 'Sneaky' });
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/v1/bills',
      headers: { ...api.session.headers, ...form.headers },
      payload: form.payload,
    });
    expect(elsewhere.statusCode).toBe(415);
    expect(changedTables(before, await snapshot(t.app.db, await tableNames(t.app.db)))).toEqual([]);
  });

  it('refuses a file name the text rule refuses, on preview and commit, as attachments do, storing nothing', async () => {
    const api = await newUser();
    const csv = 'Date,Entity,Amount\n2026-01-05,Power Co,-12\n';
    const before = await snapshot(t.app.db, await tableNames(t.app.db));
    const refused: [string, string, RegExp][] = [
      ['NUL', 'bank\u0000.csv', /^fileName must not contain control characters/],
      [
        'a right-to-left override',
        'bank\u202Evsc.exe',
        /^fileName must not contain U\+202E, an invisible character that reverses/,
      ],
      ['a tab', 'bank\t2026.csv', /^fileName must be on one line/],
      ['a zero-width space', 'ba\u200Bnk.csv', /^fileName must not contain U\+200B, an invisible character/],
      ['a name over 255 characters', `${'b'.repeat(252)}.csv`, /^fileName must be at most 255 characters/],
      ['only spaces', '   ', /^fileName must not be empty/],
    ];
    for (const url of ['/imports/preview', '/imports']) {
      for (const [what, name, message] of refused) {
        const res = await upload(api, url, csv, {}, name);
        expect({ url, what, status: res.statusCode }, res.body).toEqual({ url, what, status: 400 });
        expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(message) });
      }
      // A line break in the name: the form parser drops the part's file, so there is no file.
      const broken = await upload(api, url, csv, {}, 'bank\n2026.csv');
      expect(broken.statusCode).toBe(400);
      expect(broken.json().message).toBe('Upload the CSV file as multipart/form-data with a "file" field.');
    }
    expect(changedTables(before, await snapshot(t.app.db, await tableNames(t.app.db)))).toEqual([]);

    // What the rule takes is kept as sent, in composed form, but for a path before it.
    const seen = await upload(api, '/imports/preview', csv, {}, 'C:\\Users\\me\\Bank Cafe\u0301 2026.csv');
    expect(seen.json<ImportPreview>().fileName).toBe('Bank Caf\u00e9 2026.csv');
    const done = await upload(api, '/imports', csv, {}, `exports/${'b'.repeat(251)}.csv`);
    expect(done.statusCode, done.body).toBe(200);
    const imports = (await request(api, 'GET', '/imports')).json<ImportList>().imports;
    expect(imports.map((i) => i.fileName)).toEqual([`${'b'.repeat(251)}.csv`]);
  });

  it('undoes one import as a unit: its entities whole, its other invoices each with their payments', async () => {
    const api = await newUser();
    const power = await createBill(api, { name: 'Power Co' });
    const mine = await createEntry(api, { billId: power.id, amount: 10, services: 'by hand' });
    const csv =
      'Date,Entity,Amount,Description,Paid\n2026-01-05,Power Co,-12,Jan,12\n2026-01-06,New Gym,-45,Feb,\n2026-01-07,New Gym,-45,Mar,20\n';
    const result = await commit(api, csv);
    expect(result).toMatchObject({ invoices: 3, payments: 2, entitiesCreated: 1 });
    const undone = await request(api, 'POST', `/imports/${result.id}/undo`);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json<ImportSummary>().undoneAt).not.toBeNull();

    const bin = await listRecycle(api);
    expect(bin.map((i: RecycleItem) => [i.entityType, i.partyName, i.details])).toEqual([
      ['Entity', 'New Gym', 'Uncategorized'],
      ['Invoice', 'Power Co', 'Jan'],
    ]);
    expect(new Set(bin.map((i) => i.recycleDate)).size).toBe(1);
    const live = (await request(api, 'GET', '/entries?startDate=2000-01-01&endDate=2099-12-31')).json<{
      entries: { entryId: number }[];
    }>();
    expect(live.entries.map((e) => e.entryId)).toEqual([mine.entryId]);
    await exact();

    expect((await request(api, 'POST', `/imports/${result.id}/undo`)).statusCode).toBe(409);
    const other = await newUser();
    expect((await request(other, 'POST', `/imports/${result.id}/undo`)).statusCode).toBe(404);
    expect((await request(other, 'GET', '/imports')).json()).toEqual({ imports: [] });
    const restored = await request(api, 'POST', '/recycle/restore', {
      entityType: 'Entity',
      entityId: bin[0]?.entityId,
    });
    expect(restored.statusCode).toBe(200);
    const imports = (await request(api, 'GET', '/imports')).json<ImportList>().imports;
    expect(imports.map((i) => [i.fileName, i.invoices, i.undoneAt !== null])).toEqual([['bank.csv', 3, true]]);
    await exact();
  });

  it('refuses an archived entity in words', async () => {
    const api = await newUser();
    const old = await createBill(api, { name: 'Old Landlord' });
    await updateBill(api, { id: old.id, status: 0 });
    const seen = await preview(api, 'Date,Entity,Amount\n2026-01-05,old landlord,-12\n');
    expect(seen.rows[0]?.errors).toEqual([
      'Entity "Old Landlord" is archived; unarchive it to import invoices for it.',
    ]);
  });

  it('writes a large file in bulk: stored duplicates found, list (cached before), stats and rollups right afterwards', async () => {
    const api = await newUser();
    const power = await createBill(api, { name: 'Power Co', category: 'Utilities' });
    const stored = await createEntry(api, { billId: power.id, date: '2026-03-01', amount: 10, services: 'Row 0' });
    await createEntry(api, { billId: power.id, date: '2026-03-04', amount: 13, services: 'row  3' });
    await editEntry(api, { entryId: stored.entryId, recycle: true }); // a deleted invoice is no duplicate
    await createEntry(api, { billId: power.id, date: '2026-03-07', amount: 99, services: 'Row 6' }); // other amount
    const rows = 3_000;
    const lines = ['Date,Entity,Amount,Description,Paid,Method'];
    for (let i = 0; i < rows; i++) {
      const day = String((i % 28) + 1).padStart(2, '0');
      const entity = i % 3 === 0 ? 'power co' : `Payee ${i % 40}`;
      lines.push(`2026-03-${day},${entity},-${(i % 500) + 10}.00,Row ${i},${i % 4 === 0 ? '5.00' : ''},Cash`);
    }
    const csv = lines.join('\n');
    const seen = await preview(api, csv);
    // Row 3 (line 5) is Power Co on 2026-03-04 for 13.00: stored. Row 0 was deleted, row 6 differs in amount.
    expect(seen.duplicateCount).toBe(1);
    expect(seen.rows.find((r) => r.duplicate !== null)).toMatchObject({ line: 5, duplicate: 'stored' });

    const list = () => request(api, 'GET', '/entries?startDate=2026-01-01&endDate=2026-12-31');
    expect((await list()).json().total).toBe(2);
    expect((await list()).json().total).toBe(2); // now answered from the list cache
    const triggers = () =>
      sql`select name, sql from sqlite_master where type = 'trigger' order by name`.execute(t.app.db);
    const before = dialect === 'sqlite' ? (await triggers()).rows : [];
    const result = await commit(api, csv);
    expect(result).toMatchObject({ invoices: rows - 1, payments: rows / 4, entitiesCreated: 40, skippedDuplicates: 1 });
    expect((await list()).json().total).toBe(2 + rows - 1);
    const stats = (await request(api, 'GET', '/entries/stats?startDate=2026-03-01&endDate=2026-03-31')).json();
    let expenses = 0;
    for (let i = 0; i < rows; i++) if (i !== 3) expenses += (i % 500) + 10;
    expect(stats).toMatchObject({
      totalIncomeAmount: 13 + 99,
      totalExpenseAmount: expenses,
      totalSentPaymentAmount: 5 * 750,
    });
    if (dialect === 'sqlite') expect((await triggers()).rows).toEqual(before);
    await exact();
  });

  it('writes nothing when the database fails in the middle of the writes, and keeps its triggers', async () => {
    const api = await newUser();
    // A failure no check can foresee: the database refuses the first payment, after the invoices are written.
    const failing =
      dialect === 'sqlite'
        ? [
            sql`create trigger test_refuse_payment before insert on payments begin select raise(abort, 'refused by test'); end`,
          ]
        : [
            sql`create function test_refuse_payment() returns trigger language plpgsql as $$ begin raise exception 'refused by test'; end $$`,
            sql`create trigger test_refuse_payment before insert on payments for each row execute function test_refuse_payment()`,
          ];
    const triggers = () =>
      dialect === 'sqlite'
        ? sql`select name, sql from sqlite_master where type = 'trigger' order by name`.execute(t.app.db)
        : sql`select tgname from pg_trigger order by tgname`.execute(t.app.db);
    for (const statement of failing) await statement.execute(t.app.db);
    try {
      const before = await snapshot(t.app.db, await tableNames(t.app.db));
      const triggersBefore = (await triggers()).rows;
      const res = await upload(
        api,
        '/imports',
        'Date,Entity,Amount,Paid\n2026-01-05,Power Co,-12,12\n2026-01-06,Gym,-45,\n',
      );
      expect(res.statusCode).toBe(200); // the answer was already streaming
      expect(res.body.trim().split('\n').at(-1)).toBe(
        JSON.stringify({ error: 'The import failed; nothing was imported.' }),
      );
      expect(changedTables(before, await snapshot(t.app.db, await tableNames(t.app.db)))).toEqual([]);
      expect((await triggers()).rows).toEqual(triggersBefore);
    } finally {
      if (dialect === 'sqlite') await sql`drop trigger test_refuse_payment`.execute(t.app.db);
      else await sql`drop function test_refuse_payment() cascade`.execute(t.app.db);
    }
    await commit(api, 'Date,Entity,Amount,Paid\n2026-01-05,Power Co,-12,12\n');
    await exact();
  });
});
