import type { Ledger, LedgerMember } from '@billfold/contract/ledgers';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { purgeAccounts } from '../src/jobs/purge.ts';
import { createTestApp, dialects, secondProcess, type TestApp } from './helpers/app.ts';
import { type Api, request } from './helpers/domain.ts';
import { signIn } from './helpers/factories.ts';
import { createLedger, invite, join, newMember, userIdOf } from './helpers/ledgers.ts';

const WRONG = 'Wrong!Passw0rd1';

describe.each(dialects)('ledgers and members on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const user = () => newMember(t.app);
  const ledgersOf = async (api: Api) => (await request(api, 'GET', '/ledgers')).json<{ ledgers: Ledger[] }>().ledgers;
  const membersOf = async (api: Api, ledgerId: number) => {
    const res = await request(api, 'GET', `/ledgers/${ledgerId}/members`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ members: LedgerMember[] }>().members;
  };
  const rowCount = async (table: 'ledgers' | 'ledger_members' | 'ledger_invitations', ledgerId: number) => {
    const column = table === 'ledgers' ? 'id' : 'ledger_id';
    const rows = await t.app.db.selectFrom(table).select(column).where(column, '=', ledgerId).execute();
    return rows.length;
  };
  /** A ledger with an owner, an editor and a viewer. */
  const household = async () => {
    const owner = await user();
    const editor = await user();
    const viewer = await user();
    const ledger = await createLedger(owner);
    const editorId = await join(owner, ledger.id, editor, 'editor');
    const viewerId = await join(owner, ledger.id, viewer, 'viewer');
    return { owner, editor, viewer, ledger, editorId, viewerId, ownerId: await userIdOf(owner) };
  };

  it('lists the personal ledger of a new account; a new ledger makes the caller its one owner', async () => {
    const me = await user();
    const [personal, ...others] = await ledgersOf(me);
    expect(others).toEqual([]);
    expect(personal).toMatchObject({ name: 'Personal', role: 'owner', personal: true, memberCount: 1 });
    const created = await request(me, 'POST', '/ledgers', { name: '  Flat 4B  ' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      id: expect.any(Number),
      name: 'Flat 4B',
      role: 'owner',
      personal: false,
      memberCount: 1,
      createdAt: '2026-11-22T12:00:00',
    });
    await createLedger(me, 'allotment');
    // The personal ledger first, then the others by name whatever their letter case.
    expect((await ledgersOf(me)).map((l) => l.name)).toEqual(['Personal', 'allotment', 'Flat 4B']);
    const members = await membersOf(me, created.json<Ledger>().id);
    expect(members).toEqual([
      {
        userId: await userIdOf(me),
        username: me.session.username,
        role: 'owner',
        joinedAt: '2026-11-22T12:00:00',
        you: true,
      },
    ]);
    // Another user sees none of it.
    expect((await ledgersOf(await user())).map((l) => l.name)).toEqual(['Personal']);
  });

  it('refuses a blank or over-long name and an unsigned request', async () => {
    const me = await user();
    for (const name of ['', '   ', 'x'.repeat(101)]) {
      const res = await request(me, 'POST', '/ledgers', { name });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/ledgers' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/ledgers', payload: { name: 'x' } })).statusCode).toBe(
      401,
    );
    expect(await ledgersOf(me)).toHaveLength(1);
  });

  it('lets owners rename; editors and viewers get 403 LEDGER_OWNER_ONLY, strangers and unknown ids 404', async () => {
    const { owner, editor, viewer, ledger } = await household();
    const stranger = await user();
    const renamed = await request(owner, 'PATCH', `/ledgers/${ledger.id}`, { name: 'Home' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ id: ledger.id, name: 'Home', role: 'owner', memberCount: 3 });
    for (const member of [editor, viewer]) {
      const res = await request(member, 'PATCH', `/ledgers/${ledger.id}`, { name: 'Mine' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'LEDGER_OWNER_ONLY',
        message: 'Only an owner of this ledger can do this.',
      });
    }
    for (const id of [ledger.id, 999_999]) {
      const res = await request(stranger, 'PATCH', `/ledgers/${id}`, { name: 'Mine' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Ledger not found.' });
    }
    expect((await ledgersOf(editor)).find((l) => l.id === ledger.id)).toMatchObject({ name: 'Home', role: 'editor' });
    // The personal ledger may be renamed by its owner.
    const personal = (await ledgersOf(owner)).find((l) => l.personal) as Ledger;
    expect((await request(owner, 'PATCH', `/ledgers/${personal.id}`, { name: 'Mine' })).json().name).toBe('Mine');
  });

  it('answers 404 to a stranger on every /ledgers/{id} route, and 403 to editors and viewers on owner routes', async () => {
    const { editor, viewer, ledger, ownerId, editorId } = await household();
    const stranger = await user();
    const routes = [
      ['PATCH', `/ledgers/${ledger.id}`, { name: 'x' }, true],
      ['DELETE', `/ledgers/${ledger.id}`, { password: 'whatever' }, true],
      ['GET', `/ledgers/${ledger.id}/members`, undefined, false],
      ['PATCH', `/ledgers/${ledger.id}/members/${editorId}`, { role: 'viewer' }, true],
      ['DELETE', `/ledgers/${ledger.id}/members/${ownerId}`, undefined, true],
      ['POST', `/ledgers/${ledger.id}/invitations`, { role: 'viewer' }, true],
      ['GET', `/ledgers/${ledger.id}/invitations`, undefined, true],
      ['DELETE', `/ledgers/${ledger.id}/invitations/1`, undefined, true],
    ] as const;
    for (const [method, url, body, ownerOnly] of routes) {
      const res = await request(stranger, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
      if (!ownerOnly) continue;
      for (const member of [editor, viewer]) {
        const refused = await request(member, method, url, body);
        expect(refused.statusCode, `${method} ${url}`).toBe(403);
        expect(refused.json().code).toBe('LEDGER_OWNER_ONLY');
      }
    }
    // Nothing changed.
    expect((await membersOf(editor, ledger.id)).map((m) => m.role)).toEqual(['owner', 'editor', 'viewer']);
    expect(await rowCount('ledger_invitations', ledger.id)).toBe(2);
  });

  it('deletes a ledger with the right password only; a personal ledger never (409 PERSONAL_LEDGER)', async () => {
    const owner = await user();
    const empty = await createLedger(owner, 'Empty');
    const wrong = await request(owner, 'DELETE', `/ledgers/${empty.id}`, { password: WRONG });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ code: 'WRONG_PASSWORD', message: 'Current password is incorrect' });
    expect(await rowCount('ledgers', empty.id)).toBe(1);
    const missing = await request(owner, 'DELETE', `/ledgers/${empty.id}`, {});
    expect(missing.statusCode).toBe(400);
    const gone = await request(owner, 'DELETE', `/ledgers/${empty.id}`, { password: owner.session.password });
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toEqual({ message: 'Ledger deleted.' });
    expect(await rowCount('ledgers', empty.id)).toBe(0);
    expect(await rowCount('ledger_members', empty.id)).toBe(0);
    expect((await request(owner, 'GET', `/ledgers/${empty.id}/members`)).statusCode).toBe(404);

    const personal = (await ledgersOf(owner)).find((l) => l.personal) as Ledger;
    const refused = await request(owner, 'DELETE', `/ledgers/${personal.id}`, { password: owner.session.password });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'PERSONAL_LEDGER',
      message: 'A personal ledger cannot be deleted: it goes with its account.',
    });
    expect(await rowCount('ledgers', personal.id)).toBe(1);
  });

  it('deleting a ledger with members and invitations removes them all and ends every member’s access', async () => {
    const { owner, editor, viewer, ledger } = await household();
    await invite(owner, ledger.id, 'viewer');
    expect(await rowCount('ledger_members', ledger.id)).toBe(3);
    expect(await rowCount('ledger_invitations', ledger.id)).toBe(3);
    const res = await request(owner, 'DELETE', `/ledgers/${ledger.id}`, { password: owner.session.password });
    expect(res.statusCode).toBe(200);
    for (const table of ['ledgers', 'ledger_members', 'ledger_invitations'] as const) {
      expect(await rowCount(table, ledger.id)).toBe(0);
    }
    for (const member of [owner, editor, viewer]) {
      expect((await ledgersOf(member)).map((l) => l.id)).not.toContain(ledger.id);
      expect((await request(member, 'GET', `/ledgers/${ledger.id}/members`)).statusCode).toBe(404);
    }
  });

  it('counts wrong delete passwords with failed sign-ins: 429 with Retry-After once over the limit', async () => {
    const owner = await user();
    const ledger = await createLedger(owner);
    for (let i = 0; i < 10; i++) {
      expect((await request(owner, 'DELETE', `/ledgers/${ledger.id}`, { password: WRONG })).statusCode).toBe(403);
    }
    const throttled = await request(owner, 'DELETE', `/ledgers/${ledger.id}`, { password: owner.session.password });
    expect(throttled.statusCode).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect(throttled.json().message).toMatch(/^Too many wrong passwords\. Try again in \d+ minutes?\.$/);
    expect(await rowCount('ledgers', ledger.id)).toBe(1);
    t.clock.advance(15 * 60_000);
    const again = { app: t.app, session: await signIn(t.app, owner.session) };
    const later = await request(again, 'DELETE', `/ledgers/${ledger.id}`, { password: owner.session.password });
    expect(later.statusCode).toBe(200);
  });

  it('shows the members to every member, marking the caller', async () => {
    const { owner, editor, viewer, ledger, ownerId, editorId, viewerId } = await household();
    for (const [api, id] of [
      [owner, ownerId],
      [editor, editorId],
      [viewer, viewerId],
    ] as const) {
      const members = await membersOf(api, ledger.id);
      expect(members.map((m) => [m.userId, m.username, m.role])).toEqual([
        [ownerId, owner.session.username, 'owner'],
        [editorId, editor.session.username, 'editor'],
        [viewerId, viewer.session.username, 'viewer'],
      ]);
      expect(members.filter((m) => m.you).map((m) => m.userId)).toEqual([id]);
    }
  });

  it('lets an owner change roles, and keeps one owner (409 LAST_OWNER)', async () => {
    const { owner, editor, ledger, ownerId, editorId, viewerId } = await household();
    const demoted = await request(owner, 'PATCH', `/ledgers/${ledger.id}/members/${editorId}`, { role: 'viewer' });
    expect(demoted.statusCode).toBe(200);
    expect(demoted.json()).toMatchObject({ userId: editorId, role: 'viewer', you: false });
    // The last owner cannot step down.
    const last = await request(owner, 'PATCH', `/ledgers/${ledger.id}/members/${ownerId}`, { role: 'editor' });
    expect(last.statusCode).toBe(409);
    expect(last.json()).toMatchObject({
      code: 'LAST_OWNER',
      message: 'A ledger needs an owner: make another member owner first.',
    });
    // With a second owner, they can.
    expect(
      (await request(owner, 'PATCH', `/ledgers/${ledger.id}/members/${viewerId}`, { role: 'owner' })).statusCode,
    ).toBe(200);
    const stepDown = await request(owner, 'PATCH', `/ledgers/${ledger.id}/members/${ownerId}`, { role: 'editor' });
    expect(stepDown.statusCode).toBe(200);
    expect(stepDown.json()).toMatchObject({ userId: ownerId, role: 'editor', you: true });
    // Now an editor: owner routes are refused.
    const refused = await request(owner, 'PATCH', `/ledgers/${ledger.id}/members/${editorId}`, { role: 'editor' });
    expect(refused.json().code).toBe('LEDGER_OWNER_ONLY');
    expect((await membersOf(editor, ledger.id)).map((m) => m.role)).toEqual(['editor', 'viewer', 'owner']);
  });

  it('answers 404 for a member who is not one, 400 for a role that is not one', async () => {
    const { owner, ledger, editorId } = await household();
    const stranger = await userIdOf(await user());
    const res = await request(owner, 'PATCH', `/ledgers/${ledger.id}/members/${stranger}`, { role: 'viewer' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Member not found.');
    const gone = await request(owner, 'DELETE', `/ledgers/${ledger.id}/members/${stranger}`);
    expect(gone.statusCode).toBe(404);
    const bad = await request(owner, 'PATCH', `/ledgers/${ledger.id}/members/${editorId}`, { role: 'admin' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_FAILED');
  });

  it('removing a member ends their access at once; members may leave; editors cannot remove others', async () => {
    const { owner, editor, viewer, ledger, editorId, viewerId } = await household();
    const refused = await request(editor, 'DELETE', `/ledgers/${ledger.id}/members/${viewerId}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('LEDGER_OWNER_ONLY');

    const removed = await request(owner, 'DELETE', `/ledgers/${ledger.id}/members/${editorId}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ message: 'Member removed.' });
    // The same session, at once.
    expect((await request(editor, 'GET', `/ledgers/${ledger.id}/members`)).statusCode).toBe(404);
    expect((await ledgersOf(editor)).map((l) => l.id)).not.toContain(ledger.id);

    const left = await request(viewer, 'DELETE', `/ledgers/${ledger.id}/members/${viewerId}`);
    expect(left.statusCode).toBe(200);
    expect(left.json()).toEqual({ message: 'You left the ledger.' });
    expect((await request(viewer, 'GET', `/ledgers/${ledger.id}/members`)).statusCode).toBe(404);
    expect((await membersOf(owner, ledger.id)).map((m) => m.role)).toEqual(['owner']);
    expect((await ledgersOf(owner)).find((l) => l.id === ledger.id)?.memberCount).toBe(1);
  });

  it('the last owner cannot leave or be removed (409 LAST_OWNER); another owner can', async () => {
    const { owner, editor, ledger, ownerId, editorId } = await household();
    const leave = await request(owner, 'DELETE', `/ledgers/${ledger.id}/members/${ownerId}`);
    expect(leave.statusCode).toBe(409);
    expect(leave.json().code).toBe('LAST_OWNER');
    await request(owner, 'PATCH', `/ledgers/${ledger.id}/members/${editorId}`, { role: 'owner' });
    const left = await request(owner, 'DELETE', `/ledgers/${ledger.id}/members/${ownerId}`);
    expect(left.statusCode).toBe(200);
    const members = await membersOf(editor, ledger.id);
    expect(members.map((m) => [m.userId, m.role])).toEqual([
      [editorId, 'owner'],
      [expect.any(Number), 'viewer'],
    ]);
  });

  it('keeps a personal ledger’s person in it as owner: no leaving, removal or demotion (409 PERSONAL_LEDGER)', async () => {
    const owner = await user();
    const partner = await user();
    const ownerId = await userIdOf(owner);
    const personal = (await ledgersOf(owner)).find((l) => l.personal) as Ledger;
    // A personal ledger can be shared, even with a second owner.
    const partnerId = await join(owner, personal.id, partner, 'owner');
    expect((await ledgersOf(partner)).find((l) => l.id === personal.id)).toMatchObject({
      role: 'owner',
      personal: false,
      memberCount: 2,
    });
    const leave = await request(owner, 'DELETE', `/ledgers/${personal.id}/members/${ownerId}`);
    expect(leave.statusCode).toBe(409);
    expect(leave.json()).toMatchObject({
      code: 'PERSONAL_LEDGER',
      message: 'A personal ledger cannot be left: it goes with its account.',
    });
    for (const [method, body] of [
      ['DELETE', undefined],
      ['PATCH', { role: 'viewer' }],
    ] as const) {
      const res = await request(partner, method, `/ledgers/${personal.id}/members/${ownerId}`, body);
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('PERSONAL_LEDGER');
    }
    const deleted = await request(partner, 'DELETE', `/ledgers/${personal.id}`, { password: partner.session.password });
    expect(deleted.json().code).toBe('PERSONAL_LEDGER');
    // The partner, not the personal ledger's person, may leave.
    expect((await request(partner, 'DELETE', `/ledgers/${personal.id}/members/${partnerId}`)).statusCode).toBe(200);
    expect((await membersOf(owner, personal.id)).map((m) => [m.userId, m.role])).toEqual([[ownerId, 'owner']]);
  });

  it('removing a member ends their calendar feed; leaving keeps one’s own', async () => {
    const { owner, editor, viewer, ledger, editorId, viewerId } = await household();
    const turnOn = async (api: Api) => {
      const res = await request(api, 'PUT', '/account/calendar-feed', {
        enabled: true,
        password: api.session.password,
      });
      expect(res.statusCode).toBe(200);
      return new URL(res.json<{ url: string }>().url).pathname;
    };
    const editorFeed = await turnOn(editor);
    const viewerFeed = await turnOn(viewer);
    expect((await t.app.inject({ method: 'GET', url: editorFeed })).statusCode).toBe(200);
    expect((await request(owner, 'DELETE', `/ledgers/${ledger.id}/members/${editorId}`)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: editorFeed })).statusCode).toBe(404);
    expect((await request(editor, 'GET', '/account/calendar-feed')).json().enabled).toBe(false);
    expect((await request(viewer, 'DELETE', `/ledgers/${ledger.id}/members/${viewerId}`)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: viewerFeed })).statusCode).toBe(200);
  });

  it('an owner who is removed or steps down loses the invitations they made that are still pending', async () => {
    const { owner, editor, ledger, ownerId, editorId } = await household();
    await request(owner, 'PATCH', `/ledgers/${ledger.id}/members/${editorId}`, { role: 'owner' });
    const byEditor = await invite(editor, ledger.id);
    const byOwner = await invite(owner, ledger.id);
    // The former owner steps down: their link stops working, the other owner's does not.
    await request(owner, 'PATCH', `/ledgers/${ledger.id}/members/${ownerId}`, { role: 'viewer' });
    const outsider = await user();
    const stale = await request(outsider, 'GET', `/invitations/${byOwner.token}`);
    expect(stale.statusCode).toBe(404);
    expect(stale.json().code).toBe('INVITATION_INVALID');
    expect((await request(outsider, 'GET', `/invitations/${byEditor.token}`)).statusCode).toBe(200);
    // Promoted again, they make a link and are removed: it dies with their membership.
    await request(editor, 'PATCH', `/ledgers/${ledger.id}/members/${ownerId}`, { role: 'owner' });
    const again = await invite(owner, ledger.id);
    await request(editor, 'DELETE', `/ledgers/${ledger.id}/members/${ownerId}`);
    expect((await request(outsider, 'POST', `/invitations/${again.token}/accept`)).statusCode).toBe(404);
    const pending = (await request(editor, 'GET', `/ledgers/${ledger.id}/invitations`)).json().invitations;
    expect(pending.map((i: { id: number }) => i.id)).toEqual([byEditor.invitation.id]);
  });

  it('purging the account of a ledger’s last owner hands the ledger to its earliest editor, else viewer; an empty one goes', async () => {
    const leaving = await user();
    const [viewer, editor, coOwner, other] = [await user(), await user(), await user(), await user()];
    const shared = await createLedger(leaving, 'Shared');
    const viewerId = await join(leaving, shared.id, viewer, 'viewer');
    const editorId = await join(leaving, shared.id, editor, 'editor');
    const viewersOnly = await createLedger(leaving, 'Viewers only');
    await join(leaving, viewersOnly.id, viewer, 'viewer');
    const alone = await createLedger(leaving, 'Alone');
    const coOwned = await createLedger(leaving, 'Co-owned');
    const coOwnerId = await join(leaving, coOwned.id, coOwner, 'owner');
    const otherId = await join(leaving, coOwned.id, other, 'editor');
    const personal = (await ledgersOf(leaving)).find((l) => l.personal) as Ledger;
    const leavingId = await userIdOf(leaving);
    const deactivated = await request(leaving, 'PUT', '/user', { password: leaving.session.password, recycle: true });
    expect(deactivated.statusCode).toBe(200);

    const roles = async (ledgerId: number) =>
      (
        await t.app.db
          .selectFrom('ledger_members')
          .select(['user_id', 'role'])
          .where('ledger_id', '=', ledgerId)
          .orderBy('user_id')
          .execute()
      ).map((r) => [Number(r.user_id), r.role]);
    // Not yet: a deactivated owner is still the owner for 30 days.
    await purgeAccounts(t.app.db, t.clock.now());
    expect(await roles(shared.id)).toContainEqual([leavingId, 'owner']);

    t.clock.advance(31 * 24 * 60 * 60 * 1000);
    expect((await purgeAccounts(t.app.db, t.clock.now())).users).toBe(1);
    expect(await roles(shared.id)).toEqual([
      [viewerId, 'viewer'],
      [editorId, 'owner'],
    ]);
    expect(await roles(viewersOnly.id)).toEqual([[viewerId, 'owner']]);
    expect(await roles(coOwned.id)).toEqual([
      [coOwnerId, 'owner'],
      [otherId, 'editor'],
    ]);
    for (const gone of [alone.id, personal.id]) {
      expect(await rowCount('ledgers', gone)).toBe(0);
      expect(await rowCount('ledger_members', gone)).toBe(0);
    }
  });

  it('two owners demoting each other at once leave exactly one owner', async () => {
    for (let round = 0; round < 4; round++) {
      const a = await user();
      const b = await user();
      const ledger = await createLedger(a);
      const aId = await userIdOf(a);
      const bId = await join(a, ledger.id, b, 'owner');
      const answers = await Promise.all([
        request(a, 'PATCH', `/ledgers/${ledger.id}/members/${bId}`, { role: 'editor' }),
        request(b, 'PATCH', `/ledgers/${ledger.id}/members/${aId}`, { role: 'editor' }),
      ]);
      // The first demotion wins; the second finds its caller no longer an owner.
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 403]);
      expect(answers.find((r) => r.statusCode === 403)?.json().code).toBe('LEDGER_OWNER_ONLY');
      const roles = (await membersOf(a, ledger.id)).map((m) => m.role);
      expect(roles.filter((r) => r === 'owner')).toHaveLength(1);
    }
  });

  it('two owners stepping down at once (on two server processes with PostgreSQL) leave exactly one owner', async () => {
    // As for two accepts (test/invitations.test.ts): a second app on PostgreSQL only.
    const other = dialect === 'postgres' ? await secondProcess(t) : t.app;
    if (other !== t.app) onTestFinished(() => other.close());
    for (let round = 0; round < 4; round++) {
      const a = await user();
      const b = await user();
      const ledger = await createLedger(a);
      const aId = await userIdOf(a);
      const bId = await join(a, ledger.id, b, 'owner');
      const answers = await Promise.all([
        request(a, 'PATCH', `/ledgers/${ledger.id}/members/${aId}`, { role: 'viewer' }),
        request({ ...b, app: other }, 'DELETE', `/ledgers/${ledger.id}/members/${bId}`),
      ]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(answers.find((r) => r.statusCode === 409)?.json().code).toBe('LAST_OWNER');
      const members = await t.app.db
        .selectFrom('ledger_members')
        .select('role')
        .where('ledger_id', '=', ledger.id)
        .where('role', '=', 'owner')
        .execute();
      expect(members).toHaveLength(1);
    }
  });
});
