import { LEDGER_HEADER } from '@billfold/contract/ledgers';
import { errorResponse } from '@billfold/contract/primitives';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fastJson from 'fast-json-stringify';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** The error schema for each listed status, for a route's `response` map. */
export function errorResponses<C extends number>(...codes: C[]): Record<C, typeof errorResponse> {
  return Object.fromEntries(codes.map((code) => [code, errorResponse])) as Record<C, typeof errorResponse>;
}

/**
 * The app's response serializer (`setSerializerCompiler` in app.ts): each response schema compiled once, at
 * start-up, into a function that writes exactly the schema's properties, instead of checking every value
 * with zod and then calling `JSON.stringify` (65 µs instead of 230 µs for a list page of 100 entries; about a
 * millisecond less for an Entities page). The shape is checked when the server compiles: the zod type provider
 * types each handler's answer by its route's response schema. A record's own keys are written as they are,
 * where zod's parse would drop an entity named `__proto__` from the stats' top maps.
 */
export function compiledSerializer({ schema }: { schema: unknown }): (data: unknown) => string {
  return fastJson(serializerSchema(schema) as Parameters<typeof fastJson>[0]);
}

/** The JSON Schema `compiledSerializer` compiles for a zod response schema. */
export function serializerSchema(schema: unknown): unknown {
  return nullableTypes(z.toJSONSchema(schema as z.ZodType, { target: 'draft-7', io: 'output' }));
}

type JsonSchema = { [key: string]: unknown };

/**
 * zod writes a nullable field as `anyOf: [{ type: 'integer', … }, { type: 'null' }]`, which fast-json-stringify
 * answers by running a validator on every value to pick the branch: the forecast's 5,000 items took 25 ms to write
 * where `JSON.stringify` took 4 (test/serializer.test.ts). The same field as `type: ['integer', 'null']` is written
 * after a type test: 7 ms. Every such pair in the schema, at any depth, is rewritten so; any other `anyOf` stays.
 */
function nullableTypes(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullableTypes);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) out[key] = nullableTypes(value);
  const anyOf = out.anyOf;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return out;
  const isNull = (s: JsonSchema) => s.type === 'null' && Object.keys(s).length === 1;
  const [a, b] = anyOf as [JsonSchema, JsonSchema];
  const other = isNull(b) ? a : isNull(a) ? b : null;
  if (!other || typeof other.type !== 'string' || 'anyOf' in other || 'oneOf' in other || 'allOf' in other) return out;
  const { anyOf: _pair, ...rest } = out;
  return { ...rest, ...other, type: [other.type, 'null'] };
}

/** The `Billfold-Ledger` request header of every ledger route (docs/decisions/0107-ledgers.md), as JSON Schema. */
const LEDGER_HEADER_SCHEMA = {
  type: 'string',
  pattern: '^[1-9][0-9]{0,15}$',
  description:
    "The ledger the request reads or writes, by id (GET /api/v1/ledgers lists them); without it, the caller's personal ledger. A ledger the caller is not a member of answers 404.",
};

type Transform = typeof jsonSchemaTransform;

/** The zod transform, plus the ledger header on the routes of the ledger group (`routeGroups`, plugins/ledger.ts). */
const transform: Transform = (input) => {
  const out = jsonSchemaTransform(input);
  const schema = out.schema as { hide?: boolean; headers?: { properties?: object; required?: string[] } } | undefined;
  if (input.route.config?.routeGroup !== 'ledger' || schema === undefined || schema.hide) return out;
  const headers = schema.headers ?? {};
  schema.headers = {
    ...headers,
    type: 'object',
    properties: { ...headers.properties, [LEDGER_HEADER]: LEDGER_HEADER_SCHEMA },
  } as never;
  return out;
};

/** OpenAPI generated from the same zod schemas that validate requests; must be registered before the routes. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Billfold API',
        description:
          'Invoices, payments, entities, statistics and the recycle bin. Money is in dollars with at most 2 decimals.',
        version: '1.0.0',
      },
      servers: [{ url: '/' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // The docs page may not be framed either (clickjacking), like every other page.
    transformStaticCSP: (header) => header.replace("frame-ancestors 'self'", "frame-ancestors 'none'"),
  });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
