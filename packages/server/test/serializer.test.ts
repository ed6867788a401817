import { forecast } from '@billfold/contract/forecast';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compiledSerializer, serializerSchema } from '../src/plugins/openapi.ts';

/**
 * The app's response serializer (plugins/openapi.ts): a nullable field is compiled as a type pair, never as an
 * `anyOf` that fast-json-stringify would answer by validating every value (the forecast's thousands of items took six
 * times as long), and what it writes is what `JSON.stringify` writes of the same answer.
 */

/** Every `anyOf` in a JSON Schema, at any depth. */
function anyOfs(schema: unknown): unknown[] {
  if (Array.isArray(schema)) return schema.flatMap(anyOfs);
  if (typeof schema !== 'object' || schema === null) return [];
  const own = 'anyOf' in schema ? [schema.anyOf] : [];
  return [...own, ...Object.values(schema).flatMap(anyOfs)];
}

const row = z.object({
  id: z.number().int(),
  note: z.string().nullable(),
  amount: z.number().nullable(),
  due: z.object({ date: z.string(), days: z.number().int() }).nullable(),
  tags: z.array(z.string().nullable()),
  either: z.union([z.object({ text: z.string() }), z.object({ count: z.number().int() })]),
});

describe('the compiled response serializer', () => {
  it('compiles the nullable fields of the forecast, of any depth, without an anyOf', () => {
    const raw = JSON.stringify(z.toJSONSchema(forecast, { target: 'draft-7', io: 'output' }));
    expect(raw).toContain('"anyOf"');
    expect(anyOfs(serializerSchema(forecast))).toEqual([]);
    // A union of two shapes, neither of them null, stays a union.
    expect(anyOfs(serializerSchema(row))).toHaveLength(1);
  });

  it('writes what JSON.stringify writes, nulls or not', () => {
    const serialize = compiledSerializer({ schema: z.array(row) });
    const value = fc.record({
      id: fc.integer(),
      note: fc.option(fc.string(), { nil: null }),
      amount: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null }),
      due: fc.option(fc.record({ date: fc.string(), days: fc.integer() }), { nil: null }),
      tags: fc.array(fc.option(fc.string(), { nil: null })),
      either: fc.oneof(fc.record({ text: fc.string() }), fc.record({ count: fc.integer() })),
    });
    fc.assert(
      fc.property(fc.array(value), (rows) => {
        expect(serialize(rows)).toBe(JSON.stringify(rows));
      }),
    );
  });
});
