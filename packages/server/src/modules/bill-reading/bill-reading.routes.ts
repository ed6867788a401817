import { billReading, billReadingParams } from '@billfold/contract/bill-readings';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Limits } from '../../config.ts';
import { errorResponses } from '../../plugins/openapi.ts';
import { FORM_OVERHEAD, receiveFile } from '../attachments/attachments.upload.ts';
import type { BillReadingService } from './bill-reading.service.ts';

const security = [{ bearer: [] }];

/**
 * Reading a bill to start an invoice (docs/api/bill-readings.md): the file goes up as multipart `file` (the
 * attachment's limit), the answer is a reading to ask for until it is done.
 */
export async function billReadingRoutes(
  app: FastifyInstance,
  service: BillReadingService,
  limits: Limits,
): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: limits.attachmentBytes, files: 1, fields: 0, parts: 1 } });
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/bill-readings',
      {
        bodyLimit: limits.attachmentBytes + FORM_OVERHEAD,
        schema: {
          tags: ['bill-readings'],
          summary:
            "Read a bill (multipart `file`: PDF, PNG or JPEG) for a new invoice's amount, dates and entity; answers at once with a reading to poll",
          security,
          consumes: ['multipart/form-data'],
          response: { 202: billReading, ...errorResponses(400, 401, 404, 413, 429) },
        },
      },
      async (request, reply) => {
        // Refused before the body is read when the ledger or the server has no room for another reading.
        await service.checkRoom(request.actor.ledgerId);
        const file = await receiveFile(request, service.tempDir, limits.attachmentBytes);
        return reply.code(202).send(await service.start(request.actor, file));
      },
    );
  });
  app.withTypeProvider<ZodTypeProvider>().get(
    '/bill-readings/:readingId',
    {
      schema: {
        tags: ['bill-readings'],
        summary: 'A reading of a bill: its progress, then what was read',
        security,
        params: billReadingParams,
        response: { 200: billReading, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.get(request.ledger.id, request.params.readingId),
  );
}
