import type { ErrorCode } from '@billfold/contract/error-codes';
import {
  type CommitEvent,
  type ImportOptions,
  importList,
  importOptions,
  importPreview,
  importSummary,
} from '@billfold/contract/imports';
import { ownValue } from '@billfold/contract/own-keys';
import { idParams } from '@billfold/contract/primitives';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Limits } from '../../config.ts';
import { uploadedFileName } from '../../lib/file-names.ts';
import { badRequest, HttpError } from '../../lib/http-error.ts';
import { nextTurn } from '../../lib/turns.ts';
import { bodyTooLarge } from '../../plugins/body.ts';
import { errorResponses } from '../../plugins/openapi.ts';
import { setSecurityHeaders } from '../../plugins/security.ts';
import type { ImportsService } from './imports.service.ts';

const security = [{ bearer: [] }];
/** Room for the form's boundaries, headers and `mapping`/`keep` fields around the file. */
const FORM_OVERHEAD = 2 * 1024 * 1024;
const MALFORMED = 'The upload is not a valid multipart/form-data body.';
const NOT_MULTIPART = 'Upload the CSV file as multipart/form-data with a "file" field.';

/** The most bytes of the `mapping` or `keep` field. */
const FIELD_BYTES = 1024 * 1024;
const FORM_PARTS = 'The upload has too many parts: send one "file" and the optional "mapping" and "keep" fields.';

/** The form parser's refusals (@fastify/multipart's error codes), in words, with the contract's codes. */
const FORM_REFUSALS: Record<string, { message: string; code: ErrorCode }> = {
  FST_PARTS_LIMIT: { message: FORM_PARTS, code: 'VALIDATION_FAILED' },
  FST_FIELDS_LIMIT: { message: FORM_PARTS, code: 'VALIDATION_FAILED' },
  FST_FILES_LIMIT: { message: FORM_PARTS, code: 'VALIDATION_FAILED' },
  FST_PROTO_VIOLATION: { message: 'A form field may not be named __proto__ or constructor.', code: 'FORBIDDEN_KEY' },
  FST_INVALID_JSON_FIELD_ERROR: { message: 'A form field sent as JSON is not valid JSON.', code: 'MALFORMED_JSON' },
};

interface Upload {
  fileName: string;
  bytes: Uint8Array;
  options: ImportOptions;
}

/**
 * The multipart body: one `file` (its name under the file-name rule, lib/file-names.ts), and the optional `mapping`
 * and `keep` fields as JSON text.
 */
async function readUpload(request: FastifyRequest, limits: Limits): Promise<Upload> {
  if (!request.isMultipart()) throw badRequest(NOT_MULTIPART);
  let file: Upload | null = null;
  const fields: Record<string, unknown> = { mapping: null, keep: [] };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file) throw badRequest(NOT_MULTIPART);
        file = {
          fileName: part.filename || 'import.csv',
          bytes: await part.toBuffer(),
          options: { mapping: null, keep: [] },
        };
      } else if (part.fieldname === 'mapping' || part.fieldname === 'keep') {
        if (part.valueTruncated)
          throw new HttpError(
            413,
            `${part.fieldname} is longer than the limit of ${FIELD_BYTES / 1024 / 1024} MiB.`,
            {},
            'FIELD_TOO_LONG',
          );
        try {
          fields[part.fieldname] = JSON.parse(String(part.value));
        } catch {
          throw badRequest(`${part.fieldname} must be JSON.`, 'MALFORMED_JSON');
        }
      }
    }
  } catch (err) {
    // The file is counted while it streams in and refused at its first byte over the limit.
    const code = String((err as { code?: string }).code);
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw bodyTooLarge(limits.csvBytes, 'The file');
    const refusal = ownValue(FORM_REFUSALS, code);
    if (refusal) throw badRequest(refusal.message, refusal.code);
    const status = (err as { statusCode?: number }).statusCode;
    if (err instanceof HttpError || (status && status < 500)) throw err;
    // The form parser's own errors (a cut-off body, a wrong boundary) are the client's.
    throw badRequest(MALFORMED);
  }
  if (!file) throw badRequest(NOT_MULTIPART);
  // Stored with the import, listed and put in notifications: the rule attachments' names follow.
  const fileName = uploadedFileName(file.fileName);
  const options = importOptions.safeParse(fields);
  if (!options.success) {
    const issue = options.error.issues[0];
    throw badRequest(`${issue?.path.join('.')}: ${issue?.message}`, 'VALIDATION_FAILED');
  }
  return { ...file, fileName, options: options.data };
}

