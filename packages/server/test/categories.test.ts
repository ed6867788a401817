import { type AccountFile, accountFileV6 } from '@billfold/contract/account-file';
import type { Bill, BillList } from '@billfold/contract/bills';
import { CATEGORIES, type CategoryItem, type CategoryList, MAX_OWN_CATEGORIES } from '@billfold/contract/categories';
import type { EntryList } from '@billfold/contract/entries';
import type { ImportSummary } from '@billfold/contract/imports';
import type { Stats } from '@billfold/contract/stats';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { holdCategory, readCategoryBook } from '../src/modules/categories/category-book.ts';
import { DEFAULT_LEDGER_INDEX_OPTIONS } from '../src/modules/read-model/ledger-indexes.ts';
import { rollupDifferences } from '../src/modules/read-model/rollup-tables.ts';
import { createTestApp, type Dialect, dialects, type TestApp, testConfig } from './helpers/app.ts';
import { type Api, createBill, createEntry, createPayment, getBill, request, updateBill } from './helpers/domain.ts';
import { signUp } from './helpers/factories.ts';
import { multipart } from './helpers/multipart.ts';
import { ledgerOf, seedCategories, userIdOf } from './helpers/seed.ts';
import { totalsMismatches } from './security/database-state.ts';

/**
 * Categories of one's own (docs/decisions/0105-categories-of-your-own.md): add, rename, retire and restore them
 * beside the 21 built-in ones; names unique per user in any case and spacing; another user's are 404; and every
 * reader of categories takes them: entities, the one filter scope (list, stats, CSV export), the CSV import, the
 * account file, and the original client, which sees a category as its name.
 */

const other = (dialect: Dialect): Dialect => dialects.find((d) => d !== dialect) ?? dialect;

