import {
  acceptInvitationResult,
  changeRoleBody,
  createInvitationBody,
  createLedgerBody,
  deleteLedgerBody,
  invitation,
  invitationList,
  invitationParams,
  invitationPreview,
  invitationTokenParams,
  ledger,
  ledgerList,
  ledgerMember,
  ledgerMemberList,
  memberParams,
  renameLedgerBody,
} from '@billfold/contract/ledgers';
import { idParams, messageResponse } from '@billfold/contract/primitives';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/openapi.ts';
import type { InvitationsService } from './invitations.service.ts';
import type { LedgersService } from './ledgers.service.ts';

const security = [{ bearer: [] }];
const tags = ['ledgers'];

/**
 * Ledgers, members and invitations (docs/api/ledgers.md). A `/ledgers/{id}…` route answers 404 to anyone who is
 * not a member of the ledger, and 403 `LEDGER_OWNER_ONLY` to an editor or viewer where only an owner may act.
 */
export function ledgersRoutes(
  app: FastifyInstance,
  ledgers: LedgersService,
  invitations: InvitationsService,
  appUrl: (request: { protocol: string; host: string }) => string,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/ledgers',
    {
      schema: {
        tags,
        summary: "The caller's ledgers: their personal ledger first, then the others by name",
        security,
        response: { 200: ledgerList, ...errorResponses(401) },
      },
    },
    async (request) => ({ ledgers: await ledgers.list(request.userId) }),
  );
  r.post(
    '/ledgers',
    {
      schema: {
        tags,
        summary: 'Create a ledger to share; the caller becomes its owner',
        security,
        body: createLedgerBody,
        response: { 201: ledger, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => reply.code(201).send(await ledgers.create(request.userId, request.body.name)),
  );
  r.patch(
    '/ledgers/:id',
    {
      schema: {
        tags,
        summary: 'Rename a ledger (owners)',
        security,
        params: idParams,
        body: renameLedgerBody,
        response: { 200: ledger, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ledgers.rename(request.userId, request.params.id, request.body.name),
  );
  // Deleting removes a whole ledger: heavy work (plugins/fairness.ts), declared once for its group.
  void app.register(async (heavy) => {
    heavy.addHook('preParsing', app.heavyWork);
    heavy.withTypeProvider<ZodTypeProvider>().delete(
      '/ledgers/:id',
      {
        schema: {
          tags,
          summary: 'Delete a ledger and everything in it (owners), confirmed with the current password',
          description:
            '403 `WRONG_PASSWORD` when the password is wrong (counted with failed sign-ins; 429 with `Retry-After` after too many); 409 `PERSONAL_LEDGER` for a personal ledger, which goes only with its account. 429 `BUSY` while the caller already runs `LIMIT_HEAVY_PER_USER` heavy requests.',
          security,
          params: idParams,
          body: deleteLedgerBody,
          response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404, 409, 429) },
        },
      },
      async (request) => ledgers.delete(request.userId, request.params.id, request.body.password, request.ip),
    );
  });

  r.get(
    '/ledgers/:id/members',
    {
      schema: {
        tags,
        summary: "A ledger's members and their roles, in the order they joined (any member)",
        security,
        params: idParams,
        response: { 200: ledgerMemberList, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ({ members: await ledgers.members(request.userId, request.params.id) }),
  );
  r.patch(
    '/ledgers/:id/members/:userId',
    {
      schema: {
        tags,
        summary: "Change a member's role (owners)",
        description:
          '409 `LAST_OWNER` when it would leave the ledger without an owner; 409 `PERSONAL_LEDGER` for the person whose personal ledger it is. A member who stops being an owner loses their pending invitations.',
        security,
        params: memberParams,
        body: changeRoleBody,
        response: { 200: ledgerMember, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ledgers.changeRole(request.userId, request.params.id, request.params.userId, request.body.role),
  );
  r.delete(
    '/ledgers/:id/members/:userId',
    {
      schema: {
        tags,
        summary: 'Remove a member (owners), or leave the ledger (any member, with their own id)',
        description:
          'Access ends at once, open sessions included; a removed member’s calendar feed is ended. 409 `LAST_OWNER` for the last owner; 409 `PERSONAL_LEDGER` for the person whose personal ledger it is.',
        security,
        params: memberParams,
        response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ledgers.remove(request.userId, request.params.id, request.params.userId),
  );

  r.post(
    '/ledgers/:id/invitations',
    {
      schema: {
        tags,
        summary: 'Make an invitation link for a role (owners); the link is shown this once',
        description:
          'The answer’s `link` is `<app>/invite#<token>`; it works once, for 7 days, until revoked. 429 `INVITATIONS_THROTTLED` with `Retry-After` past `LIMIT_INVITATIONS` in 15 minutes.',
        security,
        params: idParams,
        body: createInvitationBody,
        response: { 201: invitation, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await invitations.create(request.userId, request.params.id, request.body.role, appUrl(request))),
  );
  r.get(
    '/ledgers/:id/invitations',
    {
      schema: {
        tags,
        summary: "A ledger's invitations still usable, newest first (owners)",
        security,
        params: idParams,
        response: { 200: invitationList, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({ invitations: await invitations.pending(request.userId, request.params.id) }),
  );
  r.delete(
    '/ledgers/:id/invitations/:invitationId',
    {
      schema: {
        tags,
        summary: 'Revoke an invitation (owners): its link stops working',
        security,
        params: invitationParams,
        response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => invitations.revoke(request.userId, request.params.id, request.params.invitationId),
  );

  r.get(
    '/invitations/:token',
    {
      schema: {
        tags,
        summary: 'What an invitation link offers, for the signed-in user to decide',
        description:
          '404 `INVITATION_INVALID` for a link unknown, expired, used or revoked; 429 `INVITATIONS_THROTTLED` after `LIMIT_INVITATION_ATTEMPTS` such links from one user or address in 15 minutes.',
        security,
        params: invitationTokenParams,
        response: { 200: invitationPreview, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => invitations.preview({ userId: request.userId, ip: request.ip }, request.params.token),
  );
  r.post(
    '/invitations/:token/accept',
    {
      schema: {
        tags,
        summary: "Join the invitation's ledger with its role; the link is used up",
        description:
          'Already a member: nothing changes (`joined: false`) and the link stays usable. 404 `INVITATION_INVALID` and 429 as for the preview.',
        security,
        params: invitationTokenParams,
        response: { 200: acceptInvitationResult, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => invitations.accept({ userId: request.userId, ip: request.ip }, request.params.token),
  );
}
