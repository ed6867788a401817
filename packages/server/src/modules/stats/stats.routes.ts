import { statsQuery } from '@billfold/contract/entries';
import { stats } from '@billfold/contract/stats';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/openapi.ts';
import type { StatsService } from './stats.service.ts';

/** Stats over a whole ledger are heavy work (plugins/fairness.ts): the route's group counts against the user's share. */
export function statsRoutes(app: FastifyInstance, service: StatsService): void {
  void app.register(async (heavy) => {
    heavy.addHook('preParsing', app.heavyWork);
    statsRoute(heavy, service);
  });
}

function statsRoute(app: FastifyInstance, service: StatsService): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/entries/stats',
    {
      schema: {
        tags: ['stats'],
        summary: 'Income and expense statistics over the invoices matching the list filters',
        description:
          'Internal entries are left out unless flow=internal, when they count as expenses. Top maps hold at most 5 names, largest first, ties by name.',
        security: [{ bearer: [] }],
        querystring: statsQuery,
        response: { 200: stats, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const body = await service.stats(request.ledger, request.query);
      // Whether the user's ledger index or SQL answered (docs/decisions/0405-ledger-index.md).
      reply.header('server-timing', `ledger;desc=${service.answeredBy(request.ledger.id)}`);
      return body;
    },
  );
}
