import { attachment, attachmentList } from '@billfold/contract/attachments';
import { idParams } from '@billfold/contract/primitives';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Limits } from '../../config.ts';
import { HttpError } from '../../lib/http-error.ts';
import { errorResponses } from '../../plugins/openapi.ts';
import { ATTACHMENT_MESSAGES } from './attachments.messages.ts';
import type { AttachmentOwner } from './attachments.repository.ts';
import type { AttachmentsService } from './attachments.service.ts';
import { FORM_OVERHEAD, receiveFile } from './attachments.upload.ts';
import { EXTENSIONS } from './file-types.ts';
import { contentDisposition, parseRange } from './http-bytes.ts';

const security = [{ bearer: [] }];
const downloadQuery = z.object({ download: z.enum(['1', 'true']).optional() });

/**
 * Files attached to invoices and payments (docs/api/attachments.md). The upload routes are the only ones besides the
 * CSV import that take multipart bodies (the plugin is registered in their scope alone); the body's
 * `Content-Length` is held to the file limit plus the form's room before a byte is read (plugins/body.ts).
 */
export async function attachmentsRoutes(
  app: FastifyInstance,
  service: AttachmentsService,
  limits: Limits,
): Promise<void> {
  const fileBytes = z.string().describe("The file's bytes, in the file's own content type");
  const owners: Array<{ path: string; tag: string; what: string; owner: (id: number) => AttachmentOwner }> = [
    { path: '/entries/:id/attachments', tag: 'entries', what: 'an invoice', owner: (id) => ({ entryId: id }) },
    { path: '/payments/:id/attachments', tag: 'payments', what: 'a payment', owner: (id) => ({ paymentId: id }) },
  ];
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: limits.attachmentBytes, files: 1, fields: 0, parts: 1 } });
    const r = scope.withTypeProvider<ZodTypeProvider>();
    for (const { path, tag, what, owner } of owners) {
      r.post(
        path,
        {
          bodyLimit: limits.attachmentBytes + FORM_OVERHEAD,
          schema: {
            tags: [tag, 'attachments'],
            summary: `Attach a file (multipart \`file\`: PDF, PNG, JPEG, WebP or HEIC) to ${what}`,
            security,
            params: idParams,
            consumes: ['multipart/form-data'],
            response: { 201: attachment, ...errorResponses(400, 401, 404, 409, 413) },
          },
        },
        async (request, reply) => {
          const target = owner(request.params.id);
          // Refused before the body is read when the item is not there or the file cannot fit the ledger's room.
          const length = Number(request.headers['content-length']) || 0;
          await service.precheck(request.actor, target, Math.max(0, length - FORM_OVERHEAD));
          const file = await receiveFile(request, service.tempDir, limits.attachmentBytes);
          return reply.code(201).send(await service.attach(request.actor, target, file));
        },
      );
    }
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const { path, tag, what, owner } of owners) {
    r.get(
      path,
      {
        schema: {
          tags: [tag, 'attachments'],
          summary: `The files attached to ${what}, oldest first, and the ledger's used and allowed bytes`,
          security,
          params: idParams,
          response: { 200: attachmentList, ...errorResponses(400, 401, 404) },
        },
      },
      async (request) => service.list(request.ledger.id, owner(request.params.id)),
    );
  }
  r.get(
    '/attachments/:id',
    {
      schema: {
        tags: ['attachments'],
        summary: 'The bytes of an attached file (one `Range` honoured); `?download=1` asks the browser to save it',
        security,
        params: idParams,
        querystring: downloadQuery,
        // Bytes, never serialised (a stream is sent as it is); the schema documents the success for OpenAPI.
        response: { 200: fileBytes, 206: fileBytes, ...errorResponses(400, 401, 404, 416) },
      },
    },
    async (request, reply) => {
      const found = await service.get(request.ledger.id, request.params.id);
      const range = parseRange(request.headers.range, found.size);
      if (range === 'unsatisfiable') {
        reply.header('content-range', `bytes */${found.size}`);
        throw new HttpError(416, ATTACHMENT_MESSAGES.rangeNotSatisfiable);
      }
      const stream = await service.read(found.key, range ?? undefined);
      const disposition = request.query.download ? 'attachment' : 'inline';
      reply
        .header('content-type', found.contentType)
        .header('content-disposition', contentDisposition(disposition, found.fileName, EXTENSIONS[found.contentType]))
        .header('x-content-type-options', 'nosniff')
        .header('accept-ranges', 'bytes')
        .header('cache-control', 'private, no-cache')
        .header('etag', `"${found.key}"`);
      return sendBytes(reply, stream, found.size, range);
    },
  );
  r.get(
    '/attachments/:id/thumbnail',
    {
      schema: {
        tags: ['attachments'],
        summary:
          "A small picture of the file: an image's own, scaled (PNG), else a generic sheet naming its type (SVG)",
        security,
        params: idParams,
        response: { 200: fileBytes, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const thumbnail = await service.thumbnail(request.ledger.id, request.params.id);
      const raw: FastifyReply = reply;
      return raw
        .header('content-type', thumbnail.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=3600')
        .send(thumbnail.body);
    },
  );
  r.delete(
    '/attachments/:id',
    {
      schema: {
        tags: ['attachments'],
        summary: 'Remove an attached file for good',
        security,
        params: idParams,
        response: { 204: z.null(), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await service.remove(request.actor, request.params.id);
      return reply.code(204).send(null);
    },
  );
}

function sendBytes(
  reply: FastifyReply,
  stream: NodeJS.ReadableStream,
  size: number,
  range: { start: number; end: number } | null,
): FastifyReply {
  if (!range) return reply.header('content-length', size).send(stream);
  return reply
    .code(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
    .header('content-length', range.end - range.start + 1)
    .send(stream);
}
