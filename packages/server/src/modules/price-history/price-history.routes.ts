import { priceHistory } from '@billfold/contract/price-history';
import { idParams } from '@billfold/contract/primitives';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/openapi.ts';
import type { PriceHistoryService } from './price-history.service.ts';

const security = [{ bearer: [] }];

export function priceHistoryRoutes(app: FastifyInstance, service: PriceHistoryService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/bills/:id/price-history',
    {
      schema: {
        tags: ['bills'],
        summary: 'Each live invoice of an entity over time, with its change vs the previous one and vs a year before',
        description:
          'Oldest first (date, then invoice number); recycled invoices are left out. `vsYearBefore` compares with the earlier invoice dated closest to the same day a year back, at most 31 days off. At most the latest 1000 invoices; `count` says how many there are.',
        security,
        params: idParams,
        response: { 200: priceHistory, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.history(request.ledger.id, request.params.id),
  );
}
