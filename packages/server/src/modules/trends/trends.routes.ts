import { trends, trendsQuery } from '@billfold/contract/trends';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/openapi.ts';
import type { TrendsService } from './trends.service.ts';

/** Trends over a whole ledger are heavy work like the stats (plugins/fairness.ts). */
export function trendsRoutes(app: FastifyInstance, service: TrendsService): void {
  void app.register(async (heavy) => {
    heavy.addHook('preParsing', app.heavyWork);
    heavy.withTypeProvider<ZodTypeProvider>().get(
      '/entries/trends',
      {
        schema: {
          tags: ['stats'],
          summary: 'Income, expenses and net per month, quarter or year, and per category, over the list filters',
          description:
            'Internal entries are left out unless flow=internal, when they count as expenses. Periods run from the first with a matching invoice to the last, without gaps.',
          security: [{ bearer: [] }],
          querystring: trendsQuery,
          response: { 200: trends, ...errorResponses(400, 401) },
        },
      },
      async (request, reply) => {
        const body = await service.trends(request.ledger, request.query);
        reply.header('server-timing', `ledger;desc=${service.answeredBy(request.ledger.id)}`);
        return body;
      },
    );
  });
}
