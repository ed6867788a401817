import { createECDH, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { ChannelList, CreatedChannel, NotificationDelivery } from '@billfold/contract/notifications';
import ece from 'http_ece';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKOFF_START, GIVE_UP_AFTER, PAUSE_AFTER } from '../src/modules/notifications/notification-sender.ts';
import { VAPID_SEALED_ELSEWHERE } from '../src/modules/notifications/vapid.ts';
import { createTestApp, dialects, secondProcess, type TestApp } from './helpers/app.ts';
import { type Api, createBill, createEntry, request } from './helpers/domain.ts';
import { signIn, signUp } from './helpers/factories.ts';
import { createLedger, join, newMember } from './helpers/ledgers.ts';
import { multipart } from './helpers/multipart.ts';
import { type Receiver, startReceiver } from './helpers/receivers.ts';
import { createSchedule } from './helpers/schedules.ts';
import { type Smtp, startSmtp, verificationToken } from './helpers/smtp.ts';

const DAY = 86_400_000;
/** Each test signs up users (Argon2) and talks to receivers: room for a machine shared with other work. */
const SLOW = { timeout: 120_000 };
const ALL_EVENTS = ['due_soon', 'overdue', 'schedule_invoice', 'autopay', 'import_finished', 'member_joined'];

/**
 * Notification channels and the outbox (docs/decisions/1150-notification-outbox.md): every message goes to a real
 * receiver started here (a webhook endpoint that checks the Standard Webhooks signature, an ntfy and a Gotify
 * endpoint, a push service that decrypts the payload with the subscription's keys, an SMTP server), is retried with
 * backoff, gives up, pauses its channel, and is sent once however many processes send.
 */
