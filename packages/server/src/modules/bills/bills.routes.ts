import {
  bill,
  billGetQuery,
  billListResponse,
  billOverviewList,
  billOverviewQuery,
  billsQuery,
  createBillBody,
  updateBillBody,
} from '@billfold/contract/bills';
import { idParams } from '@billfold/contract/primitives';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { runIntent } from '../../lib/intents.ts';
import { errorResponses } from '../../plugins/openapi.ts';
import type { BillsService } from './bills.service.ts';

const security = [{ bearer: [] }];

export function billsRoutes(app: FastifyInstance, service: BillsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/bills',
    {
      schema: {
        tags: ['bills'],
        summary: 'Entities sorted by name; no status → active and archived (never recycled)',
        security,
        querystring: billsQuery,
        response: { 200: billListResponse, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ billDTOList: await service.list(request.ledger.id, request.query) }),
  );
  r.get(
    '/bills/overview',
    {
      schema: {
        tags: ['bills'],
        summary:
          'The Entities page: a page of entities with open balances, next due date and schedules; searched, sorted, paged',
        security,
        querystring: billOverviewQuery,
        response: { 200: billOverviewList, ...errorResponses(400, 401) },
      },
    },
    async (request) => service.overview(request.ledger, request.query),
  );
  r.get(
    '/bills/:id',
    {
      schema: {
        tags: ['bills'],
        summary: 'One entity; a recycled one only with `bypass`',
        security,
        params: idParams,
        querystring: billGetQuery,
        response: { 200: bill, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.get(request.ledger.id, request.params.id, request.query.bypass !== undefined),
  );
  r.post(
    '/bills',
    {
      schema: {
        tags: ['bills'],
        summary: 'Create an entity; names are unique per ledger, case-insensitively',
        security,
        body: createBillBody,
        response: { 201: bill, ...errorResponses(400, 401, 409, 413) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(request.actor, request.body)),
  );
  r.put(
    '/bills',
    {
      schema: {
        tags: ['bills'],
        summary: 'Rename, recategorise, archive (status 0), unarchive (status 1), delete (recycle true), restore',
        security,
        body: updateBillBody,
        response: { 200: bill, ...errorResponses(400, 401, 404, 409, 413) },
      },
    },
    async (request) => runIntent(service, request.actor, request.body),
  );
}
