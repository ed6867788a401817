import { healthResponse } from '@billfold/contract/health';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { send } from '../../plugins/errors.ts';
import { errorResponses } from '../../plugins/openapi.ts';

export function healthRoutes(app: FastifyInstance, db: Db): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/health',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness and database reachability',
        response: { 200: healthResponse, ...errorResponses(503) },
      },
    },
    async (request, reply) => {
      try {
        await sql`select 1`.execute(db);
        return { status: 'ok', db: 'ok' };
      } catch (err) {
        request.log.warn({ err }, 'health check: database unreachable');
        return reply.code(503).header('retry-after', '5').send(send(503, 'Database unreachable'));
      }
    },
  );
}
