import { type AccountFile, accountFileV6 } from '@billfold/contract/account-file';
import { nameProblem, textProblem } from '@billfold/contract/text-rules';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneInvoiceFile } from './helpers/account-file.ts';
import { createTestApp, dialects, type TestApp } from './helpers/app.ts';
import { type Api, request } from './helpers/domain.ts';
import { signIn, userData } from './helpers/factories.ts';
import { multipart } from './helpers/multipart.ts';

/**
 * One text rule on every path that stores text (docs/decisions/0102-text-characters.md): whatever the API accepts,
 * the account's own export brings back into a fresh account unchanged; what a CSV or account file brings in either
 * passes the same rule or is refused with a 400 that names the row or field.
 */

const RUNS = Number(process.env.TEXT_RULE_RUNS ?? 25);
/** fast-check's seed: printed, and set with TEXT_RULE_SEED to replay a failure. */
const SEED = Number(process.env.TEXT_RULE_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** Characters the rule is about, mixed with ordinary and real-writing ones. */
const CHARS = [
  'a',
  'Z',
  'é',
  ' ',
  '  ',
  '"',
  ',',
  '=',
  '{',
  '}',
  '\n',
  '\r\n',
  '\t',
  '\u202E',
  '\u2066',
  '\u200B',
  '\u200D',
  '\u200C',
  '\u200E',
  '\u00AD',
  '\u00A0',
  '\u3000',
  '\u0301',
  '\u034F',
  '\u3164',
  '\u2028',
  '\uFEFF',
  '\uFFFD',
  '\u0007',
  '\u0085',
  '\uD800',
  '👍🏽',
  'ب',
  'ﬁ',
];
const hostileText = (max: number) =>
  fc
    .array(fc.oneof(fc.constantFrom(...CHARS), fc.string({ maxLength: 3 })), { maxLength: 12 })
    .map((parts) => parts.join('').slice(0, max));
/** Text that is usually a valid name: letters around at most a few hostile characters. */
const nameish = fc.tuple(fc.stringMatching(/^[A-Za-z]{1,8}$/), hostileText(20)).map(([a, b]) => `${a}${b}`);

const ENTITY_CATEGORIES = ['Utilities', 'Groceries', 'Financial', 'Uncategorized'];
const DATES = ['2025-03-01', '2026-01-31', '2026-11-05'];

interface Plan {
  /** The ledger's name (the file carries it) and its own categories (version 3 on). */
  ledgerName: string;
  categories: { name: string; flow: 'income' | 'expense'; retire: boolean }[];
  /** `category` picks from the built-in ones in ENTITY_CATEGORIES, then the plan's own. */
  entities: { name: string; category: number; internal: boolean; archive: boolean; recycle: boolean }[];
  invoices: {
    entity: number;
    description: string;
    flow: 'income' | 'expense';
    amount: number;
    date: string;
    recycle: boolean;
  }[];
  payments: { invoice: number; notes: string; amount: number; method: [string, string]; recycle: boolean }[];
  schedules: { entity: number; description: string; weekly: boolean }[];
}

const plan: fc.Arbitrary<Plan> = fc.record({
  ledgerName: nameish,
  categories: fc.array(
    fc.record({
      name: nameish,
      flow: fc.constantFrom('income' as const, 'expense' as const),
      retire: fc.boolean(),
    }),
    { maxLength: 3 },
  ),
  entities: fc.array(
    fc.record({
      name: nameish,
      category: fc.nat(),
      internal: fc.boolean(),
      archive: fc.boolean(),
      recycle: fc.boolean(),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  invoices: fc.array(
    fc.record({
      entity: fc.nat(),
      description: hostileText(60),
      flow: fc.constantFrom('income' as const, 'expense' as const),
      amount: fc.integer({ min: 1, max: 99_999 }).map((c) => c / 100),
      date: fc.constantFrom(...DATES),
      recycle: fc.boolean(),
    }),
    { maxLength: 5 },
  ),
  payments: fc.array(
    fc.record({
      invoice: fc.nat(),
      notes: hostileText(60),
      amount: fc.integer({ min: 1, max: 50_000 }).map((c) => c / 100),
      method: fc.constantFrom<[string, string]>(['bank', 'ach'], ['cash', 'person'], ['check', 'mail']),
      recycle: fc.boolean(),
    }),
    { maxLength: 4 },
  ),
  schedules: fc.array(
    fc.record({
      entity: fc.nat(),
      description: fc.tuple(hostileText(30), fc.constantFrom('', ' {month}', ' {n}')).map(([t, p]) => `${t}${p}`),
      weekly: fc.boolean(),
    }),
    { maxLength: 2 },
  ),
});

const pick = <T>(list: readonly T[], n: number): T | undefined => list[n % Math.max(list.length, 1)];

/** Makes what the plan describes through the API, skipping what the API refuses (it must refuse with a 400). */
async function build(api: Api, p: Plan): Promise<void> {
  /** `refusals`: the statuses the request may be refused with, 400 (the rule) and any the route adds. */
  const created = async (method: 'POST' | 'PUT' | 'PATCH', url: string, body: unknown, refusals = [400]) => {
    const res = await request(api, method, url, body);
    expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}: ${res.body}`).toBeLessThan(500);
    if (res.statusCode >= 300) {
      expect(refusals, res.body).toContain(res.statusCode);
      return null;
    }
    return res.json<Record<string, number>>();
  };
  const ledgers = (await request(api, 'GET', '/ledgers')).json<{ ledgers: { id: number; personal: boolean }[] }>();
  const personal = ledgers.ledgers.find((l) => l.personal);
  await created('PATCH', `/ledgers/${personal?.id}`, { name: p.ledgerName });
  const categories: string[] = [...ENTITY_CATEGORIES];
  const own: { id: number; retire: boolean }[] = [];
  for (const c of p.categories) {
    // Two of the plan's names may be one name (case and spacing aside): 409.
    const made = await created('POST', '/categories', { name: c.name, flow: c.flow }, [400, 409]);
    if (made?.id === undefined) continue;
    categories.push((made as unknown as { name: string }).name);
    own.push({ id: made.id, retire: c.retire });
  }
  const entities: { id: number; internal: boolean; archive: boolean; recycle: boolean }[] = [];
  for (const e of p.entities) {
    const category = pick(categories, e.category);
    const bill = await created('POST', '/bills', { name: e.name, category, internal: e.internal });
    if (bill?.id !== undefined)
      entities.push({ id: bill.id, internal: e.internal, archive: e.archive, recycle: e.recycle });
  }
  const invoices: { id: number; recycle: boolean }[] = [];
  for (const inv of p.invoices) {
    const entity = pick(entities, inv.entity);
    if (!entity) break;
    const body = {
      billId: entity.id,
      date: inv.date,
      flow: entity.internal ? 'expense' : inv.flow,
      amount: inv.amount,
      services: inv.description,
    };
    const entry = await created('POST', '/entries/new', body);
    if (entry?.entryId !== undefined) invoices.push({ id: entry.entryId, recycle: inv.recycle });
  }
  const payments: { id: number; recycle: boolean }[] = [];
  for (const pay of p.payments) {
    const invoice = pick(invoices, pay.invoice);
    if (!invoice) break;
    const [type, medium] = pay.method;
    const body = { entryId: invoice.id, date: '2026-11-06', amount: pay.amount, type, medium, notes: pay.notes };
    const payment = await created('POST', '/payments', { ...body, autopay: false });
    if (payment?.paymentId !== undefined) payments.push({ id: payment.paymentId, recycle: pay.recycle });
  }
  for (const s of p.schedules) {
    const entity = pick(entities, s.entity);
    if (!entity) break;
    await created('POST', `/bills/${entity.id}/schedules`, {
      cadence: s.weekly ? 'weekly' : 'monthly',
      firstDate: '2026-10-01',
      amount: 12.5,
      flow: 'expense',
      description: s.description,
      count: 3,
      // Several schedules of one entity may fall on the same dates: create them all (ADR 1013).
      duplicates: 'create',
    });
  }
  for (const pay of payments) if (pay.recycle) await created('PUT', '/payments', { paymentId: pay.id, recycle: true });
  for (const inv of invoices)
    if (inv.recycle) await created('PUT', '/entries/edit', { entryId: inv.id, recycle: true });
  for (const e of entities) {
    if (e.archive) await created('PUT', '/bills', { id: e.id, status: 0 });
    if (e.recycle) await created('PUT', '/bills', { id: e.id, recycle: true });
  }
  for (const c of own) if (c.retire) await created('PATCH', `/categories/${c.id}`, { retired: true });
}

/** Every stored text of a file, with where it is, that the rule would refuse today. */
function ruleBreaches(file: AccountFile): string[] {
  const out: string[] = [];
  const check = (where: string, value: string, problem: (v: string) => string | null) => {
    const reason = problem(value);
    if (reason || value !== value.trim()) out.push(`${where} ${JSON.stringify(value)}: ${reason ?? 'untrimmed'}`);
  };
  const name = (where: string, value: string) => {
    check(where, value, nameProblem);
    if (value !== value.normalize('NFC')) out.push(`${where} is not in composed form`);
  };
  name('ledger.name', file.ledger.name);
  for (const [i, c] of file.categories.entries()) name(`categories.${i}.name`, c.name);
  for (const [i, e] of file.entities.entries()) name(`entities.${i}.name`, e.name);
  for (const [i, inv] of file.invoices.entries()) check(`invoices.${i}.description`, inv.description, textProblem);
  for (const [i, p] of file.payments.entries()) check(`payments.${i}.notes`, p.notes, textProblem);
  for (const [i, s] of file.schedules.entries()) check(`schedules.${i}.description`, s.description, textProblem);
  return out;
}

const withoutTime = (file: AccountFile) => ({ ...file, exportedAt: null });

describe.each(dialects)('one text rule on every path, on %s', (dialect) => {
  let t: TestApp;
  let address = 0;
  /** A fresh account, each from its own client address: a property makes more than the 50 sign-ups one allows. */
  const newUser = async (): Promise<Api> => {
    address += 1;
    const data = userData();
    const remoteAddress = `10.77.${address >> 8}.${address & 255}`;
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/auth/create', payload: data, remoteAddress });
    expect(created.statusCode, created.body).toBe(201);
    return { app: t.app, session: await signIn(t.app, data) };
  };
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const exportOf = async (api: Api) => {
    const res = await request(api, 'GET', '/account/export');
    expect(res.statusCode, res.body).toBe(200);
    return accountFileV6.parse(res.json());
  };
  /** The file imported into a fresh account: it must load, and export to the same file. */
  const reimports = async (file: AccountFile) => {
    const fresh = await newUser();
    const res = await request(fresh, 'POST', '/account/import', file);
    expect(res.statusCode, `re-import: ${res.body}`).toBe(200);
    // The file's ledger name is checked on import but not taken: the content goes into the account's own ledger.
    const again = await exportOf(fresh);
    expect(withoutTime({ ...again, ledger: file.ledger })).toEqual(withoutTime(file));
  };

  it('an account built from anything the API accepts exports and re-imports into a fresh account unchanged', async () => {
    console.log(`text-rule round trip on ${dialect}: TEXT_RULE_SEED=${SEED}`);
    await fc.assert(
      fc.asyncProperty(plan, async (p) => {
        const api = await newUser();
        await build(api, p);
        const file = await exportOf(api);
        expect(ruleBreaches(file)).toEqual([]);
        await reimports(file);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('a CSV import with hostile text stores text that passes the rule, or is refused naming the line and field', async () => {
    const quoted = (cell: string) => `"${cell.replaceAll('"', '""')}"`;
    const rows = fc.array(fc.tuple(nameish, hostileText(60)), { minLength: 1, maxLength: 5 });
    await fc.assert(
      fc.asyncProperty(rows, async (cells) => {
        const api = await newUser();
        const csv = [
          'Date,Payee,Memo,Amount',
          ...cells.map(([entity, memo], i) => `2026-01-0${i + 1},${quoted(entity)},${quoted(memo)},-${i + 1}.00`),
        ].join('\r\n');
        const body = multipart({ name: 'hostile.csv', content: csv });
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/imports',
          headers: { ...api.session.headers, ...body.headers },
          payload: body.payload,
        });
        if (res.statusCode === 400) {
          expect(res.json<{ message: string }>().message).toMatch(/line \d+: (Entity|Description) /);
          expect((await exportOf(api)).invoices).toEqual([]);
          return;
        }
        expect(res.statusCode, res.body).toBe(200);
        const file = await exportOf(api);
        expect(file.invoices).toHaveLength(cells.length);
        expect(ruleBreaches(file)).toEqual([]);
        await reimports(file);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('an account file with hostile text loads text that passes the rule, or is refused naming the field', async () => {
    const texts = fc.record({
      name: nameish,
      description: hostileText(60),
      notes: hostileText(60),
      template: hostileText(40),
    });
    await fc.assert(
      fc.asyncProperty(texts, async (x) => {
        const api = await newUser();
        const file: AccountFile = {
          ...oneInvoiceFile({ name: x.name, description: x.description, notes: x.notes }),
          schedules: [
            {
              ref: 1,
              entity: 1,
              cadence: 'monthly',
              amountMode: 'fixed',
              averageOf: null,
              interval: 1,
              dayOfMonth: 1,
              firstDate: '2027-01-01',
              endDate: null,
              count: null,
              amount: '5.00',
              flow: 'expense',
              description: x.template,
              dueDays: 0,
              autopay: null,
              paused: false,
              nextDate: '2027-01-01',
              createdAt: '2026-01-01T00:00:00.000Z',
              occurrences: [],
            },
          ],
        };
        const res = await request(api, 'POST', '/account/import', file);
        if (res.statusCode === 400) {
          expect(res.json<{ message: string }>().message).toMatch(
            /(Entities\.0\.name|Invoices\.0\.description|Payments\.0\.notes|Schedules\.0\.description) /,
          );
          expect((await exportOf(api)).entities).toEqual([]);
          return;
        }
        expect(res.statusCode, res.body).toBe(200);
        const stored = await exportOf(api);
        expect(ruleBreaches(stored)).toEqual([]);
        await reimports(stored);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
