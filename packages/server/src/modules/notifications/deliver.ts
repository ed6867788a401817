import { Webhook } from 'standardwebhooks';
import webpush from 'web-push';
import { escapeHtml } from '../../lib/html.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { type OutboundOptions, type OutboundResponse, post } from '../../lib/outbound.ts';

/** A claimed message as the channels need it. */
export interface OutgoingMessage {
  id: number;
  event: string;
  title: string;
  body: string;
  data: string;
  createdAt: number;
}

/** A channel with its secret opened. */
export interface OpenChannel {
  kind: string;
  url: string | null;
  /** The webhook's `whsec_` secret, the ntfy or Gotify token, or the push subscription's keys as JSON. */
  secret: string | null;
  /** The account's address for email, and whether it is verified (mail goes to verified addresses only). */
  email?: { address: string; verified: boolean };
}

export interface DeliveryContext {
  outbound: OutboundOptions;
  mailer: Mailer | null;
  vapid: () => Promise<{ publicKey: string; privateKey: string }>;
  /** `mailto:` or https subject of the VAPID claims: the app's address, or the mail sender. */
  vapidSubject: string;
  now: () => number;
}

/** A failed delivery: its message goes to the log. */
export class DeliveryFailed extends Error {}

function expectOk(res: OutboundResponse): void {
  if (res.status >= 200 && res.status < 300) return;
  const detail = res.body.replace(/\s+/g, ' ').trim().slice(0, 200);
  if (res.status >= 300 && res.status < 400)
    throw new DeliveryFailed(`answered ${res.status}: redirects are not followed`);
  throw new DeliveryFailed(`answered ${res.status}${detail ? `: ${detail}` : ''}`);
}

/** The webhook's body: the Standard Webhooks shape, `type`, `timestamp`, `data`. */
export function webhookPayload(m: OutgoingMessage): string {
  return JSON.stringify({
    type: m.event,
    timestamp: new Date(m.createdAt).toISOString(),
    data: { title: m.title, message: m.body, ...JSON.parse(m.data) },
  });
}

/** Where a push notification's click goes: the invoice it is about, else the home page (public/sw.js opens it). */
export function pushLink(m: OutgoingMessage): string {
  const { entryId } = JSON.parse(m.data) as { entryId?: unknown };
  return Number.isSafeInteger(entryId) ? `/entries/${entryId}` : '/home';
}

/**
 * Sends one message over one channel; throws `DeliveryFailed` (or the request's error) when it did not arrive.
 * The webhook's `webhook-id` is the message's id on every try, so a receiver can drop a repeat.
 */
export async function deliver(channel: OpenChannel, m: OutgoingMessage, ctx: DeliveryContext): Promise<void> {
  switch (channel.kind) {
    case 'email': {
      if (!ctx.mailer) throw new DeliveryFailed('the server has no mail settings');
      if (!channel.email?.verified) throw new DeliveryFailed('the account’s email address is not verified');
      if (m.event === 'digest') {
        // The reminder digest was rendered whole when queued: its subject, text and HTML (digestMail).
        const { html } = JSON.parse(m.data) as { html: string };
        await ctx.mailer.send({ to: channel.email.address, subject: m.title, text: m.body, html });
        return;
      }
      await ctx.mailer.send({
        to: channel.email.address,
        subject: `Billfold: ${m.title}`,
        text: `${m.body}\n\nYou get this email because an email notification channel is on in your Billfold account.`,
        html: `<p>${escapeHtml(m.body).replace(/\n/g, '<br>')}</p><p>You get this email because an email notification channel is on in your Billfold account.</p>`,
      });
      return;
    }
    case 'webhook': {
      const payload = webhookPayload(m);
      const id = `msg_${m.id}`;
      // The signature's time is the wall clock's: receivers judge its freshness by theirs.
      const at = new Date();
      const signature = new Webhook(channel.secret ?? '').sign(id, at, payload);
      expectOk(
        await post(
          {
            url: channel.url ?? '',
            headers: {
              'content-type': 'application/json',
              'webhook-id': id,
              'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
              'webhook-signature': signature,
              'user-agent': 'Billfold',
            },
            body: payload,
          },
          ctx.outbound,
        ),
      );
      return;
    }
    case 'ntfy': {
      // ntfy's publish: the body is the message, headers carry the title and tags (docs/decisions/1150-notification-outbox.md).
      const headers: Record<string, string> = {
        'content-type': 'text/plain; charset=utf-8',
        title: encodeURIComponent(m.title),
        tags: m.event,
        'x-message-id': `msg_${m.id}`,
      };
      if (channel.secret) headers.authorization = `Bearer ${channel.secret}`;
      expectOk(await post({ url: channel.url ?? '', headers, body: m.body }, ctx.outbound));
      return;
    }
    case 'gotify': {
      const base = (channel.url ?? '').replace(/\/+$/, '');
      expectOk(
        await post(
          {
            url: `${base}/message`,
            headers: { 'content-type': 'application/json', 'x-gotify-key': channel.secret ?? '' },
            body: JSON.stringify({
              title: m.title,
              message: m.body,
              priority: 5,
              extras: { billfold: { event: m.event, id: m.id } },
            }),
          },
          ctx.outbound,
        ),
      );
      return;
    }
    case 'webpush': {
      const keys = JSON.parse(channel.secret ?? '{}') as { p256dh: string; auth: string };
      const vapid = await ctx.vapid();
      const details = webpush.generateRequestDetails(
        { endpoint: channel.url ?? '', keys },
        JSON.stringify({ title: m.title, body: m.body, event: m.event, id: m.id, url: pushLink(m) }),
        {
          vapidDetails: { subject: ctx.vapidSubject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
          contentEncoding: 'aes128gcm',
          TTL: 24 * 3600,
        },
      );
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(details.headers)) headers[name.toLowerCase()] = String(value);
      expectOk(await post({ url: details.endpoint, headers, body: details.body }, ctx.outbound));
      return;
    }
    default:
      throw new DeliveryFailed(`unknown channel kind ${channel.kind}`);
  }
}
