import { dueSummary, dueSummaryQuery } from '@billfold/contract/due';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/openapi.ts';
import type { DueService } from './due.service.ts';

export function dueRoutes(app: FastifyInstance, service: DueService): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/entries/due-summary',
    {
      schema: {
        tags: ['entries'],
        summary: 'Unpaid invoices of active entities: overdue, and due within 7 and 30 days',
        description:
          'Counts, what is still owed (to pay on expenses, to collect on income) and the first 5 invoices of each group by due date. `today` is the client’s date (default: the server’s UTC date); the 30-day group includes the 7-day one.',
        security: [{ bearer: [] }],
        querystring: dueSummaryQuery,
        response: { 200: dueSummary, ...errorResponses(400, 401) },
      },
    },
    async (request) => service.summary(request.ledger, request.query.today),
  );
}
