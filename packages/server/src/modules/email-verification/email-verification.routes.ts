import { emailStatus, verifyEmailBody, verifyEmailResult } from '@billfold/contract/email-verification';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/openapi.ts';
import type { EmailVerificationService } from './email-verification.service.ts';

const security = [{ bearer: [] }];

export function emailVerificationRoutes(
  app: FastifyInstance,
  service: EmailVerificationService,
  appUrl: (request: { protocol: string; host: string }) => string,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/account/email',
    {
      schema: {
        tags: ['user'],
        summary: "The account's address: whether it is verified, and when the latest link was sent",
        security,
        response: { 200: emailStatus, ...errorResponses(401) },
      },
    },
    async (request) => service.status(request.userId),
  );
  r.post(
    '/account/email/verification',
    {
      schema: {
        tags: ['user'],
        summary: 'Send a new verification link to the account’s address',
        description:
          '409 when the address is verified already or the server cannot send mail (`MAIL_NOT_CONFIGURED`); 429 with `Retry-After` after three in 15 minutes.',
        security,
        response: { 202: emailStatus, ...errorResponses(401, 409, 429) },
      },
    },
    async (request, reply) => reply.code(202).send(await service.sendAgain(request.userId, appUrl(request))),
  );
}

/** Following a verification link needs no session (the open route group). */
export function emailVerifyRoutes(app: FastifyInstance, service: EmailVerificationService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/account/email/verify',
    {
      schema: {
        tags: ['user'],
        summary: 'Follow a verification link: its token marks the address verified (once, within 24 hours)',
        description:
          'Needs no session: the link may be opened anywhere. 400 `EMAIL_LINK_INVALID` when the token is unknown, used, expired or for an address the account no longer has.',
        body: verifyEmailBody,
        response: { 200: verifyEmailResult, ...errorResponses(400) },
      },
    },
    async (request) => service.verify(request.body.token),
  );
}
