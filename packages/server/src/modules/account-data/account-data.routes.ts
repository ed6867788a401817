import { Readable } from 'node:stream';
import { accountFile, accountFileV3, accountImportSummary } from '@billfold/contract/account-file';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { keepJsonBodyRaw } from '../../plugins/body.ts';
import { errorResponses } from '../../plugins/openapi.ts';
import type { AccountDataService } from './account-data.service.ts';
import { readAccountFile } from './account-file-parser.ts';

const security = [{ bearer: [] }];

/** `billfold-account-2026-11-23.json`, dated by the server's clock in UTC. */
export function accountFileName(now: number): string {
  return `billfold-account-${new Date(now).toISOString().slice(0, 10)}.json`;
}

/**
 * The account file (ADR 0901): both routes are heavy work (plugins/fairness.ts). The import's body is held to
 * `LIMIT_ACCOUNT_FILE_BYTES` (refused by `Content-Length` before it is read, or as soon as a chunked body passes
 * it) and reaches the handler as bytes, which `readAccountFile` parses and checks off the event loop and hands to
 * the import a part at a time; the schema below documents the body and is applied there. The export is written as
 * it is read, in pages, from a snapshot of the database (`AccountDataService.openExport`).
 */
export async function accountDataRoutes(
  app: FastifyInstance,
  service: AccountDataService,
  now: () => number,
  fileLimit: number,
): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('preParsing', app.heavyWork);
    keepJsonBodyRaw(scope);
    // Bodies arrive as bytes and are checked against `accountFile` by readAccountFile; the rest as everywhere.
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
          summary: "Download everything of the caller's account as one versioned JSON file",
          security,
          response: { 200: accountFileV3, ...errorResponses(401) },
        },
      },
      async (request, reply) => {
        const file = await service.openExport(request.ledger.id);
        // The schema documents the body; the stream is that body (the service writes it in the schema's order as
        // it reads it). A download broken off ends the export's read at once.
        const body = Readable.from(file.chunks, { objectMode: false });
        body.once('close', () => {
          file.close().catch((error: unknown) => request.log.warn({ err: error }, 'ending an account export failed'));
        });
        const untyped: FastifyReply = reply;
        return untyped
          .type('application/json; charset=utf-8')
          .header('content-disposition', `attachment; filename="${accountFileName(now())}"`)
          .send(body);
      },
    );
    r.post(
      '/account/import',
      {
        bodyLimit: fileLimit,
        // It replaces what the ledger holds: its owner's call (docs/decisions/0107-ledgers.md).
        config: { access: 'owner' },
        schema: {
          tags: ['user'],
          summary: 'Load an account file (any version) into the caller’s empty account, all or nothing',
          security,
          body: accountFile,
          response: { 200: accountImportSummary, ...errorResponses(400, 401, 409, 413) },
        },
      },
      async (request, reply) => {
        const raw: unknown = request.body;
        // A client gone before the answer stops the import, which then stores nothing.
        const gone = new AbortController();
        const closed = () => {
          if (!reply.raw.writableEnded) gone.abort();
        };
        reply.raw.once('close', closed);
        try {
          return await service.import(
            request.actor,
            readAccountFile(raw instanceof Uint8Array ? raw : new Uint8Array(0)),
            gone.signal,
          );
        } finally {
          reply.raw.off('close', closed);
        }
      },
    );
  });
}
