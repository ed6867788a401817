import {
  passwordResetBody,
  passwordResetRequestBody,
  passwordResetRequested,
  passwordResetResult,
} from '@billfold/contract/password-reset';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/openapi.ts';
import type { PasswordResetService } from './password-reset.service.ts';

/** A forgotten password: asking for a link and following it need no session (the open route group). */
export function passwordResetRoutes(app: FastifyInstance, service: PasswordResetService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/auth/password-reset',
    {
      schema: {
        tags: ['auth'],
        summary: 'Ask for a link to choose a new password, sent to the account’s confirmed address',
        description:
          'Answers 202 with the same message for any address (an account’s or not, confirmed or not). 409 `MAIL_NOT_CONFIGURED` when the server has no mail settings or no `PUBLIC_URL`; 429 with `Retry-After` after three per address or ten per client address in 15 minutes.',
        body: passwordResetRequestBody,
        response: { 202: passwordResetRequested, ...errorResponses(400, 409, 429) },
      },
    },
    async (request, reply) => reply.code(202).send(await service.request(request.body.email, request.ip)),
  );
  r.post(
    '/auth/password-reset/confirm',
    {
      schema: {
        tags: ['auth'],
        summary: 'Follow a password link: set the new password (once, within an hour); every session ends',
        description:
          '400 `RESET_LINK_INVALID` when the token is unknown, used, expired, replaced by a newer link or for an address the account no longer has; 400 `VALIDATION_FAILED` for a weak password. Two-factor sign-in stays on.',
        body: passwordResetBody,
        response: { 200: passwordResetResult, ...errorResponses(400) },
      },
    },
    async (request) => service.reset(request.body.token, request.body.newPassword),
  );
}
