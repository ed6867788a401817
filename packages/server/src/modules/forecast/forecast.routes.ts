import { forecast, forecastBalance, forecastBalanceBody, forecastQuery } from '@billfold/contract/forecast';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/openapi.ts';
import type { ForecastService } from './forecast.service.ts';

const security = [{ bearer: [] }];

export function forecastRoutes(app: FastifyInstance, service: ForecastService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/forecast',
    {
      schema: {
        tags: ['forecast'],
        summary: 'Each day’s expected income, expenses and balance over the next 1 to 24 months',
        description:
          'From open invoices of active entities (what is still owed, by due date; overdue ones today) and the schedules’ pending occurrences (their amount, by due date), from the ledger’s starting balance (0 when none). `today` is the client’s date (default: the server’s UTC date).',
        security,
        querystring: forecastQuery,
        response: { 200: forecast, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const body = await service.forecast(request.ledger, request.query);
      reply.header('server-timing', `ledger;desc=${service.answeredBy(request.ledger.id)}`);
      return body;
    },
  );
  r.get(
    '/forecast/balance',
    {
      schema: {
        tags: ['forecast'],
        summary: 'The ledger’s starting balance for the forecast, or null',
        security,
        response: { 200: forecastBalance, ...errorResponses(401) },
      },
    },
    async (request) => service.startingBalance(request.ledger.id),
  );
  r.put(
    '/forecast/balance',
    {
      schema: {
        tags: ['forecast'],
        summary: 'Set the ledger’s starting balance for the forecast (below zero allowed), or null for none',
        security,
        body: forecastBalanceBody,
        response: { 200: forecastBalance, ...errorResponses(400, 401) },
      },
    },
    async (request) => service.setStartingBalance(request.actor, request.body.balance),
  );
}
