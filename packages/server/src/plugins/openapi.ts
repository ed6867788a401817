import { errorResponse } from '@billfold/contract/schemas';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** The error schema for each listed status, for a route's `response` map. */
export function errorResponses<C extends number>(...codes: C[]): Record<C, typeof errorResponse> {
  return Object.fromEntries(codes.map((code) => [code, errorResponse])) as Record<C, typeof errorResponse>;
}

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
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // The docs page may not be framed either (clickjacking), like every other page.
    transformStaticCSP: (header) => header.replace("frame-ancestors 'self'", "frame-ancestors 'none'"),
  });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
