import { healthResponse } from '@billfold/contract/health';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { send } from '../../plugins/errors.ts';
import { errorResponses } from '../../plugins/openapi.ts';

/** `probe` answers whether the database is reachable (db/database.ts, `databaseProbe`). */
export function healthRoutes(app: FastifyInstance, probe: () => Promise<void>): void {
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
        await probe();
        return { status: 'ok', db: 'ok' };
      } catch (err) {
        request.log.warn({ err }, 'health check: database unreachable');
        return reply.code(503).header('retry-after', '5').send(send(503, 'Database unreachable'));
      }
    },
  );
}
