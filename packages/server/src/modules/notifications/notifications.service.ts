import { randomBytes } from 'node:crypto';
import { toApiTimestamp } from '@billfold/contract/dates';
import {
  CHANNEL_DAYS_DEFAULT,
  type ChannelChange,
  type ChannelKind,
  type ChannelList,
  type CreatedChannel,
  type DeliveryStatus,
  DIGEST_EMAIL_ONLY,
  MAX_CHANNELS,
  type NewChannel,
  type NotificationChannel,
  type NotificationDelivery,
  type NotificationEvent,
} from '@billfold/contract/notifications';
import { badRequest, conflict, notFound } from '../../lib/http-error.ts';
import { checkHost, OutboundError } from '../../lib/outbound.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { tooManyChannels } from './channel-limit.ts';
import type { NotificationSender } from './notification-sender.ts';
import type { NotificationsRepository } from './notifications.repository.ts';

export interface NotificationsOptions {
  allowPrivate: boolean;
  emailConfigured: boolean;
  vapid: () => Promise<{ publicKey: string }>;
  now: () => number;
}

type ChannelRow = NonNullable<Awaited<ReturnType<NotificationsRepository['channelById']>>>;
type DeliveryRow = Awaited<ReturnType<NotificationsRepository['deliveries']>>[number];

const stamp = (ms: number | null) => (ms === null ? null : toApiTimestamp(new Date(Number(ms))));
const eventList = (events: NotificationEvent[]) => `,${events.join(',')},`;

function toChannel(row: ChannelRow): NotificationChannel {
  return {
    id: Number(row.id),
    kind: row.kind as ChannelKind,
    name: row.name,
    url: row.url,
    hasToken: row.secret !== null && row.kind !== 'webpush',
    events: row.events.split(',').filter((e) => e !== '') as NotificationEvent[],
    daysAhead: row.days_ahead,
    failingSince: stamp(row.failing_since),
    pausedAt: stamp(row.paused_at),
    createdAt: toApiTimestamp(new Date(Number(row.created_at))),
  };
}

function toDelivery(row: DeliveryRow): NotificationDelivery {
  return {
    id: Number(row.id),
    channelId: Number(row.channel_id),
    channelName: row.channel_name,
    channelKind: row.channel_kind as ChannelKind,
    event: row.event,
    title: row.title,
    status: row.status as DeliveryStatus,
    attempts: row.attempts,
    lastError: row.last_error,
    nextTry: stamp(row.next_attempt_at),
    createdAt: toApiTimestamp(new Date(Number(row.created_at))),
    sentAt: stamp(row.sent_at),
  };
}

/** A user's notification channels and delivery log (docs/decisions/1150-notification-outbox.md). */
export class NotificationsService {
  constructor(
    private readonly repo: NotificationsRepository,
    private readonly box: SecretBox,
    private readonly sender: NotificationSender,
    private readonly options: NotificationsOptions,
  ) {}

  async list(userId: number): Promise<ChannelList> {
    // Keys sealed under another MFA_KEY do not open: the list still answers, without web push (the start logged why).
    const [rows, vapid] = await Promise.all([this.repo.channels(userId), this.options.vapid().catch(() => null)]);
    return {
      channels: rows.map(toChannel),
      emailConfigured: this.options.emailConfigured,
      webPushKey: vapid?.publicKey ?? null,
    };
  }

  private async own(userId: number, id: number): Promise<ChannelRow> {
    const row = await this.repo.channel(userId, id);
    if (!row) throw notFound('Notification channel not found.');
    return row;
  }

  /** The channel's address may not reach the server's own network (docs/decisions/1153-outbound-addresses.md). */
  private async checkAddress(url: string): Promise<void> {
    try {
      await checkHost(url, this.options.allowPrivate);
    } catch (err) {
      if (err instanceof OutboundError) {
        throw badRequest(`This address cannot be used: ${err.message}.`, 'CHANNEL_ADDRESS_REFUSED');
      }
      throw err;
    }
  }

