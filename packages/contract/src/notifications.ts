/**
 * Notification channels and their delivery log (`/notification-channels`, `/notification-deliveries`): where a
 * user hears about events, and what was sent there (docs/decisions/1150-notification-outbox.md). A channel's
 * secret (webhook signing secret, ntfy or Gotify token, push keys) is never answered after creation.
 */
import { z } from 'zod';
import { nameText, timestamp } from './primitives.ts';

export const CHANNEL_KINDS = ['email', 'webhook', 'ntfy', 'gotify', 'webpush'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];
export const channelKind = z.enum(CHANNEL_KINDS);

/**
 * What a channel may choose to hear: invoices due within its days ahead, invoices that became overdue, an invoice a
 * recurring schedule created, an automatic payment recorded, a CSV import finished, a member joined a ledger, a
 * recurring bill's new amount up by more than the server's threshold (docs/decisions/0215-price-increase-event.md),
 * and (email channels only) the daily digest of what is overdue and due within its days ahead, the reminder mail
 * (docs/decisions/1154-reminder-digest-channel.md).
 */
export const NOTIFICATION_EVENTS = [
  'due_soon',
  'overdue',
  'schedule_invoice',
  'autopay',
  'import_finished',
  'member_joined',
  'price_increase',
  'digest',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];
export const notificationEvent = z.enum(NOTIFICATION_EVENTS);

export const DELIVERY_STATUSES = ['pending', 'sent', 'failed', 'gave_up'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const MAX_CHANNELS = 20;
export const MAX_CHANNEL_NAME = 100;
export const MAX_CHANNEL_URL = 2000;
export const MAX_CHANNEL_TOKEN = 500;
export const CHANNEL_DAYS_DEFAULT = 3;
export const MAX_CHANNEL_DAYS = 30;

const url = z
  .string()
  .trim()
  .max(MAX_CHANNEL_URL, `must be at most ${MAX_CHANNEL_URL} characters`)
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'https:' || u.protocol === 'http:') && u.username === '' && u.password === '';
    } catch {
      return false;
    }
  }, 'must be an http:// or https:// address without a user name or password');
const token = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(MAX_CHANNEL_TOKEN, `must be at most ${MAX_CHANNEL_TOKEN} characters`)
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');
const base64url = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_-]+=*$/, 'must be base64url');

const events = z
  .array(notificationEvent)
  .max(NOTIFICATION_EVENTS.length)
  .transform((list) => NOTIFICATION_EVENTS.filter((e) => list.includes(e)));
/** The daily digest is a mail: only an email channel may choose it. */
export const DIGEST_EMAIL_ONLY = 'may include digest only on an email channel';
const nonEmailEvents = events.refine((list) => !list.includes('digest'), DIGEST_EMAIL_ONLY);
const daysAhead = z.number().int().min(1).max(MAX_CHANNEL_DAYS);
const channelName = nameText(MAX_CHANNEL_NAME).pipe(z.string().min(1, 'is required'));

const common = { name: channelName, events: nonEmailEvents, daysAhead: daysAhead.optional() };

/** A new channel: its kind's address and secret. A webhook's signing secret is made by the server. */
export const createChannelBody = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('email'), ...common, events }),
  z.object({ kind: z.literal('webhook'), ...common, url }),
  z.object({ kind: z.literal('ntfy'), ...common, url, token: token.nullish() }),
  z.object({ kind: z.literal('gotify'), ...common, url, token }),
  z.object({
    kind: z.literal('webpush'),
    ...common,
    /** The browser's `PushSubscription` as `toJSON()` gives it. */
    subscription: z.object({
      endpoint: url,
      keys: z.object({ p256dh: base64url, auth: base64url }),
    }),
  }),
]);

/** A change: its name, events, days ahead, or `paused: false` to resume it after it was paused. */
export const updateChannelBody = z
  .object({
    name: channelName.optional(),
    events: events.optional(),
    daysAhead: daysAhead.optional(),
    paused: z.boolean().optional(),
  })
  .strict();

/** A channel as listed: never its secret, only whether it has one. */
export const notificationChannel = z.object({
  id: z.number().int(),
  kind: channelKind,
  name: z.string(),
  /** The receiver's address; null for email (the account's verified address). */
  url: z.string().nullable(),
  hasToken: z.boolean(),
  events: z.array(notificationEvent),
  daysAhead: z.number().int(),
  /** Failing since (first failure after the last success); null while it works. */
  failingSince: timestamp.nullable(),
  /** Paused after failing for 3 days: nothing is queued or sent until it is resumed. */
  pausedAt: timestamp.nullable(),
  createdAt: timestamp,
});
export const channelList = z.object({
  channels: z.array(notificationChannel),
  /** Whether the server can send mail (an email channel needs it). */
  emailConfigured: z.boolean(),
  /**
   * The server's VAPID public key (base64url) for `PushManager.subscribe`; null when its key pair cannot be opened
   * (it was sealed under another `MFA_KEY`): web push cannot be added or sent then.
   */
  webPushKey: z.string().nullable(),
});
/** The answer to making a webhook channel carries its signing secret, this once. */
export const createdChannel = notificationChannel.extend({ secret: z.string().optional() });

export const notificationDelivery = z.object({
  id: z.number().int(),
  channelId: z.number().int(),
  channelName: z.string(),
  channelKind: channelKind,
  event: z.string(),
  title: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  /** When it is tried next; null once sent or given up. */
  nextTry: timestamp.nullable(),
  createdAt: timestamp,
  sentAt: timestamp.nullable(),
});
export const deliveryList = z.object({ deliveries: z.array(notificationDelivery) });
export const deliveryQuery = z.object({
  channelId: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export type CreateChannelBody = z.input<typeof createChannelBody>;
export type NewChannel = z.output<typeof createChannelBody>;
export type UpdateChannelBody = z.input<typeof updateChannelBody>;
export type ChannelChange = z.output<typeof updateChannelBody>;
export type NotificationChannel = z.infer<typeof notificationChannel>;
export type ChannelList = z.infer<typeof channelList>;
export type CreatedChannel = z.infer<typeof createdChannel>;
export type NotificationDelivery = z.infer<typeof notificationDelivery>;
export type DeliveryList = z.infer<typeof deliveryList>;
