import { Readable } from 'node:stream';
import { entriesQuery, entryListResponse, exportQuery } from '@billfold/contract/entries';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { listCache } from '../../plugins/list-cache.ts';
import { compiledSerializer, errorResponses } from '../../plugins/openapi.ts';
import { CSV_CONTENT_TYPE } from './entries-export.ts';
import type { EntriesListService } from './entries-list.service.ts';

const serializeList = compiledSerializer({ schema: entryListResponse });

export function entriesListRoutes(
  app: FastifyInstance,
  service: EntriesListService,
  cache: ReturnType<typeof listCache>,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/entries',
    {
      // Lists are read far more often than written (every visit, tab switch and refetch asks again): each page
      // is kept serialized until the ledger's next write (ADR 0403).
      onRequest: cache.lookup,
      onSend: cache.store,
      schema: {
        tags: ['entries'],
        summary: 'Filtered, sorted page of invoices with the total count',
        description:
          'Pages are 0-based. Default order: date desc, then invoiceId desc; every order ends with invoiceId, so pages never overlap. Repeated requests are answered from a cache that every write of the user empties; `Cache-Control: no-cache` skips it.',
        security: [{ bearer: [] }],
        querystring: entriesQuery,
        response: { 200: entryListResponse, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const body = serializeList(await service.list(request.ledger, request.query));
      // The schema documents the body; the bytes are that body, serialized by the same compiled serializer.
      const untyped: FastifyReply = reply;
      return untyped.type('application/json; charset=utf-8').send(body);
    },
  );
  // The export is heavy work (plugins/fairness.ts): declared once for its group.
  void app.register(async (heavy) => {
    heavy.addHook('preParsing', app.heavyWork);
    exportRoute(heavy, service);
  });
}

function exportRoute(app: FastifyInstance, service: EntriesListService): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/entries/export',
    {
      schema: {
        tags: ['entries'],
        summary: 'CSV download of every invoice matching the list filters, in list order (streamed)',
        security: [{ bearer: [] }],
        querystring: exportQuery,
        response: {
          200: {
            description: 'RFC 4180 CSV with a header row, sent as an attachment',
            content: { 'text/csv': { schema: z.string() } },
          },
          ...errorResponses(400, 401),
        },
      },
    },
    async (request, reply) => {
      const csv = Readable.from(service.exportCsv(request.ledger, request.query), { objectMode: false });
      // The schema documents the body as text; the stream is that text, sent as it is produced.
      const untyped: FastifyReply = reply;
      return untyped
        .header('content-type', CSV_CONTENT_TYPE)
        .header('content-disposition', `attachment; filename="${service.exportFileName()}"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );
}
