import { idParams, messageResponse } from '@billfold/contract/primitives';
import { createdToken, createTokenBody, tokenList } from '@billfold/contract/tokens';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/openapi.ts';
import type { TokensService } from './tokens.service.ts';

/** The signed-in user's API tokens; a session only: no token manages tokens (docs/decisions/0721-api-tokens.md). */
export function tokensRoutes(app: FastifyInstance, service: TokensService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const common = { config: { sessionOnly: true } } as const;
  const tags = ['tokens'];
  const security = [{ bearer: [] }];
  r.get(
    '/tokens',
    {
      ...common,
      schema: {
        tags,
        security,
        summary: 'Your API tokens, newest first, with their last use (never their secrets)',
        response: { 200: tokenList, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({ tokens: await service.list(request.userId) }),
  );
  r.post(
    '/tokens',
    {
      ...common,
      schema: {
        tags,
        security,
        summary: 'Make an API token: the answer holds its secret, shown this once',
        description:
          'Send it as `Authorization: Bearer bf_…`. `read` allows GET and HEAD only (403 `TOKEN_READ_ONLY` otherwise); `read-write` every data call. With `ledgerId` (a ledger you are a member of; 404 otherwise) the token works in that ledger only and uses it without the `Billfold-Ledger` header. `expiresOn` is its last day (UTC). 409 `TOO_MANY_TOKENS` past 50.',
        body: createTokenBody,
        response: { 201: createdToken, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(request.userId, request.body)),
  );
  r.delete(
    '/tokens/:id',
    {
      ...common,
      schema: {
        tags,
        security,
        summary: 'Revoke an API token: it stops working at once',
        params: idParams,
        response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await service.revoke(request.userId, request.params.id);
      return { message: 'Token revoked.' };
    },
  );
}
