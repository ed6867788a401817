import { updateUserBody, user, userQuery } from '@billfold/contract/users';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/openapi.ts';
import type { UsersService } from './users.service.ts';

export function usersRoutes(
  app: FastifyInstance,
  service: UsersService,
  appUrl: (request: { protocol: string; host: string }) => string,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/user',
    {
      schema: {
        tags: ['user'],
        summary: "The caller's own account",
        security: [{ bearer: [] }],
        querystring: userQuery,
        response: { 200: user, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => service.get(request.userId, request.query.userName),
  );
  r.put(
    '/user',
    {
      schema: {
        tags: ['user'],
        summary: 'Change email or password, turn MFA off (with a code), or deactivate; needs the current password',
        description:
          'A new email address is unverified until the link mailed to it is followed (`GET /account/email`). A new password or deactivation ends every session and the calendar feed. 429 with `Retry-After` after ten address changes in 15 minutes.',
        security: [{ bearer: [] }],
        body: updateUserBody,
        response: { 200: user, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request) => service.update(request.userId, request.body, request.ip, appUrl(request)),
  );
}
