import { historyResponse } from '@billfold/contract/history';
import { idParams } from '@billfold/contract/primitives';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/openapi.ts';
import type { HistoryService } from './history.service.ts';
import type { HistoryKind } from './history-fields.ts';

const security = [{ bearer: [] }];

/** Each item's path and what the OpenAPI document calls it. */
const ROUTES: { kind: HistoryKind; path: string; tag: string; noun: string }[] = [
  { kind: 'entry', path: '/entries/:id/history', tag: 'entries', noun: 'an invoice' },
  { kind: 'bill', path: '/bills/:id/history', tag: 'bills', noun: 'an entity' },
  { kind: 'payment', path: '/payments/:id/history', tag: 'payments', noun: 'a payment' },
];

/** Who changed what: `GET /entries/{id}/history`, `/bills/{id}/history`, `/payments/{id}/history`. */
export function historyRoutes(app: FastifyInstance, service: HistoryService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const { kind, path, tag, noun } of ROUTES) {
    r.get(
      path,
      {
        schema: {
          tags: [tag],
          summary: `The change history of ${noun} (recycled ones too), oldest first: when, by whom, each field from and to`,
          security,
          params: idParams,
          response: { 200: historyResponse, ...errorResponses(400, 401, 404) },
        },
      },
      async (request) => ({ history: await service.list(request.ledger.id, kind, request.params.id) }),
    );
  }
}
