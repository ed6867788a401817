import { messageResponse } from '@billfold/contract/primitives';
import { deleteForeverParams, recycleListResponse, restoreBody } from '@billfold/contract/recycle';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/openapi.ts';
import type { RecycleService } from './recycle.service.ts';

const security = [{ bearer: [] }];

export function recycleRoutes(app: FastifyInstance, service: RecycleService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/recycle',
    {
      schema: {
        tags: ['recycle'],
        summary: 'Items deleted in the last 14 days, newest first',
        security,
        response: { 200: recycleListResponse, ...errorResponses(401) },
      },
    },
    async (request) => ({ recycleItems: await service.list(request.ledger.id) }),
  );
  r.post(
    '/recycle/restore',
    {
      schema: {
        tags: ['recycle'],
        summary: 'Restore an entity, invoice or payment (with what was deleted together with it)',
        security,
        body: restoreBody,
        response: { 200: messageResponse, ...errorResponses(400, 401, 404, 409, 413) },
      },
    },
    async (request) => service.restore(request.actor, request.body.entityType, request.body.entityId),
  );
  r.delete(
    '/recycle/:entityType/:entityId',
    {
      schema: {
        tags: ['recycle'],
        summary: 'Delete an item of the bin for good, before its purge date (with what was deleted together with it)',
        description:
          'An invoice goes with its payments, an entity with its invoices, their payments and its schedules; one transaction. 404 `NOT_FOUND` when the item is not in the caller’s bin.',
        security,
        params: deleteForeverParams,
        response: { 200: messageResponse, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.deleteForever(request.actor, request.params.entityType, request.params.entityId),
  );
}