describe.each(dialects)('notifications on %s', (dialect) => {
  let t: TestApp;
  let smtp: Smtp;
  let hook: Receiver;
  beforeAll(async () => {
    smtp = await startSmtp();
    hook = await startReceiver();
    t = await createTestApp(dialect, {
      mail: { smtpUrl: smtp.url, from: 'Billfold <billfold@example.test>' },
      notifyAllowPrivate: true,
      // Generous: a loaded machine must not time out a receiver that did answer (that would send it again).
      notifyTimeoutSeconds: 20,
    });
  });
  afterAll(async () => {
    await t.close();
    await hook.close();
    await smtp.close();
  });

  const user = async (): Promise<Api> => ({ app: t.app, session: await signUp(t.app) });
  const addChannel = async (api: Api, body: Record<string, unknown>) => {
    const res = await request(api, 'POST', '/notification-channels', { events: ALL_EVENTS, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<CreatedChannel>();
  };
  const deliveries = async (api: Api, query = '') => {
    // The test clock may have moved past the access token's life: sign in again.
    api.session = await signIn(t.app, api.session);
    const res = await request(api, 'GET', `/notification-deliveries${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ deliveries: NotificationDelivery[] }>().deliveries;
  };
  const testSend = async (api: Api, channelId: number) => {
    const res = await request(api, 'POST', `/notification-channels/${channelId}/test`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<NotificationDelivery>();
  };
  /** What reached the webhook receiver for the channel's path, each checked against the channel's secret. */
  const hooksAt = (path: string, secret: string) =>
    hook.received
      .filter((r) => r.path === path)
      .map((r) => {
        const payload = new Webhook(secret).verify(r.body.toString(), r.headers as Record<string, string>) as {
          type: string;
          data: Record<string, unknown>;
        };
        return { id: r.headers['webhook-id'] as string, ...payload };
      });
  let paths = 0;
  const path = () => `/hook/${++paths}`;

  it('keeps channels per user, answers a webhook secret once and never a token', SLOW, async () => {
    const api = await user();
    const other = await user();
    const created = await addChannel(api, { kind: 'webhook', name: 'Home', url: `${hook.url}${path()}` });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    const ntfy = await addChannel(api, {
      kind: 'ntfy',
      name: 'Phone',
      url: `${hook.url}/bills`,
      token: 'tk_secret_ntfy_token',
      events: ['overdue', 'due_soon', 'overdue'],
      daysAhead: 5,
    });
    expect(ntfy).toMatchObject({ kind: 'ntfy', hasToken: true, events: ['due_soon', 'overdue'], daysAhead: 5 });
    expect(ntfy).not.toHaveProperty('secret');
    const list = await request(api, 'GET', '/notification-channels');
    expect(list.body).not.toContain(created.secret);
    expect(list.body).not.toContain('tk_secret_ntfy_token');
    const body = list.json<ChannelList>();
    expect(body.channels.map((c) => c.name)).toEqual(['Home', 'Phone']);
    expect(body.emailConfigured).toBe(true);
    expect(body.webPushKey).toMatch(/^[A-Za-z0-9_-]{80,}$/);
    // The secret is stored sealed, not as typed.
    const stored = await t.app.db
      .selectFrom('notification_channels')
      .select('secret')
      .where('id', '=', ntfy.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret).not.toContain('tk_secret_ntfy_token');
    // Nor is any secret in the account file.
    const exported = await request(api, 'GET', '/account/export');
    expect(exported.statusCode).toBe(200);
    expect(exported.body).not.toContain('tk_secret_ntfy_token');
    expect(exported.body).not.toContain(created.secret);

    expect((await request(other, 'GET', '/notification-channels')).json<ChannelList>().channels).toEqual([]);
    expect((await request(other, 'PATCH', `/notification-channels/${ntfy.id}`, { name: 'Mine' })).statusCode).toBe(404);
    expect((await request(other, 'DELETE', `/notification-channels/${ntfy.id}`)).statusCode).toBe(404);
    expect((await request(other, 'POST', `/notification-channels/${ntfy.id}/test`)).statusCode).toBe(404);

    const patched = await request(api, 'PATCH', `/notification-channels/${ntfy.id}`, {
      events: ['autopay'],
      daysAhead: 9,
    });
    expect(patched.json()).toMatchObject({ events: ['autopay'], daysAhead: 9, name: 'Phone' });
    const bad = await request(api, 'POST', '/notification-channels', {
      kind: 'webhook',
      name: 'x',
      events: ['nope'],
      url: 'ftp://x',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_FAILED');
    expect((await request(api, 'DELETE', `/notification-channels/${ntfy.id}`)).statusCode).toBe(200);
    expect((await request(api, 'GET', '/notification-channels')).json<ChannelList>().channels).toHaveLength(1);
  });

  it('sends a signed webhook, an ntfy and a Gotify message, and a mail to a verified address', SLOW, async () => {
    const api = await user();
    const p = path();
    const webhook = await addChannel(api, { kind: 'webhook', name: 'Hook', url: `${hook.url}${p}` });
    const sent = await testSend(api, webhook.id);
    expect(sent).toMatchObject({ status: 'sent', attempts: 1, lastError: null, nextTry: null, event: 'test' });
    const [arrived] = hooksAt(p, webhook.secret as string);
    expect(arrived).toMatchObject({ id: `msg_${sent.id}`, type: 'test', data: { title: 'Test notification' } });
    // A wrong secret does not verify: the receiver's check is real.
    const raw = hook.received.find((r) => r.path === p);
    expect(() =>
      new Webhook(`whsec_${randomBytes(24).toString('base64')}`).verify(
        raw?.body.toString() ?? '',
        raw?.headers as Record<string, string>,
      ),
    ).toThrow();

    const ntfy = await addChannel(api, { kind: 'ntfy', name: 'Topic', url: `${hook.url}/ntfy-topic`, token: 'tk_abc' });
    expect((await testSend(api, ntfy.id)).status).toBe('sent');
    const topic = hook.received.filter((r) => r.path === '/ntfy-topic').at(-1);
    expect(topic?.headers.authorization).toBe('Bearer tk_abc');
    expect(decodeURIComponent(String(topic?.headers.title))).toBe('Test notification');
    expect(topic?.body.toString()).toContain('It works.');

    const gotify = await addChannel(api, {
      kind: 'gotify',
      name: 'Gotify',
      url: `${hook.url}/gotify/`,
      token: 'AppTok3n',
    });
    expect((await testSend(api, gotify.id)).status).toBe('sent');
    const got = hook.received.filter((r) => r.path === '/gotify/message').at(-1);
    expect(got?.headers['x-gotify-key']).toBe('AppTok3n');
    expect(JSON.parse(got?.body.toString() ?? '{}')).toMatchObject({ title: 'Test notification', priority: 5 });

    const email = await addChannel(api, { kind: 'email', name: 'Mail' });
    const refused = await testSend(api, email.id);
    expect(refused).toMatchObject({ status: 'gave_up', lastError: 'the account’s email address is not verified' });
    await t.app.outbox.settled();
    const token = verificationToken(smtp.to(api.session.email));
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/account/email/verify', payload: { token } })).statusCode,
    ).toBe(200);
    expect((await testSend(api, email.id)).status).toBe('sent');
    const mail = smtp.to(api.session.email).at(-1);
    expect(mail?.subject).toBe('Billfold: Test notification');
  });

  it('sends web push the subscription decrypts, signed with the server’s VAPID key', SLOW, async () => {
    const api = await user();
    const receiver = createECDH('prime256v1');
    receiver.generateKeys();
    const auth = randomBytes(16).toString('base64url');
    const channel = await addChannel(api, {
      kind: 'webpush',
      name: 'This browser',
      subscription: {
        endpoint: `${hook.url}/push/abc`,
        keys: { p256dh: receiver.getPublicKey().toString('base64url'), auth },
      },
    });
    expect(channel.hasToken).toBe(false);
    expect((await testSend(api, channel.id)).status).toBe('sent');
    const push = hook.received.filter((r) => r.path === '/push/abc').at(-1);
    expect(push?.headers['content-encoding']).toBe('aes128gcm');
    const plain = ece.decrypt(push?.body as Buffer, { version: 'aes128gcm', privateKey: receiver, authSecret: auth });
    expect(JSON.parse(plain.toString())).toMatchObject({ title: 'Test notification', event: 'test' });
    const key = (await request(api, 'GET', '/notification-channels')).json<ChannelList>().webPushKey;
    expect(String(push?.headers.authorization)).toContain(`k=${key}`);
    // Every process signs with the same stored key.
    const second = await secondProcess(t, { notifyAllowPrivate: true });
    const again = await second.inject({
      method: 'GET',
      url: '/api/v1/notification-channels',
      headers: api.session.headers,
    });
    expect(again.json<ChannelList>().webPushKey).toBe(key);
    await second.close();
  });

  it(
    'starts with push keys sealed under another MFA_KEY; web push then fails with that reason, logged',
    SLOW,
    async () => {
      const api = await user();
      const receiver = createECDH('prime256v1');
      receiver.generateKeys();
      const channel = await addChannel(api, {
        kind: 'webpush',
        name: 'Old key',
        subscription: {
          endpoint: `${hook.url}/push/old-key`,
          keys: { p256dh: receiver.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
        },
      });
      const lines: string[] = [];
      const logStream = new Writable({
        write(chunk, _encoding, done) {
          lines.push(...String(chunk).split('\n').filter(Boolean));
          done();
        },
      });
      // The same database, another MFA_KEY: the process starts and logs why web push cannot work.
      const other = await secondProcess(
        t,
        { notifyAllowPrivate: true, mfaKey: 'another-mfa-key-another-mfa-key-another-01', logLevel: 'info' },
        { logStream },
      );
      try {
        expect(lines.some((l) => l.includes(VAPID_SEALED_ELSEWHERE) && JSON.parse(l).level === 50)).toBe(true);
        const list = await other.inject({
          method: 'GET',
          url: '/api/v1/notification-channels',
          headers: api.session.headers,
        });
        expect(list.statusCode).toBe(200);
        expect(list.json<ChannelList>().webPushKey).toBeNull();
        const before = hook.received.filter((r) => r.path === '/push/old-key').length;
        const tried = await other.inject({
          method: 'POST',
          url: `/api/v1/notification-channels/${channel.id}/test`,
          headers: api.session.headers,
        });
        expect(tried.statusCode, tried.body).toBe(200);
        expect(tried.json<NotificationDelivery>()).toMatchObject({
          status: 'gave_up',
          lastError: VAPID_SEALED_ELSEWHERE,
        });
        expect(hook.received.filter((r) => r.path === '/push/old-key')).toHaveLength(before);
        // The process with the right key still sends it.
        expect((await testSend(api, channel.id)).status).toBe('sent');
      } finally {
        await other.close();
      }
    },
  );

  it('retries with growing waits, gives up, pauses a channel failing 3 days and tells the owner elsewhere', {
    timeout: 120_000,
  }, async () => {
    const api = await user();
    const p = path();
    const failing = await addChannel(api, {
      kind: 'webhook',
      name: 'Flaky',
      url: `${hook.url}${p}`,
      events: ['due_soon'],
    });
    const backup = await addChannel(api, {
      kind: 'ntfy',
      name: 'Backup',
      url: `${hook.url}/backup`,
      events: ['overdue'],
    });
    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    await createEntry(api, { dueDate: today, date: today, amount: 80 });
    hook.state.status = 503;
    try {
      expect(await t.app.notifications.recordDue()).toBe(1);
      await t.app.notifications.runOnce();
      let [d] = await deliveries(api, `?channelId=${failing.id}`);
      expect(d).toMatchObject({
        status: 'failed',
        attempts: 1,
        lastError: 'answered 503: receiver down',
        event: 'due_soon',
      });
      const firstTry = t.clock.now();
      expect(Date.parse(`${d?.nextTry}Z`)).toBe(Math.floor((firstTry + BACKOFF_START) / 1000) * 1000);
      // Not due before its next try.
      expect(await t.app.notifications.runOnce()).toEqual({ sent: 0, failed: 0, gaveUp: 0 });
      t.clock.advance(BACKOFF_START);
      await t.app.notifications.runOnce();
      [d] = await deliveries(api, `?channelId=${failing.id}`);
      expect(d?.attempts).toBe(2);
      expect(Date.parse(`${d?.nextTry}Z`) - Math.floor(t.clock.now() / 1000) * 1000).toBe(2 * BACKOFF_START);
      // Nothing arrives twice for one event: the hourly job again queues nothing new.
      expect(await t.app.notifications.recordDue()).toBe(0);
      // Keeps trying past a day, then gives up and pauses the channel (read from the table: no session lasts days).
      const stored = () =>
        t.app.db
          .selectFrom('notification_messages')
          .select(['status', 'attempts'])
          .where('channel_id', '=', failing.id)
          .executeTakeFirstOrThrow();
      let tries = 2;
      while (t.clock.now() - firstTry < GIVE_UP_AFTER) {
        t.clock.advance(6 * 3_600_000);
        await t.app.notifications.runOnce();
        const row = await stored();
        if (row.status === 'failed') tries = row.attempts;
        if (t.clock.now() - firstTry < DAY) expect(row.status).toBe('failed');
      }
      expect(tries).toBeGreaterThan(8);
      [d] = await deliveries(api, `?channelId=${failing.id}`);
      expect(d?.status).toBe('gave_up');
      expect(PAUSE_AFTER).toBe(GIVE_UP_AFTER);
      const channels = (await request(api, 'GET', '/notification-channels')).json<ChannelList>().channels;
      expect(channels.find((c) => c.id === failing.id)?.pausedAt).not.toBeNull();
      expect(channels.find((c) => c.id === backup.id)?.pausedAt).toBeNull();
      const told = (await deliveries(api, `?channelId=${backup.id}`))[0];
      expect(told).toMatchObject({ event: 'channel_paused', title: 'Notification channel “Flaky” paused' });
      // A paused channel hears nothing new, and its test button says so.
      expect((await request(api, 'POST', `/notification-channels/${failing.id}/test`)).statusCode).toBe(409);
    } finally {
      hook.state.status = 200;
    }
    // Resumed, and the given-up message sent again from the log.
    expect(
      (await request(api, 'PATCH', `/notification-channels/${failing.id}`, { paused: false })).json().pausedAt,
    ).toBeNull();
    const [gaveUp] = await deliveries(api, `?channelId=${failing.id}`);
    const again = await request(api, 'POST', `/notification-deliveries/${gaveUp?.id}/send-again`);
    expect(again.json()).toMatchObject({ status: 'pending' });
    await t.app.notifications.runOnce();
    expect((await deliveries(api, `?channelId=${failing.id}`))[0]).toMatchObject({ status: 'sent' });
    expect((await request(api, 'POST', `/notification-deliveries/${gaveUp?.id}/send-again`)).statusCode).toBe(409);
    expect(hooksAt(p, failing.secret as string).every((m) => m.id === `msg_${gaveUp?.id}`)).toBe(true);
  });

  it(
    'tells ledger members who chose them about scheduled invoices, autopay, imports and new members',
    SLOW,
    async () => {
      const owner = await user();
      const member = await newMember(t.app);
      const ledger = await createLedger(owner, 'Flat');
      const ownerPath = path();
      const memberPath = path();
      const ownerHook = await addChannel(owner, { kind: 'webhook', name: 'Owner', url: `${hook.url}${ownerPath}` });
      const memberHook = await addChannel(member, {
        kind: 'webhook',
        name: 'Member',
        url: `${hook.url}${memberPath}`,
        events: ['schedule_invoice'],
      });
      const memberId = await join(owner, ledger.id, member, 'editor');
      const inLedger: Api = {
        app: t.app,
        session: {
          ...owner.session,
          headers: { ...owner.session.headers, 'billfold-ledger': String(ledger.id) } as never,
        },
      };
      const bill = await createBill(inLedger, { name: 'Landlord' });
      await createSchedule(inLedger, bill.id, { firstDate: '2026-11-20', dueDays: 0, autopay: 'bank|ach' });
      const csv = multipart(
        { name: 'bank.csv', content: 'Posted Date,Payee,Memo,Amount\n01/05/2026,Power Co,January bill,-12.50\n' },
        {},
      );
      const imported = await t.app.inject({
        method: 'POST',
        url: '/api/v1/imports',
        headers: { ...inLedger.session.headers, ...csv.headers },
        payload: csv.payload,
      });
      expect(imported.statusCode, imported.body).toBe(200);
      await t.app.notifications.runOnce();
      const ownerGot = hooksAt(ownerPath, ownerHook.secret as string);
      expect(ownerGot.map((m) => m.type).sort()).toEqual([
        'autopay',
        'import_finished',
        'member_joined',
        'schedule_invoice',
      ]);
      expect(ownerGot.find((m) => m.type === 'import_finished')?.data).toMatchObject({
        ledgerId: ledger.id,
        fileName: 'bank.csv',
        invoices: 1,
      });
      expect(ownerGot.find((m) => m.type === 'member_joined')?.data).toMatchObject({
        ledgerId: ledger.id,
        userId: memberId,
      });
      expect(ownerGot.find((m) => m.type === 'schedule_invoice')?.data).toMatchObject({
        name: 'Landlord',
        amount: 1250,
      });
      // The member chose scheduled invoices only, and is not told about their own joining.
      expect(hooksAt(memberPath, memberHook.secret as string).map((m) => m.type)).toEqual(['schedule_invoice']);
      // The hourly run again creates nothing new, so nothing more is queued.
      await t.app.schedules.run(t.clock.now());
      await t.app.notifications.runOnce();
      expect(hooksAt(ownerPath, ownerHook.secret as string)).toHaveLength(4);
    },
  );

  it(
    'sends again only the caller’s own delivery: another user’s, a fellow member’s or a viewer’s is 404',
    SLOW,
    async () => {
      const down = await startReceiver();
      down.state.status = 503;
      try {
        const owner = await user();
        const viewer = await newMember(t.app);
        const stranger = await user();
        const ledger = await createLedger(owner, 'Send again');
        await addChannel(owner, {
          kind: 'webhook',
          name: 'Owner down',
          url: `${down.url}/owner`,
          events: ['schedule_invoice'],
        });
        await addChannel(viewer, {
          kind: 'webhook',
          name: 'Viewer down',
          url: `${down.url}/viewer`,
          events: ['schedule_invoice'],
        });
        await join(owner, ledger.id, viewer, 'viewer');
        const inLedger = (api: Api): Api => ({
          app: t.app,
          session: {
            ...api.session,
            headers: { ...api.session.headers, 'billfold-ledger': String(ledger.id) } as never,
          },
        });
        const bill = await createBill(inLedger(owner), { name: 'Shared rent' });
        await createSchedule(inLedger(owner), bill.id, { firstDate: '2026-11-20', dueDays: 0 });
        await t.app.notifications.runOnce();
        const [ownerMsg] = await deliveries(owner);
        const [viewerMsg] = await deliveries(viewer);
        expect(ownerMsg).toMatchObject({ event: 'schedule_invoice', status: 'failed' });
        expect(viewerMsg).toMatchObject({ event: 'schedule_invoice', status: 'failed' });
        const sendAgain = (api: Api, id: number | undefined) =>
          request(api, 'POST', `/notification-deliveries/${id}/send-again`);
        for (const [api, id] of [
          [stranger, ownerMsg?.id], // another user's
          [viewer, ownerMsg?.id], // the ledger owner's, asked by a viewer of that ledger
          [inLedger(viewer), ownerMsg?.id], // the same, naming the ledger
          [owner, viewerMsg?.id], // a viewer's, asked by the ledger's owner
          [inLedger(owner), viewerMsg?.id],
        ] as const) {
          const res = await sendAgain(api, id);
          expect(res.statusCode, res.body).toBe(404);
          expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Delivery not found.' });
        }
        // Nothing changed: both still wait for their next try.
        expect((await deliveries(owner))[0]).toMatchObject({ id: ownerMsg?.id, status: 'failed', attempts: 1 });
        expect((await deliveries(viewer))[0]).toMatchObject({ id: viewerMsg?.id, status: 'failed', attempts: 1 });
        // A viewer's own delivery is theirs to send again: the log is the user's, not the ledger's.
        down.state.status = 200;
        const own = await sendAgain(inLedger(viewer), viewerMsg?.id);
        expect(own.statusCode, own.body).toBe(200);
        await t.app.notifications.runOnce();
        expect((await deliveries(viewer))[0]).toMatchObject({ id: viewerMsg?.id, status: 'sent' });
        expect(down.received.filter((r) => r.path === '/viewer')).toHaveLength(2);
        expect(down.received.filter((r) => r.path === '/owner')).toHaveLength(1);
      } finally {
        await down.close();
      }
    },
  );

  it('sends each message once while two processes send at the same moment', SLOW, async () => {
    const api = await user();
    const p = path();
    const channel = await addChannel(api, {
      kind: 'webhook',
      name: 'Busy',
      url: `${hook.url}${p}`,
      events: ['due_soon'],
      daysAhead: 30,
    });
    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    const bill = await createBill(api);
    for (let i = 0; i < 45; i++)
      await createEntry(api, { billId: bill.id, date: today, dueDate: today, amount: 10 + i });
    await t.app.notifications.recordDue();
    expect(await deliveries(api, `?channelId=${channel.id}`)).toHaveLength(45);
    const second = await secondProcess(t, { notifyAllowPrivate: true, notifyTimeoutSeconds: 20 });
    hook.state.delayMs = 20;
    try {
      // Three passes of each process at once take disjoint batches of at most 20.
      const runs = await Promise.all(
        [0, 1, 2].flatMap(() => [t.app.notifications.runOnce(), second.notifications.runOnce()]),
      );
      // (Messages of earlier tests' channels may go out in the same passes.)
      expect(runs.reduce((n, r) => n + r.sent + r.failed + r.gaveUp, 0)).toBeGreaterThanOrEqual(45);
      expect(runs.filter((r) => r.sent > 0).length).toBeGreaterThanOrEqual(3);
    } finally {
      hook.state.delayMs = 0;
      await second.close();
    }
    const got = hooksAt(p, channel.secret as string);
    expect(got).toHaveLength(45);
    expect(new Set(got.map((m) => m.id)).size).toBe(45);
  });

  it('refuses private addresses unless the server allows them, when saved and when sent', SLOW, async () => {
    const strict = await secondProcess(t, { notifyAllowPrivate: false, notifyTimeoutSeconds: 2 });
    try {
      const api: Api = { app: strict, session: await signUp(strict) };
      for (const url of [
        'http://127.0.0.1:9/x',
        'http://[::1]/x',
        'http://169.254.169.254/latest',
        'http://10.1.2.3/',
        'http://localhost:8080/',
        'http://[::ffff:192.168.1.1]/',
      ]) {
        const res = await request(api, 'POST', '/notification-channels', {
          kind: 'webhook',
          name: 'Inside',
          url,
          events: [],
        });
        expect(res.statusCode, url).toBe(400);
        expect(res.json().code).toBe('CHANNEL_ADDRESS_REFUSED');
      }
      expect(
        await strict.db.selectFrom('notification_channels').select('id').where('name', '=', 'Inside').execute(),
      ).toEqual([]);
      // A channel saved where private addresses were allowed is not reached by a process that refuses them.
      const owner = await user();
      const channel = await addChannel(owner, { kind: 'webhook', name: 'Local', url: `${hook.url}/strict` });
      const before = hook.received.length;
      const probe = await t.app.db
        .insertInto('notification_messages')
        .values({
          channel_id: channel.id,
          user_id: (
            await t.app.db
              .selectFrom('notification_channels')
              .select('user_id')
              .where('id', '=', channel.id)
              .executeTakeFirstOrThrow()
          ).user_id,
          event_key: 'probe',
          event: 'test',
          title: 't',
          body: 'b',
          data: '{}',
          status: 'pending',
          attempts: 0,
          last_error: null,
          next_attempt_at: t.clock.now(),
          claim_token: null,
          lease_until: null,
          created_at: t.clock.now(),
          sent_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await strict.notifications.runOnce(Number(probe.id));
      expect(hook.received.length).toBe(before);
      const [d] = await deliveries(owner, `?channelId=${channel.id}`);
      expect(d).toMatchObject({ status: 'gave_up', lastError: '127.0.0.1 is a private or loopback address' });
    } finally {
      await strict.close();
    }
  });
});
