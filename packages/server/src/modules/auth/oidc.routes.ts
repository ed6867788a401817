import { loginResponse } from '@billfold/contract/auth';
import { oidcExchangeBody, oidcLink, oidcLinkBody, oidcLinkStart, signInMethods } from '@billfold/contract/oidc';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../plugins/openapi.ts';
import type { OidcService } from './oidc.service.ts';
import { OIDC_COOKIE, readCookie } from './oidc-state.ts';

/** The callback's query as the provider sends it; the library checks it, this only bounds its size. */
const callbackQuery = z.object({
  code: z.string().max(2048).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
  iss: z.string().max(2048).optional(),
});
const redirect = z.null().describe('A redirect: `Location` says where');

/** Sign-in with the identity provider and the account's link to it (docs/decisions/0722-openid-connect-sign-in.md). */
export function oidcRoutes(app: FastifyInstance, service: OidcService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/auth/methods',
    {
      schema: {
        tags: ['auth'],
        summary: 'The ways to sign in this server offers: password, and the identity provider by name',
        response: { 200: signInMethods },
      },
    },
    async () => service.methods(),
  );
  r.get(
    '/auth/oidc/start',
    {
      schema: {
        tags: ['auth'],
        summary: 'Leave for the identity provider to sign in (a browser navigation, not a call)',
        description:
          '302 to the provider’s authorization endpoint (code flow with PKCE), with a signed, ten-minute cookie holding the state, nonce and PKCE verifier. 404 `OIDC_NOT_CONFIGURED` without a provider.',
        response: { 302: redirect, ...errorResponses(404) },
      },
    },
    async (_request, reply) => {
      const { url, cookie } = await service.start({ login: true });
      return reply.header('set-cookie', cookie).redirect(url, 302);
    },
  );
  r.get(
    '/auth/oidc/callback',
    {
      schema: {
        tags: ['auth'],
        summary: 'Where the identity provider sends the browser back (register this address at the provider)',
        description:
          '302 into the web app: `/login/oidc#ticket=…` (a one-time ticket for `POST /auth/oidc/exchange`) or `/login/oidc#error=<code>`; after linking, `/account#oidc=linked` or `/account#oidc=<code>`.',
        querystring: callbackQuery,
        response: { 302: redirect, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const url = new URL(request.url, 'http://callback.invalid');
      const location = await service.callback(url, readCookie(request.headers.cookie, OIDC_COOKIE));
      return reply.header('set-cookie', service.clearCookie()).redirect(location, 302);
    },
  );
  r.post(
    '/auth/oidc/exchange',
    {
      schema: {
        tags: ['auth'],
        summary: 'Exchange the one-time ticket of a provider sign-in for tokens (or, with MFA on, the code step)',
        description:
          'The ticket works once, within a minute. An account with MFA on answers `{mfaRequired, challenge}` as `POST /auth/login` does. 401 `SIGN_IN_TICKET_INVALID`.',
        body: oidcExchangeBody,
        response: { 200: loginResponse, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => service.exchange(request.body.ticket),
  );
}

/** The account's link to the provider: signed-in routes (the account group, plugins/ledger.ts). */
export function oidcAccountRoutes(app: FastifyInstance, service: OidcService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const account = { config: { sessionOnly: true } } as const;
  const security = [{ bearer: [] }];
  r.get(
    '/account/oidc',
    {
      ...account,
      schema: {
        tags: ['user'],
        security,
        summary: 'The identity provider, and whether this account is linked to it',
        response: { 200: oidcLink, ...errorResponses(401, 403) },
      },
    },
    async (request) => service.linkStatus(request.userId),
  );
  r.post(
    '/account/oidc/link',
    {
      ...account,
      schema: {
        tags: ['user'],
        security,
        summary: 'Start linking this account to the identity provider; needs the current password',
        description:
          'Answers the provider address the browser goes to next, with the signed state cookie; the callback then ends on `/account#oidc=linked`. 403 wrong password; 404 `OIDC_NOT_CONFIGURED`; 409 `OIDC_ALREADY_LINKED`; 429.',
        body: oidcLinkBody,
        response: { 200: oidcLinkStart, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const { url, cookie } = await service.startLink(request.userId, request.body.password, request.ip);
      return reply.header('set-cookie', cookie).send({ url });
    },
  );
  r.post(
    '/account/oidc/unlink',
    {
      ...account,
      schema: {
        tags: ['user'],
        security,
        summary: 'Unlink this account from the identity provider; needs the current password',
        description:
          '409 `OIDC_LAST_SIGN_IN` when the account could not sign in by password afterwards (it has none, or `PASSWORD_LOGIN=false`); 403 wrong password; 404 not linked; 429.',
        body: oidcLinkBody,
        response: { 200: oidcLink, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => service.unlink(request.userId, request.body.password, request.ip),
  );
}
