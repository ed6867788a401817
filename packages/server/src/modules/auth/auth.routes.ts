import {
  authResponse,
  createUserBody,
  createUserResponse,
  loginBody,
  loginResponse,
  mfaLoginBody,
  refreshBody,
  refreshQuery,
} from '@billfold/contract/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { badRequest } from '../../lib/http-error.ts';
import { errorResponses } from '../../plugins/openapi.ts';
import type { AuthService } from './auth.service.ts';

export function authRoutes(
  app: FastifyInstance,
  service: AuthService,
  appUrl: (request: { protocol: string; host: string }) => string,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/auth/create',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create an account',
        description:
          'A taken username is 409 `Username already exists`. A taken email address is answered exactly like a new account (201), so sign-up never reveals whether an address has an account; no account is made, and the address’s owner is told by mail. A new account’s address is sent a verification link.',
        body: createUserBody,
        response: { 201: createUserResponse, ...errorResponses(400, 409, 413, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(request.body, request.ip, appUrl(request))),
  );
  r.post(
    '/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with username or email; an account with MFA gets a challenge for the code step',
        body: loginBody,
        response: { 200: loginResponse, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => service.login(request.body, request.ip),
  );
  r.post(
    '/auth/login/mfa',
    {
      schema: {
        tags: ['auth'],
        summary: "Sign-in's code step: the challenge and a TOTP or recovery code, for the tokens",
        body: mfaLoginBody,
        response: { 200: authResponse, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => service.completeMfaLogin(request.body, request.ip),
  );
  r.post(
    '/auth/refresh',
    {
      schema: {
        tags: ['auth'],
        summary: 'Exchange a refresh token for new tokens (rotation)',
        querystring: refreshQuery,
        body: refreshBody,
        response: { 200: authResponse, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => {
      const token = request.query.refreshToken ?? request.body?.refreshToken;
      if (!token) throw badRequest('refreshToken is required');
      return service.refresh(token, request.ip);
    },
  );
}
