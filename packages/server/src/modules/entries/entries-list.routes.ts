import { Readable } from 'node:stream';
import { entriesQuery, entryListResponse, exportQuery } from '@billfold/contract/schemas';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../plugins/openapi.ts';
import { CSV_CONTENT_TYPE } from './entries-export.ts';
import type { EntriesListService } from './entries-list.service.ts';

export function entriesListRoutes(app: FastifyInstance, service: EntriesListService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/entries',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['entries'],
        summary: 'Filtered, sorted page of invoices with the total count',
        description:
          'Pages are 0-based. Default order: date desc, then invoiceId desc; every order ends with invoiceId, so pages never overlap.',
        security: [{ bearer: [] }],
        querystring: entriesQuery,
        response: { 200: entryListResponse, ...errorResponses(400, 401) },
      },
    },
    async (request) => service.list(request.userId, request.query),
  );
  r.get(
    '/entries/export',
    {
      onRequest: app.authenticate,
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
      const csv = Readable.from(service.exportCsv(request.userId, request.query), { objectMode: false });
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