  async create(userId: number, body: NewChannel): Promise<CreatedChannel> {
    if (body.kind === 'email' && !this.options.emailConfigured) {
      throw conflict('Email is not configured on this server.', 'EMAIL_NOT_CONFIGURED');
    }
    let url: string | null = null;
    let secret: string | null = null;
    let shown: string | undefined;
    switch (body.kind) {
      case 'webhook':
        url = body.url;
        shown = `whsec_${randomBytes(24).toString('base64')}`;
        secret = shown;
        break;
      case 'ntfy':
        url = body.url;
        secret = body.token ?? null;
        break;
      case 'gotify':
        url = body.url;
        secret = body.token;
        break;
      case 'webpush':
        url = body.subscription.endpoint;
        secret = JSON.stringify(body.subscription.keys);
        break;
      case 'email':
        break;
    }
    if (url !== null) await this.checkAddress(url);
    const now = this.options.now();
    const id = await this.repo.transaction(async (repo) => {
      if ((await repo.events().countChannels(userId)) >= MAX_CHANNELS) {
        throw tooManyChannels();
      }
      return repo.insertChannel({
        user_id: userId,
        kind: body.kind,
        name: body.name,
        url,
        secret: secret === null ? null : this.box.seal(secret, userId),
        events: eventList(body.events),
        days_ahead: body.daysAhead ?? CHANNEL_DAYS_DEFAULT,
        failing_since: null,
        paused_at: null,
        created_at: now,
        updated_at: now,
      });
    });
    const channel = toChannel(await this.own(userId, id));
    return shown === undefined ? channel : { ...channel, secret: shown };
  }

  async update(userId: number, id: number, change: ChannelChange): Promise<NotificationChannel> {
    const row = await this.own(userId, id);
    if (row.kind !== 'email' && change.events?.includes('digest')) {
      throw badRequest(`Events ${DIGEST_EMAIL_ONLY}.`, 'VALIDATION_FAILED');
    }
    await this.repo.updateChannel(id, {
      ...(change.name === undefined ? {} : { name: change.name }),
      ...(change.events === undefined ? {} : { events: eventList(change.events) }),
      ...(change.daysAhead === undefined ? {} : { days_ahead: change.daysAhead }),
      ...(change.paused === undefined
        ? {}
        : change.paused
          ? { paused_at: this.options.now() }
          : { paused_at: null, failing_since: null }),
      updated_at: this.options.now(),
    });
    if (change.paused === false) this.sender.wake();
    return toChannel(await this.own(userId, id));
  }

  async remove(userId: number, id: number): Promise<void> {
    if (!(await this.repo.deleteChannel(userId, id))) throw notFound('Notification channel not found.');
  }

  /** Queues a test message for the channel and sends it at once; answers how it went (also in the log). */
  async test(userId: number, id: number): Promise<NotificationDelivery> {
    const channel = await this.own(userId, id);
    if (channel.paused_at !== null) throw conflict('The channel is paused: resume it first.');
    const now = this.options.now();
    const key = `test:${randomBytes(9).toString('base64url')}`;
    await this.repo.events().record(
      { userIds: [userId] },
      'test',
      () => ({
        key,
        title: 'Test notification',
        body: `This is a test from Billfold to your ${channel.kind} channel “${channel.name}”. It works.`,
        data: { channelId: id },
      }),
      now,
      [id],
    );
    const row = await this.repo.messageByKey(id, key);
    if (!row) throw conflict('The test message could not be queued.');
    await this.sender.runOnce(Number(row.id));
    return this.delivery(userId, Number(row.id));
  }

  private async delivery(userId: number, id: number): Promise<NotificationDelivery> {
    const row = (await this.repo.deliveries(userId, 1, undefined, id))[0];
    if (!row) throw notFound('Delivery not found.');
    return toDelivery(row);
  }

  async deliveries(userId: number, limit: number, channelId?: number): Promise<NotificationDelivery[]> {
    return (await this.repo.deliveries(userId, limit, channelId)).map(toDelivery);
  }

  /** A failed or given-up message is tried again now (its attempts count on). */
  async sendAgain(userId: number, id: number): Promise<NotificationDelivery> {
    const found = await this.repo.messageOf(userId, id);
    if (!found) throw notFound('Delivery not found.');
    if (!(await this.repo.sendAgain(userId, id, this.options.now()))) {
      throw conflict('Only a failed or given-up delivery can be sent again.');
    }
    this.sender.wake();
    return this.delivery(userId, id);
  }
}
