import { Readable } from 'node:stream';
import { accountFile, accountFileV6, accountImportSummary } from '@billfold/contract/account-file';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Limits } from '../../config.ts';
import { errorResponses } from '../../plugins/openapi.ts';
import type { AccountDataService } from './account-data.service.ts';

const security = [{ bearer: [] }];

/**
 * `billfold-account-2026-11-23.json`, or `.tar` for the ledger archive (a ledger with attached files), dated by the
 * server's clock in UTC.
 */
export function accountFileName(now: number, kind: 'json' | 'tar' = 'json'): string {
  return `billfold-account-${new Date(now).toISOString().slice(0, 10)}.${kind}`;
}

/**
 * The header room of a ledger archive beside its JSON and files, for the `Content-Length` check before the body is
 * read: a 512-byte header and at most 511 bytes of padding per file, for 32,768 files. The real limits are held as
 * the body streams in (the JSON's, each file's and the quota: `ledger-archive.ts`).
 */
const ARCHIVE_ROOM = 32 * 1024 * 1024;

/** The bodies of this scope's requests, as they stream in; Fastify parses none of them. */
const uploads = new WeakMap<FastifyRequest, AsyncIterable<Uint8Array>>();
/** A request without a body (Fastify parses none): an empty file. */
const NO_BODY: AsyncIterable<Uint8Array> = { async *[Symbol.asyncIterator]() {} };

/**
 * The ledger file (ADR 0901, ADR 1160): both routes are heavy work (plugins/fairness.ts). The import's body reaches
 * the handler as the stream it is, whatever its content type, and is told by its first bytes: the ledger archive
 * (a tar, read as it arrives: `AccountDataService.importUpload`) or plain JSON, held to `LIMIT_ACCOUNT_FILE_BYTES`
 * (as soon as a body passes it) and parsed and checked off the event loop by `readAccountFile`, which hands it to
 * the import a part at a time; the schema below documents the JSON and is applied there. A `Content-Length` over
 * the largest archive the limits allow is refused before a byte is read. The export is written as it is read, in
 * pages, from a snapshot of the database (`AccountDataService.openExport`).
 */
export async function accountDataRoutes(
  app: FastifyInstance,
  service: AccountDataService,
  now: () => number,
  limits: Pick<Limits, 'accountFileBytes' | 'ledgerAttachmentBytes'>,
): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('preParsing', app.heavyWork);
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (request, payload, done) => {
      uploads.set(request, payload);
      done(null, undefined);
    });
    // Bodies arrive as a stream and are checked against `accountFile` by the import; the rest as everywhere.
    scope.setValidatorCompiler((route) =>
      route.httpPart === 'body'
        ? (data: unknown) => ({ value: data })
        : validatorCompiler(route as Parameters<typeof validatorCompiler>[0]),
    );
    const r = scope.withTypeProvider<ZodTypeProvider>();
    r.get(
      '/account/export',
      {
        schema: {
          tags: ['user'],
          summary:
            "Download everything of the request's ledger as one versioned JSON file, or as a tar of that JSON " +
            '(`ledger.json`) and the attached files (`files/<sha256>`) when it has any',
          security,
          produces: ['application/json', 'application/x-tar'],
          response: { 200: accountFileV6, ...errorResponses(401) },
        },
      },
      async (request, reply) => {
        const file = await service.openExport(request.ledger.id);
        if (file.lost.length > 0)
          request.log.warn({ lost: file.lost }, 'the ledger file leaves out attachments whose files the store lacks');
        // The schema documents the JSON; the stream is that body, or the archive around it (the service writes it in
        // the schema's order as it reads it). A download broken off ends the export's read at once; a failure after
        // the first byte (a stored file that is not what its key says) breaks the download off.
        const body = Readable.from(file.chunks, { objectMode: false });
        body.once('error', (error) => request.log.error({ err: error }, 'a ledger file export broke off'));
        body.once('close', () => {
          file.close().catch((error: unknown) => request.log.warn({ err: error }, 'ending an account export failed'));
        });
        const untyped: FastifyReply = reply;
        return untyped
          .type(file.kind === 'tar' ? 'application/x-tar' : 'application/json; charset=utf-8')
          .header('content-disposition', `attachment; filename="${accountFileName(now(), file.kind)}"`)
          .send(body);
      },
    );
    r.post(
      '/account/import',
      {
        bodyLimit: limits.accountFileBytes + limits.ledgerAttachmentBytes + ARCHIVE_ROOM,
        // It replaces what the ledger holds: its owner's call (docs/decisions/0107-ledgers.md).
        config: { access: 'owner' },
        schema: {
          tags: ['user'],
          summary:
            'Load a ledger file (JSON of any version, or the tar archive with its files) into the request’s empty ' +
            'ledger, all or nothing',
          security,
          consumes: ['application/json', 'application/x-tar'],
          body: accountFile,
          response: { 200: accountImportSummary, ...errorResponses(400, 401, 409, 413) },
        },
      },
      async (request, reply) => {
        // A client gone before the answer stops the import, which then stores nothing.
        const gone = new AbortController();
        const closed = () => {
          if (!reply.raw.writableEnded) gone.abort();
        };
        reply.raw.once('close', closed);
        try {
          return await service.importUpload(request.actor, uploads.get(request) ?? NO_BODY, gone.signal);
        } finally {
          reply.raw.off('close', closed);
        }
      },
    );
  });
}
