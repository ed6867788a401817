import { CATEGORIES } from '@billfold/contract/categories';
import { MAX_DATE, MIN_DATE } from '@billfold/contract/dates';
import { MAX_CENTS } from '@billfold/contract/money';
import { PAYMENT_METHOD_CODES } from '@billfold/contract/payment-methods';
import fc from 'fast-check';

/**
 * Value generators for the fuzzer: arbitraries read off the JSON Schemas that the contract's zod schemas become in
 * the app's OpenAPI document, values that are valid in the domain (so requests get past validation and reach the
 * services), and hostile values of every kind.
 */

// ---------- from the contract's schemas (as published in OpenAPI) ----------

export interface JsonSchema {
  type?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  items?: JsonSchema;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

const boundaryInts = (min: number, max: number) =>
  fc.constantFrom(min - 1, min, min + 1, max - 1, max, max + 1, -1, 0, 1, 2 ** 31, 2 ** 53);

/** Values shaped by a schema: mostly valid by its letter, with its boundaries and one step past them. */
export function fromSchema(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema) return fc.anything({ maxDepth: 1 });
  let arb: fc.Arbitrary<unknown>;
  if (schema.anyOf?.length) arb = fc.oneof(...schema.anyOf.map((s) => fromSchema(s, depth)));
  else if (schema.enum?.length) arb = fc.constantFrom(...schema.enum);
  else {
    switch (schema.type) {
      case 'string': {
        const max = Math.min(schema.maxLength ?? 60, 2_000);
        arb = fc.oneof(
          { weight: 4, arbitrary: fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(max, 60) }) },
          { weight: 1, arbitrary: fc.string({ minLength: max, maxLength: max + 2 }) },
          ...(schema.pattern ? [{ weight: 3, arbitrary: fc.stringMatching(new RegExp(schema.pattern)) }] : []),
        );
        break;
      }
      case 'integer': {
        const min = schema.minimum ?? Number.MIN_SAFE_INTEGER;
        const max = schema.maximum ?? Number.MAX_SAFE_INTEGER;
        arb = fc.oneof(fc.integer({ min, max }), boundaryInts(min, max));
        break;
      }
      case 'number':
        arb = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer());
        break;
      case 'boolean':
        arb = fc.boolean();
        break;
      case 'array':
        arb = fc.array(fromSchema(schema.items, depth + 1), { maxLength: 4 });
        break;
      case 'object': {
        const props = Object.entries(schema.properties ?? {});
        arb =
          depth > 2 || props.length === 0
            ? fc.object({ maxDepth: 1 })
            : fc.record(Object.fromEntries(props.map(([k, s]) => [k, fromSchema(s, depth + 1)])), {
                requiredKeys: (schema.required ?? []).filter((k) => props.some(([name]) => name === k)),
              });
        break;
      }
      default:
        arb = fc.anything({ maxDepth: 1 });
    }
  }
  return schema.nullable ? fc.option(arb, { nil: null }) : arb;
}

// ---------- valid in the domain ----------

const DAY_MS = 86_400_000;
const minDay = Date.parse(`${MIN_DATE}T00:00:00Z`) / DAY_MS;
const maxDay = Date.parse(`${MAX_DATE}T00:00:00Z`) / DAY_MS;

export const validDate = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.integer({ min: minDay, max: maxDay }).map((d) => new Date(d * DAY_MS).toISOString().slice(0, 10)),
  },
  { weight: 1, arbitrary: fc.constantFrom(MIN_DATE, MAX_DATE, '2024-02-29', '2026-11-01') },
);
/** Money in a body: a JSON number. */
export const validAmount: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: 0, max: 1_000_000 }).map((c) => c / 100),
  fc.integer({ min: 0, max: MAX_CENTS }).map((c) => c / 100),
  fc.constantFrom(0, MAX_CENTS / 100, 0.01, 1, 10),
);
/** Money in a query string: decimal text (a number is written as text too). */
export const validAmountParam: fc.Arbitrary<number | string> = fc.oneof(
  validAmount,
  fc.integer({ min: 0, max: 1_000_000 }).map((c) => (c / 100).toFixed(2)),
  fc.constantFrom('999999999.99', '0.01', '10'),
);
export const validFlow = fc.constantFrom(
  'income',
  'expense',
  'internal',
  'INCOMING',
  'OUTGOING',
  'Income',
  ' expense ',
);
export const validCategory = fc.oneof(fc.constantFrom(...CATEGORIES), fc.constantFrom('utilities', 'No such category'));
export const validMethod = fc.tuple(fc.constantFrom(...PAYMENT_METHOD_CODES), fc.boolean()).map(([code, upper]) => {
  const [type = '', medium = ''] = code.split('|');
  return upper ? { type: type.toUpperCase(), medium: ` ${medium} ` } : { type, medium };
});
export const looseBool = fc.constantFrom<unknown>(true, false, 1, 0, 'true', 'false', '1', '0');
export const shortText = fc.string({ maxLength: 40 });