describe.each(dialects)('categories of one’s own on %s', (dialect) => {
  let t: TestApp;
  let target: TestApp;
  const userOf = async (app: TestApp = t): Promise<Api> => ({ app: app.app, session: await signUp(app.app) });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    target = other(dialect) === dialect ? t : await createTestApp(other(dialect));
  });
  afterAll(async () => {
    if (target !== t) await target.close();
    await t.close();
  });

  const list = async (api: Api) => {
    const res = await request(api, 'GET', '/categories');
    expect(res.statusCode).toBe(200);
    return res.json<CategoryList>().categories;
  };
  const add = async (api: Api, name: string, flow?: 'income' | 'expense') => {
    const res = await request(api, 'POST', '/categories', flow ? { name, flow } : { name });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<CategoryItem & { id: number }>();
  };
  const patch = (api: Api, id: number, body: Record<string, unknown>) =>
    request(api, 'PATCH', `/categories/${id}`, body);
  const entries = async (api: Api, query: string) => {
    const res = await request(api, 'GET', `/entries?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<EntryList>();
  };

  it('lists the 21 built-in ones and the user’s own, adds, renames, changes the flow, retires and restores', async () => {
    const api = await userOf();
    const builtIn = await list(api);
    expect(builtIn.map((c) => c.name)).toEqual([...CATEGORIES]);
    expect(builtIn.every((c) => c.builtIn && c.id === null && !c.retired && c.flow === null)).toBe(true);

    const salary = await add(api, '  Salary ', 'income');
    expect(salary).toEqual({
      id: salary.id,
      name: 'Salary',
      builtIn: false,
      flow: 'income',
      retired: false,
      entities: 0,
    });
    const pets = await add(api, 'pet   care');
    expect(pets).toMatchObject({ name: 'pet care', flow: 'expense' });
    const names = (await list(api)).map((c) => c.name);
    // Uncategorized first, then built-in and own together alphabetically, whatever the case.
    expect(names.slice(0, 3)).toEqual(['Uncategorized', 'Auto Insurance', 'Auto Loan']);
    expect(names.indexOf('pet care')).toBe(names.indexOf('Personal Care / Fitness') + 1);
    expect(names.indexOf('Salary')).toBe(names.indexOf('Personal Care / Fitness') + 2);

    const renamed = await patch(api, pets.id, { name: 'Pets', flow: 'expense' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ id: pets.id, name: 'Pets' });
    const retired = await patch(api, salary.id, { retired: true });
    expect(retired.json()).toMatchObject({ name: 'Salary', retired: true, flow: 'income' });
    expect((await list(api)).find((c) => c.id === salary.id)?.retired).toBe(true);
    const back = await patch(api, salary.id, { retired: false, flow: 'expense' });
    expect(back.json()).toMatchObject({ name: 'Salary', retired: false, flow: 'expense' });
    // Only the case changes: the same name, allowed.
    expect((await patch(api, salary.id, { name: 'SALARY' })).json()).toMatchObject({ name: 'SALARY' });

    const empty = await patch(api, salary.id, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('Give at least one of name, flow and retired.');
  });

  it('keeps names unique per user in any case and spacing, refuses built-in names, bad text and more than the limit', async () => {
    const api = await userOf();
    const salary = await add(api, 'Salary', 'income');
    const refunds = await add(api, 'Refunds', 'income');
    await patch(api, refunds.id, { retired: true });
    const conflicts = [
      [{ name: ' salary ' }, 'A category named "salary" already exists.'],
      [{ name: 'REFUNDS' }, 'A retired category named "REFUNDS" already exists: restore it instead.'],
      [{ name: 'utilities' }, '"utilities" is a built-in category.'],
      [{ name: 'mortgage_/_rent' }, '"mortgage_/_rent" is a built-in category.'],
    ] as const;
    for (const [body, message] of conflicts) {
      const res = await request(api, 'POST', '/categories', body);
      expect(res.statusCode, body.name).toBe(409);
      expect(res.json()).toMatchObject({ code: 'CATEGORY_NAME_TAKEN', message });
    }
    const clash = await patch(api, salary.id, { name: 'refunds' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().code).toBe('CATEGORY_NAME_TAKEN');

    for (const name of ['', '   ', 'Sal\u200Bary', 'Sal\u202Eary', 'x'.repeat(51)]) {
      const res = await request(api, 'POST', '/categories', { name });
      expect(res.statusCode, JSON.stringify(name)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
    expect((await request(api, 'POST', '/categories', { name: 'Gifts', flow: 'both' })).statusCode).toBe(400);

    // Another user may use the same names.
    const bob = await userOf();
    await add(bob, 'Salary');

    // The limit counts retired ones; the refused create stores nothing.
    const userId = await userIdOf(t.app.db, api.session.username);
    await seedCategories(
      t.app.db,
      userId,
      Array.from({ length: MAX_OWN_CATEGORIES - 2 }, (_, i) => ({ name: `Extra ${i}` })),
    );
    const over = await request(api, 'POST', '/categories', { name: 'One too many' });
    expect(over.statusCode).toBe(409);
    expect(over.json().code).toBe('TOO_MANY_CATEGORIES');
    expect((await list(api)).filter((c) => !c.builtIn)).toHaveLength(MAX_OWN_CATEGORIES);
  });

  it('refuses a change it cannot read (400 with a code) or a name in use (409), and stores nothing', async () => {
    const api = await userOf();
    const gifts = await add(api, 'Gifts');
    await add(api, 'Travel');
    const entity = await createBill(api, { name: 'Aunt May', category: 'gifts' });
    const before = await list(api);
    for (const body of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'Gi\u200Bfts' },
      { name: 'x'.repeat(51) },
      { name: 7 },
      { flow: 'both' },
      { retired: 'soon' },
    ]) {
      const res = await patch(api, gifts.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code, JSON.stringify(body)).toBe('VALIDATION_FAILED');
    }
    for (const name of ['travel', 'Groceries', ' GROCERIES ']) {
      const res = await patch(api, gifts.id, { name, retired: true, flow: 'income' });
      expect(res.statusCode, name).toBe(409);
      expect(res.json().code, name).toBe('CATEGORY_NAME_TAKEN');
    }
    expect((await request(api, 'POST', '/categories', { name: 'Pets', flow: 'both' })).json().code).toBe(
      'VALIDATION_FAILED',
    );
    expect(await list(api)).toEqual(before);
    expect((await getBill(api, entity.id)).category).toBe('Gifts');
  });

  it('another user’s category is not found, and never reachable through names', async () => {
    const alice = await userOf();
    const bob = await userOf();
    const mine = await add(alice, 'Side jobs', 'income');
    for (const body of [{ name: 'Taken' }, { retired: true }]) {
      const res = await patch(bob, mine.id, body);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Category not found.' });
    }
    expect((await patch(alice, 999_999, { retired: true })).statusCode).toBe(404);
    expect((await list(alice)).find((c) => c.id === mine.id)?.name).toBe('Side jobs');
    // Bob naming alice's category gets Uncategorized: names resolve among his own only.
    const bill = await createBill(bob, { category: 'Side jobs' });
    expect(bill.category).toBe('Uncategorized');
    expect((await list(bob)).some((c) => c.name === 'Side jobs')).toBe(false);
  });

  it('entities take them in any spelling; a rename reaches every entity and invoice; retired ones stay where used', async () => {
    const api = await userOf();
    const salary = await add(api, 'Salary', 'income');
    const employer = await createBill(api, { name: 'Employer', category: ' SALARY ' });
    expect(employer.category).toBe('Salary');
    const invoice = await createEntry(api, { billId: employer.id, amount: 3000, flow: 'income' });
    expect(invoice.category).toBe('Salary');
    expect((await list(api)).find((c) => c.id === salary.id)?.entities).toBe(1);

    const renamed = await patch(api, salary.id, { name: 'Wages' });
    expect(renamed.json()).toMatchObject({ name: 'Wages', entities: 1 });
    expect((await getBill(api, employer.id)).category).toBe('Wages');
    const after = await request(api, 'GET', `/entries/${invoice.entryId}`);
    expect(after.json().category).toBe('Wages');
    // The old name names nothing now.
    expect((await createBill(api, { category: 'Salary' })).category).toBe('Uncategorized');

    // Retired: kept on its entity, which the original client may send back as it got it; and still assignable.
    await patch(api, salary.id, { retired: true });
    const kept = await updateBill(api, { ...employer, category: 'Wages', name: 'Employer Inc' });
    expect(kept.category).toBe('Wages');
    expect((await createBill(api, { category: 'wages' })).category).toBe('Wages');

    // The entity list filters by it in any spelling.
    const bills = (await request(api, 'GET', '/bills?category=WAGES')).json<BillList>().billDTOList;
    expect(bills.map((b) => b.name).sort()).toEqual(['Employer Inc', expect.stringMatching(/^Entity /)].sort());
    expect(await totalsMismatches(t.app.db)).toEqual([]);
    expect(await rollupDifferences(t.app.db)).toEqual([]);
  });

  it('the one filter scope takes them: list, stats and CSV export; the original client sees the name', async () => {
    const api = await userOf();
    await add(api, 'Salary', 'income');
    await add(api, 'Refunds', 'income');
    const employer = await createBill(api, { name: 'Employer', category: 'Salary' });
    const shop = await createBill(api, { name: 'Shop', category: 'Refunds' });
    const power = await createBill(api, { name: 'Power', category: 'Utilities' });
    const pay = await createEntry(api, { billId: employer.id, amount: 2500, flow: 'income', date: '2026-10-31' });
    await createPayment(api, { entryId: pay.entryId, amount: 2500 });
    const refund = await createEntry(api, { billId: shop.id, amount: 40, flow: 'income', date: '2026-10-02' });
    await createPayment(api, { entryId: refund.entryId, amount: 40 });
    const bill = await createEntry(api, { billId: power.id, amount: 90, flow: 'expense' });
    await createPayment(api, { entryId: bill.entryId, amount: 90 });
    // Bob has a Salary of his own: it never mixes with alice's.
    const bob = await userOf();
    await add(bob, 'Salary', 'income');
    await createEntry(bob, { billId: (await createBill(bob, { category: 'Salary' })).id, amount: 7 });

    const salaried = await entries(api, 'categoryList=salary');
    expect(salaried.total).toBe(1);
    expect(salaried.entries[0]).toMatchObject({ entryId: pay.entryId, category: 'Salary', name: 'Employer' });
    const both = await entries(api, 'categoryList=Salary&categoryList=refunds&categoryList=Nothing&sortField=category');
    expect(both.entries.map((e) => e.category)).toEqual(['Refunds', 'Salary']);
    const mixed = await entries(api, 'categoryList=Salary&categoryList=UTILITIES');
    expect(mixed.total).toBe(2);
    expect((await entries(api, 'categoryList=Wages')).total).toBe(0);

    const stats = (await request(api, 'GET', '/entries/stats')).json<Stats>();
    expect(stats.top5IncomeCategories).toEqual({ Salary: 2500, Refunds: 40 });
    expect(stats.top5ExpenseCategories).toEqual({ Utilities: 90 });
    const filtered = (await request(api, 'GET', '/entries/stats?categoryList=SALARY')).json<Stats>();
    expect(filtered.totalIncomeAmount).toBe(2500);
    expect(filtered.top5IncomeCategories).toEqual({ Salary: 2500 });

    const csv = (await request(api, 'GET', '/entries/export?categoryList=salary')).body.split('\r\n');
    expect(csv[0]).toContain('Category');
    expect(csv.filter((line) => line.includes('Employer'))).toHaveLength(1);
    expect(csv.find((line) => line.includes('Employer'))).toContain(',Salary,');
    expect(csv.some((line) => line.includes('Power'))).toBe(false);

    // The original client (docs/api): reads the name, sends it back unchanged on an edit, and keeps its category.
    const original = (await request(api, 'GET', `/bills/${employer.id}`)).json<Bill>();
    expect(original.category).toBe('Salary');
    const put = await request(api, 'PUT', '/bills', {
      id: original.id,
      name: original.name,
      category: original.category,
      internal: original.internal,
      status: original.status,
    });
    expect(put.json().category).toBe('Salary');
  });

  it('the CSV import maps a category column onto built-in and own categories; unknown ones are Uncategorized', async () => {
    const api = await userOf();
    await add(api, 'Salary', 'income');
    const csv = [
      'Date,Payee,Amount,Category',
      '2026-10-01,Employer,2500.00,salary',
      '2026-10-02,Grocer,-40.00,GROCERIES',
      '2026-10-03,Stranger,-5.00,Lottery',
      '',
    ].join('\r\n');
    const body = multipart({ name: 'bank.csv', content: csv });
    const preview = await t.app.inject({
      method: 'POST',
      url: '/api/v1/imports/preview',
      headers: { ...api.session.headers, ...body.headers },
      payload: body.payload,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().rows.map((r: { category: string }) => r.category)).toEqual([
      'Salary',
      'Groceries',
      'Uncategorized',
    ]);
    const again = multipart({ name: 'bank.csv', content: csv });
    const commit = await t.app.inject({
      method: 'POST',
      url: '/api/v1/imports',
      headers: { ...api.session.headers, ...again.headers },
      payload: again.payload,
    });
    expect(commit.statusCode, commit.body).toBe(200);
    const result = JSON.parse(commit.body.trim().split('\n').at(-1) as string).result as ImportSummary;
    expect(result.entitiesCreated).toBe(3);
    const bills = (await request(api, 'GET', '/bills')).json<BillList>().billDTOList;
    expect(Object.fromEntries(bills.map((b) => [b.name, b.category]))).toEqual({
      Employer: 'Salary',
      Grocer: 'Groceries',
      Stranger: 'Uncategorized',
    });
    expect((await entries(api, 'categoryList=Salary')).total).toBe(1);
  });

  it('the account file carries them to another server and back; entities keep them; a bad file writes nothing', async () => {
    const from = await userOf();
    const salary = await add(from, 'Salary', 'income');
    const old = await add(from, 'Old hobby');
    await patch(from, old.id, { retired: true });
    const employer = await createBill(from, { name: 'Employer', category: 'Salary' });
    await createBill(from, { name: 'Hobby shop', category: 'Old hobby' });
    const pay = await createEntry(from, { billId: employer.id, amount: 2500, flow: 'income' });
    await createPayment(from, { entryId: pay.entryId, amount: 2500 });

    const exported = await request(from, 'GET', '/account/export');
    const file = accountFileV6.parse(exported.json());
    expect(file.version).toBe(6);
    expect(file.categories.map(({ createdAt: _c, ...c }) => c)).toEqual([
      { name: 'Salary', flow: 'income', retired: false },
      { name: 'Old hobby', flow: 'expense', retired: true },
    ]);
    expect(file.entities.map((e) => e.category)).toEqual(['Salary', 'Old hobby']);

    // Into an account that already has "SALARY" of its own: that one is kept, and the entities take its name.
    const to = await userOf(target);
    const { id: existingId } = await add(to, 'SALARY', 'income');
    const imported = await request(to, 'POST', '/account/import', file);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json()).toMatchObject({ entities: 2, invoices: 1, payments: 1, categories: 1 });
    const own = (await list(to)).filter((c) => !c.builtIn);
    expect(own.map((c) => [c.name, c.flow, c.retired, c.entities])).toEqual([
      ['Old hobby', 'expense', true, 1],
      ['SALARY', 'income', false, 1],
    ]);
    expect(own.find((c) => c.name === 'SALARY')?.id).toBe(existingId);
    expect((await entries(to, 'categoryList=salary')).total).toBe(1);
    const stats = (await request(to, 'GET', '/entries/stats')).json<Stats>();
    expect(stats.top5IncomeCategories).toEqual({ SALARY: 2500 });

    // And back: export → import → export gives the same file (the receiving account's spelling aside).
    const back = await userOf();
    expect((await request(back, 'POST', '/account/import', file)).statusCode).toBe(200);
    const second = accountFileV6.parse((await request(back, 'GET', '/account/export')).json());
    const withoutTime = (f: AccountFile) => ({ ...f, exportedAt: null });
    expect(withoutTime(second)).toEqual(withoutTime(file));

    // An entity naming a category the file does not have, a built-in name among the own ones, two equal names.
    const empty = await userOf();
    const problems = [
      [
        { ...file, entities: file.entities.map((e, i) => (i === 0 ? { ...e, category: 'Lottery' } : e)) },
        /entities\.0\.category:? "Lottery" is neither a built-in category nor in categories/i,
      ],
      [
        { ...file, categories: [...file.categories, { ...file.categories[0], name: 'Utilities' }] },
        /categories\.2\.name:? "Utilities" is a built-in category/i,
      ],
      [
        { ...file, categories: [...file.categories, { ...file.categories[0], name: ' salary' }] },
        /categories\.2\.name:? another category is already named "salary"/i,
      ],
    ] as const;
    for (const [bad, message] of problems) {
      const res = await request(empty, 'POST', '/account/import', bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect((await list(empty)).filter((c) => !c.builtIn)).toEqual([]);
    expect(salary.id).toBeGreaterThan(0);
  });
});

describe.each(dialects)('the ledger index with categories of one’s own on %s', (dialect) => {
  let t: TestApp;
  let sqlApp: FastifyInstance;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    sqlApp = await buildApp(testConfig(t.database.config, { now: t.clock.now }), {
      readModel: { ledgerIndex: { ...DEFAULT_LEDGER_INDEX_OPTIONS, maxBytes: 0 } },
    });
    await sqlApp.ready();
  });
  afterAll(async () => {
    await sqlApp.close();
    await t.close();
  });

  it('stays exact when renames leave more category names behind than its one-byte column holds', async () => {
    const session = await signUp(t.app);
    const api: Api = { app: t.app, session };
    const get = async (app: FastifyInstance, path: string) => {
      const res = await app.inject({
        method: 'GET',
        url: `/api/v1${path}`,
        headers: { ...session.headers, 'cache-control': 'no-cache' },
      });
      expect(res.statusCode, res.body).toBe(200);
      return { body: res.json(), timing: res.headers['server-timing'] };
    };
    const built = await createBill(api, { name: 'Power', category: 'Utilities' });
    await createEntry(api, { billId: built.id, amount: 12, flow: 'expense' });
    const mine = (await request(api, 'POST', '/categories', { name: 'Name 0', flow: 'income' })).json<
      CategoryItem & { id: number }
    >();
    const employer = await createBill(api, { name: 'Employer', category: 'Name 0' });
    const invoice = await createEntry(api, { billId: employer.id, amount: 100, flow: 'income' });
    await createPayment(api, { entryId: invoice.entryId, amount: 100 });
    // Each rename read by the index before the next: every name it meets takes a slot (here the first two are
    // Utilities and Name 0) until the index is read afresh, so 256 renames run past the 256 slots.
    const renames = 260;
    for (let i = 1; i <= renames; i++) {
      expect((await request(api, 'PATCH', `/categories/${mine.id}`, { name: `Name ${i}` })).statusCode).toBe(200);
      const stats = await get(t.app, '/entries/stats');
      expect(stats.timing).toBe('ledger;desc=index');
    }
    const query = `categoryList=name ${renames}`;
    for (const path of [
      `/entries/stats?${query}`,
      `/entries?${query}`,
      '/entries/stats',
      '/entries?sortField=category',
    ]) {
      const indexed = await get(t.app, path);
      if (path.startsWith('/entries/stats')) expect(indexed.timing, path).toBe('ledger;desc=index');
      expect(indexed.body, path).toEqual((await get(sqlApp, path)).body);
    }
    expect((await get(t.app, `/entries/stats?${query}`)).body.top5IncomeCategories).toEqual({
      [`Name ${renames}`]: 100,
    });
  }, 180_000);
});

describe.skipIf(!dialects.includes('postgres'))('a rename and a write that names the category, at once', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('postgres');
  });
  afterAll(() => t.close());

  it('the rename waits for a transaction holding the category, and then renames what it wrote too', async () => {
    const session = await signUp(t.app);
    const api: Api = { app: t.app, session };
    const salary = (await request(api, 'POST', '/categories', { name: 'Salary', flow: 'income' })).json<
      CategoryItem & { id: number }
    >();
    const userId = await userIdOf(t.app.db, session.username);
    let renamed: Promise<{ statusCode: number }> | undefined;
    let renameDone = false;
    await t.app.db.transaction().execute(async (trx) => {
      // What `POST /bills` does inside its transaction: hold the category, then write its name.
      const name = await holdCategory(trx, await readCategoryBook(trx, userId), 'salary');
      expect(name).toBe('Salary');
      renamed = request(api, 'PATCH', `/categories/${salary.id}`, { name: 'Wages' }).then((res) => {
        renameDone = true;
        return res;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(renameDone, 'the rename waits for the holder').toBe(false);
      await trx
        .insertInto('bills')
        .values({
          ledger_id: await ledgerOf(trx, userId),
          name: 'Employer',
          name_key: 'employer',
          category: name,
          internal: 0,
          status: 1,
          created_at: Date.now(),
        })
        .execute();
    });
    expect((await renamed)?.statusCode).toBe(200);
    const bills = (await request(api, 'GET', '/bills')).json<BillList>().billDTOList;
    expect(bills.map((b) => b.category)).toEqual(['Wages']);
  });
});