/**
 * CSV import. Only these routes accept multipart bodies (the plugin is registered in this scope alone). Both are
 * heavy work (plugins/fairness.ts); a body whose `Content-Length` is over the file limit plus the form's room is
 * refused before it is read (plugins/body.ts).
 */
export async function importsRoutes(app: FastifyInstance, service: ImportsService, limits: Limits): Promise<void> {
  const formLimit = limits.csvBytes + FORM_OVERHEAD;
  await app.register(async (scope) => {
    scope.addHook('preParsing', app.heavyWork);
    await scope.register(multipart, {
      limits: { fileSize: limits.csvBytes, files: 1, fields: 4, fieldSize: FIELD_BYTES },
    });
    const r = scope.withTypeProvider<ZodTypeProvider>();
    r.post(
      '/imports/preview',
      {
        bodyLimit: formLimit,
        schema: {
          tags: ['imports'],
          summary: 'Read a CSV file (multipart `file`, optional `mapping`) and report every row; writes nothing',
          security,
          consumes: ['multipart/form-data'],
          response: { 200: importPreview, ...errorResponses(400, 401, 413) },
        },
      },
      async (request) => {
        const upload = await readUpload(request, limits);
        return service.preview(request.ledger.id, upload.fileName, upload.bytes, upload.options);
      },
    );
    r.post(
      '/imports',
      {
        bodyLimit: formLimit,
        schema: {
          tags: ['imports'],
          summary:
            'Import a CSV file (multipart `file`, `mapping`, `keep`) in one transaction; answers NDJSON progress lines, then the result',
          security,
          consumes: ['multipart/form-data'],
          response: { ...errorResponses(400, 401, 413) },
        },
      },
      async (request, reply) => {
        const upload = await readUpload(request, limits);
        let streaming = false;
        const write = (event: CommitEvent) => reply.raw.write(`${JSON.stringify(event)}\n`);
        // Refusals before the first write answer as usual (a 4xx JSON body); from then on the answer is a stream.
        const start = () => {
          if (streaming) return;
          streaming = true;
          reply.hijack();
          setSecurityHeaders(request.raw, reply.raw);
          reply.raw.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8' });
        };
        let last = -1;
        try {
          const result = await service.commit(
            request.actor,
            upload.fileName,
            upload.bytes,
            upload.options,
            async (share) => {
              start();
              const percent = Math.floor(share * 100);
              if (percent > last) write({ progress: percent / 100 });
              last = Math.max(last, percent);
              // The writes run as one chain of promises: without a turn of the event loop the socket would send
              // every progress line at once, at the end (and other requests would wait for the whole commit).
              await nextTurn();
            },
          );
          start();
          write({ result });
          reply.raw.end();
        } catch (err) {
          if (!streaming) throw err;
          request.log.error({ err }, 'import failed after it started');
          write({ error: err instanceof HttpError ? err.message : 'The import failed; nothing was imported.' });
          reply.raw.end();
        }
      },
    );
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/imports',
    {
      schema: {
        tags: ['imports'],
        summary: 'The latest 50 CSV imports, newest first',
        security,
        response: { 200: importList, ...errorResponses(401) },
      },
    },
    async (request) => ({ imports: await service.list(request.ledger.id) }),
  );
  // Undoing recycles up to `LIMIT_IMPORT_ROWS` invoices: heavy work too, declared once for its group.
  await app.register(async (heavy) => {
    heavy.addHook('preParsing', app.heavyWork);
    heavy.withTypeProvider<ZodTypeProvider>().post(
      '/imports/:id/undo',
      {
        schema: {
          tags: ['imports'],
          summary: "Send one import's invoices (and the entities it created) to the recycle bin together",
          security,
          params: idParams,
          response: { 200: importSummary, ...errorResponses(400, 401, 404, 409) },
        },
      },
      async (request) => service.undo(request.actor, request.params.id),
    );
  });
}
