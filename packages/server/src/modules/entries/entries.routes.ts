import { createEntryBody, entry, entryGetQuery, updateEntryBody } from '@billfold/contract/entries';
import { idParams } from '@billfold/contract/primitives';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { runIntent } from '../../lib/intents.ts';
import { errorResponses } from '../../plugins/openapi.ts';
import type { EntriesService } from './entries.service.ts';

const security = [{ bearer: [] }];

/** `filter=bypass` (any case) also shows a recycled invoice. */
function isBypass(filter: string | undefined): boolean {
  return filter?.trim().toLowerCase() === 'bypass';
}

/** One invoice, create and edit; the list, stats and export live in their own route files. */
export function entriesRoutes(app: FastifyInstance, service: EntriesService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/entries/:id',
    {
      schema: {
        tags: ['entries'],
        summary: 'One invoice (also of an archived entity); a recycled one only with `filter=bypass`',
        security,
        params: idParams,
        querystring: entryGetQuery,
        response: { 200: entry, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.get(request.ledger.id, request.params.id, isBypass(request.query.filter)),
  );
  r.post(
    '/entries/new',
    {
      schema: {
        tags: ['entries'],
        summary: 'Create an invoice; the server assigns its invoice number',
        security,
        body: createEntryBody,
        response: { 201: entry, ...errorResponses(400, 401, 404, 409, 413) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(request.actor, request.body)),
  );
  r.put(
    '/entries/edit',
    {
      schema: {
        tags: ['entries'],
        summary: 'Edit, move, delete (recycle true, with its payments) or restore (recycle false) an invoice',
        security,
        querystring: entryGetQuery,
        body: updateEntryBody,
        response: { 200: entry, ...errorResponses(400, 401, 404, 409, 413) },
      },
    },
    async (request) => runIntent(service, request.actor, request.body),
  );
}
