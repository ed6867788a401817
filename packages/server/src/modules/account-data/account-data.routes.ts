import { accountFile, accountFileV3, accountImportSummary } from '@billfold/contract/account-file';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { compiledSerializer, errorResponses } from '../../plugins/openapi.ts';
import type { AccountDataService } from './account-data.service.ts';

/** An account file of a large ledger is big: about 250 bytes per invoice or payment. */
export const ACCOUNT_FILE_LIMIT = 128 * 1024 * 1024;

const security = [{ bearer: [] }];

/** `billfold-account-2026-11-23.json`, dated by the server's clock in UTC. */
export function accountFileName(now: number): string {
  return `billfold-account-${new Date(now).toISOString().slice(0, 10)}.json`;
}

export function accountDataRoutes(app: FastifyInstance, service: AccountDataService, now: () => number): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/account/export',
    {
      onRequest: app.authenticate,
      serializerCompiler: compiledSerializer,
      schema: {
        tags: ['user'],
        summary: "Download everything of the caller's account as one versioned JSON file",
        security,
        response: { 200: accountFileV3, ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      reply.header('content-disposition', `attachment; filename="${accountFileName(now())}"`);
      return service.export(request.userId);
    },
  );
  r.post(
    '/account/import',
    {
      onRequest: app.authenticate,
      bodyLimit: ACCOUNT_FILE_LIMIT,
      schema: {
        tags: ['user'],
        summary: 'Load an account file (any version) into the caller’s empty account, all or nothing',
        security,
        body: accountFile,
        response: { 200: accountImportSummary, ...errorResponses(400, 401, 409, 413) },
      },
    },
    async (request) => service.import(request.userId, request.body),
  );
}
