import type { Invitation, Ledger, LedgerRole } from '@billfold/contract/ledgers';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { type Api, request } from './domain.ts';
import { signUp } from './factories.ts';

/** A freshly signed-up user, ready for `request`. */
export async function newMember(app: FastifyInstance): Promise<Api> {
  return { app, session: await signUp(app) };
}

/** The user's id, as the members list shows it. */
export async function userIdOf(api: Api): Promise<number> {
  const { ledgers } = (await request(api, 'GET', '/ledgers')).json<{ ledgers: Ledger[] }>();
  const personal = ledgers.find((l) => l.personal);
  if (!personal) throw new Error('no personal ledger');
  const { members } = (await request(api, 'GET', `/ledgers/${personal.id}/members`)).json<{
    members: { userId: number; you: boolean }[];
  }>();
  const me = members.find((m) => m.you);
  if (!me) throw new Error('not a member of the personal ledger');
  return me.userId;
}

export async function createLedger(api: Api, name = 'Household'): Promise<Ledger> {
  const res = await request(api, 'POST', '/ledgers', { name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Ledger>();
}

export async function invite(api: Api, ledgerId: number, role: 'editor' | 'viewer' = 'editor') {
  const res = await request(api, 'POST', `/ledgers/${ledgerId}/invitations`, { role });
  expect(res.statusCode, res.body).toBe(201);
  const invitation = res.json<Invitation & { link: string }>();
  return { invitation, token: new URL(invitation.link).hash.slice(1) };
}

/** `member` joins the owner's ledger through an invitation link, with `role` (an owner is promoted after). */
export async function join(owner: Api, ledgerId: number, member: Api, role: LedgerRole): Promise<number> {
  const { token } = await invite(owner, ledgerId, role === 'viewer' ? 'viewer' : 'editor');
  const accepted = await request(member, 'POST', `/invitations/${token}/accept`);
  expect(accepted.statusCode, accepted.body).toBe(200);
  const memberId = await userIdOf(member);
  if (role === 'owner') {
    const promoted = await request(owner, 'PATCH', `/ledgers/${ledgerId}/members/${memberId}`, { role: 'owner' });
    expect(promoted.statusCode, promoted.body).toBe(200);
  }
  return memberId;
}