// ---------- hostile ----------

const controlChars = fc.string({
  unit: fc.integer({ min: 0, max: 31 }).map((c) => String.fromCharCode(c)),
  minLength: 1,
  maxLength: 8,
});

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'NaN',
    'Infinity',
    '-Infinity',
    'null',
    'undefined',
    'true',
    '1e309',
    '-1e309',
    '-0',
    '0x1F',
    '0b11',
    '1_000',
    '１２３',
    '١٢٣',
    '9007199254740993',
    '99999999999999999999',
    '-1',
    '0',
    '1.005',
    '1.999',
    '12.345',
    ' 12 ',
    '1,5',
    '2026-02-30',
    '2026-13-01',
    '2026-00-10',
    '0000-00-00',
    '1899-12-31',
    '2100-01-01',
    '2026-1-1',
    '2026-11-01T00:00:00Z',
    '+002026-01-01',
    '2023-02-29',
    "'; drop table users; --",
    '" or 1=1 --',
    '<script>alert(1)</script>',
    '=HYPERLINK("http://x")',
    '%00',
    '\u0000',
    '\u202e',
    '\ud800',
    '\uffff',
    '../../etc/passwd',
    ['$', '{jndi:ldap://x}'].join(''),
    '__proto__',
    'constructor',
    'bypass',
    'BYPASS',
    'all',
    'a'.repeat(101),
    'a'.repeat(501),
    'b'.repeat(1001),
    '🙂'.repeat(120),
    'e\u0301'.repeat(80),
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.tuple(fc.string({ maxLength: 5 }), controlChars, fc.string({ maxLength: 5 })).map(([a, b, c]) => a + b + c),
  fc.string({ minLength: 90, maxLength: 1_200 }),
);

export const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    -0.01,
    1.5,
    0.001,
    0.1 + 0.2,
    1e21,
    -1e21,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 2,
    2 ** 63,
    999_999_999.99,
    999_999_999.991,
    1_000_000_000,
    1e308,
    5e-324,
    Number.MIN_SAFE_INTEGER,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 3, arbitrary: nastyNumber },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], { $gt: '' }, [1, 2, 3]) },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2, maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.array(nastyString, { maxLength: 3 }) },
);

/** Fields the server owns (docs/api/README.md, General: never taken from the client) and prototype keys. */
export const EXTRA_KEYS = [
  'userId',
  'user_id',
  'ledgerId',
  'ledger_id',
  'invoiceId',
  'invoice_number',
  'balance',
  'status',
  'overpaid',
  'archived',
  'name',
  'paid_cents',
  'role',
  'roles',
  'password_hash',
  '__proto__',
  'constructor',
  'prototype',
  'id',
];

/** Raw JSON number tokens `JSON.stringify` can never write. */
export const RAW_NUMBER_TOKENS = ['1e400', '-1e400', '1e-400', '123456789012345678901234567890', '-0', '0.1e1', '1E2'];

export const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=latin1',
  'application/JSON',
  'application/vnd.api+json',
  'application/octet-stream',
];

/** Path parameter text, sent as is (some are deliberately broken percent-escapes). */
export const NASTY_PATH_PARAMS = [
  '-1',
  '0',
  '1.5',
  '1e3',
  '0x10',
  'abc',
  '9007199254740993',
  '9'.repeat(200),
  '%ZZ',
  '%',
  '%00',
  '%2F',
  '%20',
  '1%20',
  '%F0%9F%99%82',
  'null',
  'NaN',
  '__proto__',
  '%E0%A4%A',
];

export const RAW_QUERY_JUNK = ['&&=&', 'a[b]=c&a[]=1', '%=&x=%ZZ', '=1', 'x=%00', '&entryId', '__proto__[x]=1'];
