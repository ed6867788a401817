import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import type { Invitation, Ledger, LedgerMember } from '@billfold/contract/ledgers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, loadConfig } from '../src/config.ts';
import { createTestApp, dialects, secondProcess, type TestApp } from './helpers/app.ts';
import { type Api, request } from './helpers/domain.ts';
import { signIn } from './helpers/factories.ts';
import { createLedger, invite, join, newMember, userIdOf } from './helpers/ledgers.ts';

const DAY = 24 * 60 * 60 * 1000;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
/** A token of the right form that no invitation has. */
const UNKNOWN = 'A'.repeat(43);

describe.each(dialects)('ledger invitations on %s', (dialect) => {
  let t: TestApp;
  const logs: string[] = [];

  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    });
    t = await createTestApp(dialect, { logLevel: 'info', publicUrl: 'https://bills.example.com' }, { logStream });
  });
  afterAll(() => t.close());

  const user = () => newMember(t.app);
  const ledgersOf = async (api: Api) => (await request(api, 'GET', '/ledgers')).json<{ ledgers: Ledger[] }>().ledgers;
  const membersOf = async (api: Api, ledgerId: number) =>
    (await request(api, 'GET', `/ledgers/${ledgerId}/members`)).json<{ members: LedgerMember[] }>().members;
  const pending = async (api: Api, ledgerId: number) => {
    const res = await request(api, 'GET', `/ledgers/${ledgerId}/invitations`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ invitations: Invitation[] }>().invitations;
  };
  const accept = (api: Api, token: string) => request(api, 'POST', `/invitations/${token}/accept`);
  const expectInvalid = (res: { statusCode: number; json: () => unknown }) => {
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      code: 'INVITATION_INVALID',
      message:
        'This invitation link cannot be used: it may have expired, been used or been revoked. Ask for a new one.',
    });
  };

  it('an owner makes a link to <PUBLIC_URL>/invite#<token>, good for 7 days; only its hash is stored', async () => {
    const owner = await user();
    const ledger = await createLedger(owner, 'Flat 4B');
    const res = await request(owner, 'POST', `/ledgers/${ledger.id}/invitations`, {});
    expect(res.statusCode).toBe(201);
    const made = res.json<Invitation>();
    expect(made).toEqual({
      id: expect.any(Number),
      ledgerId: ledger.id,
      role: 'editor',
      createdAt: '2026-11-22T12:00:00',
      expiresAt: '2026-11-29T12:00:00',
      createdBy: owner.session.username,
      link: expect.stringMatching(/^https:\/\/bills\.example\.com\/invite#[A-Za-z0-9_-]{43}$/),
    });
    const token = (made.link as string).split('#')[1] as string;
    const rows = await t.app.db
      .selectFrom('ledger_invitations')
      .selectAll()
      .where('ledger_id', '=', ledger.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(sha256(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    // The list shows it, without the link (which cannot be shown again).
    const { link: _link, ...listed } = made;
    expect(await pending(owner, ledger.id)).toEqual([listed]);
    // An owner cannot hand out ownership by link.
    const owners = await request(owner, 'POST', `/ledgers/${ledger.id}/invitations`, { role: 'owner' });
    expect(owners.statusCode).toBe(400);
    expect(owners.json().code).toBe('VALIDATION_FAILED');
  });

  it('without PUBLIC_URL the link is built on the address the request came to', async () => {
    const other = await createTestApp(dialect);
    try {
      const owner = await newMember(other.app);
      const ledger = await createLedger(owner);
      const { invitation } = await invite(owner, ledger.id);
      expect(invitation.link).toMatch(/^http:\/\/localhost(:\d+)?\/invite#[A-Za-z0-9_-]{43}$/);
    } finally {
      await other.close();
    }
  });

  it('a signed-in user previews a link, then joins with its role; the ledger is theirs to switch to', async () => {
    const owner = await user();
    const guest = await user();
    const ledger = await createLedger(owner, 'Allotment');
    const { token } = await invite(owner, ledger.id, 'viewer');
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/invitations/${token}` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/invitations/${token}/accept` })).statusCode).toBe(401);
    const preview = await request(guest, 'GET', `/invitations/${token}`);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toEqual({
      ledgerName: 'Allotment',
      role: 'viewer',
      invitedBy: owner.session.username,
      expiresAt: '2026-11-29T12:00:00',
      alreadyMember: false,
    });
    // A preview changes nothing.
    expect(await membersOf(owner, ledger.id)).toHaveLength(1);
    const joined = await accept(guest, token);
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toEqual({
      joined: true,
      ledger: {
        id: ledger.id,
        name: 'Allotment',
        role: 'viewer',
        personal: false,
        memberCount: 2,
        createdAt: '2026-11-22T12:00:00',
      },
    });
    expect((await ledgersOf(guest)).map((l) => [l.name, l.role])).toEqual([
      ['Personal', 'owner'],
      ['Allotment', 'viewer'],
    ]);
    const members = await membersOf(guest, ledger.id);
    expect(members.map((m) => [m.username, m.role, m.you])).toEqual([
      [owner.session.username, 'owner', false],
      [guest.session.username, 'viewer', true],
    ]);
    // Used: no longer pending, and nobody else can use it.
    expect(await pending(owner, ledger.id)).toEqual([]);
    const row = await t.app.db
      .selectFrom('ledger_invitations')
      .selectAll()
      .where('ledger_id', '=', ledger.id)
      .executeTakeFirst();
    expect(row).toMatchObject({ accepted_by: await userIdOf(guest), accepted_at: t.clock.now() });
    const late = await user();
    expectInvalid(await request(late, 'GET', `/invitations/${token}`));
    expectInvalid(await accept(late, token));
    expect(await membersOf(owner, ledger.id)).toHaveLength(2);
  });

  it('a member already changes nothing (200) and leaves the link usable for someone else', async () => {
    const owner = await user();
    const ledger = await createLedger(owner);
    const { token } = await invite(owner, ledger.id, 'viewer');
    const preview = await request(owner, 'GET', `/invitations/${token}`);
    expect(preview.json().alreadyMember).toBe(true);
    const again = await accept(owner, token);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ joined: false, ledger: { id: ledger.id, role: 'owner', memberCount: 1 } });
    // Still the owner (not turned into a viewer), and the link still works.
    expect((await membersOf(owner, ledger.id)).map((m) => m.role)).toEqual(['owner']);
    expect(await pending(owner, ledger.id)).toHaveLength(1);
    const guest = await user();
    expect((await accept(guest, token)).json().joined).toBe(true);
  });

  it('refuses a link unknown, expired or revoked with 404 INVITATION_INVALID', async () => {
    const owner = await user();
    const guest = await user();
    const ledger = await createLedger(owner);
    expectInvalid(await request(guest, 'GET', `/invitations/${UNKNOWN}`));
    expectInvalid(await accept(guest, UNKNOWN));
    // A token too short or too long to be one is a validation error.
    expect((await request(guest, 'GET', '/invitations/short')).statusCode).toBe(400);

    const revoked = await invite(owner, ledger.id);
    const kept = await invite(owner, ledger.id, 'viewer');
    const res = await request(owner, 'DELETE', `/ledgers/${ledger.id}/invitations/${revoked.invitation.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Invitation revoked.' });
    expectInvalid(await request(guest, 'GET', `/invitations/${revoked.token}`));
    expectInvalid(await accept(guest, revoked.token));
    expect((await pending(owner, ledger.id)).map((i) => i.id)).toEqual([kept.invitation.id]);
    // Revoking again, or through another ledger, finds nothing.
    expect(
      (await request(owner, 'DELETE', `/ledgers/${ledger.id}/invitations/${revoked.invitation.id}`)).statusCode,
    ).toBe(404);
    const elsewhere = await createLedger(owner, 'Elsewhere');
    const cross = await request(owner, 'DELETE', `/ledgers/${elsewhere.id}/invitations/${kept.invitation.id}`);
    expect(cross.statusCode).toBe(404);
    expect(cross.json().message).toBe('Invitation not found.');

    // Expiry: usable until 7 days have passed, not a moment after.
    const expiring = await invite(owner, ledger.id);
    t.clock.advance(7 * DAY - 1000);
    const fresh = { app: t.app, session: await signIn(t.app, guest.session) };
    expect((await request(fresh, 'GET', `/invitations/${expiring.token}`)).statusCode).toBe(200);
    t.clock.advance(1000);
    expectInvalid(await request(fresh, 'GET', `/invitations/${expiring.token}`));
    expectInvalid(await accept(fresh, expiring.token));
    const ownerAgain = { app: t.app, session: await signIn(t.app, owner.session) };
    expect(await pending(ownerAgain, ledger.id)).toEqual([]);
    expect((await membersOf(ownerAgain, ledger.id)).map((m) => m.role)).toEqual(['owner']);
  });

  it('two people accepting one link at once (on two server processes with PostgreSQL): exactly one joins', async () => {
    // On PostgreSQL a second app on the same database; SQLite's one connection per process would make two apps
    // in one test process wait on each other's locks synchronously, so there the accepts share one app.
    const other = dialect === 'postgres' ? await secondProcess(t) : t.app;
    try {
      for (let round = 0; round < 4; round++) {
        const owner = await user();
        const ledger = await createLedger(owner);
        const { token } = await invite(owner, ledger.id);
        const [a, b] = [await user(), await user()];
        const answers = await Promise.all([accept(a, token), accept({ ...b, app: other }, token)]);
        expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 404]);
        expect(await membersOf(owner, ledger.id)).toHaveLength(2);
      }
    } finally {
      if (other !== t.app) await other.close();
    }
  });

  it('one person accepting one link twice at once joins once; the other answer changes nothing', async () => {
    const owner = await user();
    const ledger = await createLedger(owner);
    const { token } = await invite(owner, ledger.id);
    const guest = await user();
    const answers = await Promise.all([accept(guest, token), accept(guest, token)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(answers.map((r) => r.json().joined).sort()).toEqual([false, true]);
    expect((await membersOf(owner, ledger.id)).map((m) => m.role)).toEqual(['owner', 'editor']);
  });

  it('only owners make, list and revoke invitations; strangers get 404', async () => {
    const owner = await user();
    const editor = await user();
    const stranger = await user();
    const ledger = await createLedger(owner);
    await join(owner, ledger.id, editor, 'editor');
    const { invitation } = await invite(owner, ledger.id);
    for (const [api, status, code] of [
      [editor, 403, 'LEDGER_OWNER_ONLY'],
      [stranger, 404, 'NOT_FOUND'],
    ] as const) {
      for (const [method, url] of [
        ['POST', `/ledgers/${ledger.id}/invitations`],
        ['GET', `/ledgers/${ledger.id}/invitations`],
        ['DELETE', `/ledgers/${ledger.id}/invitations/${invitation.id}`],
      ] as const) {
        const res = await request(api, method, url, method === 'POST' ? { role: 'viewer' } : undefined);
        expect(res.statusCode, `${method} ${url}`).toBe(status);
        expect(res.json().code).toBe(code);
      }
    }
    expect((await pending(owner, ledger.id)).map((i) => i.id)).toEqual([invitation.id]);
  });

  it('never writes a token to the log', async () => {
    const owner = await user();
    const guest = await user();
    const ledger = await createLedger(owner);
    const { token } = await invite(owner, ledger.id);
    await request(guest, 'GET', `/invitations/${token}`);
    await accept(guest, token);
    const text = logs.join('');
    expect(text).toContain('/api/v1/invitations/…/accept');
    expect(text).not.toContain(token);
  });
});

describe('invitation limits are settings', () => {
  it('LIMIT_INVITATIONS and LIMIT_INVITATION_ATTEMPTS set them; absent, 20 each; bad values are refused by name', () => {
    const dir = '/tmp/billfold-invitation-limits';
    expect(DEFAULT_LIMITS).toMatchObject({ invitations: 20, invitationAttempts: 20 });
    expect(loadConfig({ DATA_DIR: dir }).limits).toMatchObject({ invitations: 20, invitationAttempts: 20 });
    const set = loadConfig({ DATA_DIR: dir, LIMIT_INVITATIONS: '5', LIMIT_INVITATION_ATTEMPTS: '7' });
    expect(set.limits).toMatchObject({ invitations: 5, invitationAttempts: 7 });
    expect(() => loadConfig({ DATA_DIR: dir, LIMIT_INVITATIONS: '0' })).toThrow(/LIMIT_INVITATIONS/);
    expect(() => loadConfig({ DATA_DIR: dir, LIMIT_INVITATION_ATTEMPTS: 'many' })).toThrow(/LIMIT_INVITATION_ATTEMPTS/);
  });
});

describe.each(dialects)('invitation throttles on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(dialect, { limits: { invitations: 3, invitationAttempts: 3 } });
  });
  afterAll(() => t.close());

  const from = (api: Api, ip: string) => ({
    ...api,
    app: {
      inject: (options: object) => api.app.inject({ ...options, remoteAddress: ip } as never),
    } as unknown as Api['app'],
  });

  it('LIMIT_INVITATIONS a user in 15 minutes, then 429 INVITATIONS_THROTTLED with Retry-After', async () => {
    const owner = await newMember(t.app);
    const ledger = await createLedger(owner);
    const other = await createLedger(owner, 'Other');
    for (let i = 0; i < 3; i++) await invite(owner, i === 2 ? other.id : ledger.id);
    const refused = await request(owner, 'POST', `/ledgers/${ledger.id}/invitations`, { role: 'viewer' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'INVITATIONS_THROTTLED' });
    expect(refused.json().message).toMatch(/^Too many invitations made\. Try again in \d+ minutes?\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const invitations = await t.app.db
      .selectFrom('ledger_invitations')
      .select('id')
      .where('ledger_id', '=', ledger.id)
      .execute();
    expect(invitations).toHaveLength(2);
    // Another owner is not held up.
    const second = await newMember(t.app);
    await invite(second, (await createLedger(second)).id);
    t.clock.advance(15 * 60_000);
    const again = { app: t.app, session: await signIn(t.app, owner.session) };
    await invite(again, ledger.id);
  });

  it('LIMIT_INVITATION_ATTEMPTS unusable links per user and per address, then 429 even for a good link', async () => {
    const owner = await newMember(t.app);
    const ledger = await createLedger(owner);
    const { token } = await invite(owner, ledger.id);
    const guest = from(await newMember(t.app), '203.0.113.7');
    // Good links do not count.
    for (let i = 0; i < 5; i++) expect((await request(guest, 'GET', `/invitations/${token}`)).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) {
      const path = i % 2 === 0 ? `/invitations/${UNKNOWN}` : `/invitations/${UNKNOWN}/accept`;
      expect((await request(guest, i % 2 === 0 ? 'GET' : 'POST', path)).statusCode).toBe(404);
    }
    const refused = await request(guest, 'POST', `/invitations/${token}/accept`);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('INVITATIONS_THROTTLED');
    expect(refused.json().message).toMatch(/^Too many invitation links tried\. Try again in \d+ minutes?\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await request(owner, 'GET', `/ledgers/${ledger.id}/members`)).json().members).toHaveLength(1);
    // Another user at the same address is held too; the same user elsewhere is held by their own count.
    const neighbour = from(await newMember(t.app), '203.0.113.7');
    expect((await request(neighbour, 'POST', `/invitations/${token}/accept`)).statusCode).toBe(429);
    const elsewhere = from(guest, '198.51.100.9');
    expect((await request(elsewhere, 'POST', `/invitations/${token}/accept`)).statusCode).toBe(429);
    // Someone else, somewhere else, is not.
    const stranger = from(await newMember(t.app), '198.51.100.10');
    expect((await request(stranger, 'POST', `/invitations/${token}/accept`)).statusCode).toBe(200);
  });
});
