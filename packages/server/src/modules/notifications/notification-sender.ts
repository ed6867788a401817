import { randomUUID } from 'node:crypto';
import { addDays, utcDate } from '@billfold/contract/dates';
import { formatUsd, fromCents } from '@billfold/contract/money';
import type { FastifyBaseLogger } from 'fastify';
import type { SecretBox } from '../../lib/secret-box.ts';
import { DAY, HOUR, MINUTE } from '../../lib/time.ts';
import { type DeliveryContext, DeliveryFailed, deliver, type OpenChannel } from './deliver.ts';
import type { NotificationsRepository } from './notifications.repository.ts';

/** The first retry after a failure; each next one waits twice as long, at most `BACKOFF_CAP` (ADR 1151). */
export const BACKOFF_START = MINUTE;
export const BACKOFF_CAP = 6 * HOUR;
/** A message still failing this long after it was made gives up (it may be sent again from the log). */
export const GIVE_UP_AFTER = 3 * DAY;
/** A channel failing this long without one success is paused and its owner told (ADR 1152). */
export const PAUSE_AFTER = 3 * DAY;
/** Overdue invoices are told about when they fell due at most this many days ago (a new channel is not flooded). */
export const OVERDUE_LOOKBACK_DAYS = 7;
const BATCH = 20;

/** The wait before try number `attempts + 1`, after `attempts` failed tries. */
export function backoff(attempts: number): number {
  return Math.min(BACKOFF_START * 2 ** Math.max(0, attempts - 1), BACKOFF_CAP);
}

export interface SenderOptions {
  /** How long a claim is held: three times the request deadline, so a live sender always settles in time. */
  leaseMs: number;
  /** How often the loop looks for due messages. */
  pollMs: number;
  log: FastifyBaseLogger;
}

export interface SendRun {
  sent: number;
  failed: number;
  gaveUp: number;
}

type Claimed = Awaited<ReturnType<NotificationsRepository['claim']>>[number];

/**
 * The outbox's sender (docs/decisions/1150-notification-outbox.md): claims due messages with a lease, sends each
 * over its channel, and settles it: sent, failed with a next try (exponential backoff), or given up. Any number of
 * processes run one; `stop` takes no new claims and waits for the sends in flight.
 */
export class NotificationSender {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<SendRun> | null = null;
  private stopped = false;
  private again = false;

  constructor(
    private readonly repo: NotificationsRepository,
    private readonly box: SecretBox,
    private readonly ctx: DeliveryContext,
    private readonly options: SenderOptions,
  ) {}

  /** Sends what is due every `pollMs` until `stop`. */
  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Runs a pass now (or right after the one running): a request that queued a message calls it. */
  wake(): void {
    if (this.stopped || !this.timer) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.runUntilIdle().finally(() => {
      this.running = null;
    });
  }

  private async runUntilIdle(): Promise<SendRun> {
    const total: SendRun = { sent: 0, failed: 0, gaveUp: 0 };
    for (;;) {
      this.again = false;
      let run: SendRun;
      try {
        run = await this.runOnce();
      } catch (err) {
        this.options.log.error({ err }, 'notification pass failed');
        return total;
      }
      total.sent += run.sent;
      total.failed += run.failed;
      total.gaveUp += run.gaveUp;
      const busy = run.sent + run.failed + run.gaveUp >= BATCH;
      if (this.stopped || !(busy || this.again)) return total;
    }
  }

  /** Takes no new claims and waits for the pass in flight: its claims are settled before the database closes. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass: claims up to a batch of due messages and sends them side by side. */
  async runOnce(onlyId?: number): Promise<SendRun> {
    const token = randomUUID();
    const now = this.ctx.now();
    // One statement: atomic by itself on both databases (no transaction held open across the sends).
    const claimed = await this.repo.claim(token, now, this.options.leaseMs, BATCH, onlyId);
    const run: SendRun = { sent: 0, failed: 0, gaveUp: 0 };
    await Promise.all(
      claimed.map(async (m) => {
        const outcome = await this.send(m, token);
        run[outcome] += 1;
      }),
    );
    return run;
  }

  private openSecret(sealed: string, owner: number): string {
    try {
      return this.box.open(sealed, owner);
    } catch {
      throw new DeliveryFailed('the channel’s secret does not decrypt: MFA_KEY is not the key it was sealed with');
    }
  }

  private async open(m: Claimed): Promise<OpenChannel | null> {
    const channel = await this.repo.channelById(Number(m.channel_id));
    if (!channel) return null;
    const owner = Number(channel.user_id);
    // The server's push keys first: when they do not open, that is the reason to log, not the subscription's.
    if (channel.kind === 'webpush') await this.ctx.vapid();
    const open: OpenChannel = {
      kind: channel.kind,
      url: channel.url,
      secret: channel.secret === null ? null : this.openSecret(channel.secret, owner),
    };
    if (channel.kind === 'email') {
      const address = await this.repo.email(owner);
      open.email = { address: address.email, verified: address.verified };
    }
    return open;
  }

  private async send(m: Claimed, token: string): Promise<keyof SendRun> {
    const id = Number(m.id);
    const attempts = m.attempts + 1;
    let error: string | null = null;
    try {
      const channel = await this.open(m);
      if (!channel) return 'gaveUp';
      await deliver(
        channel,
        { id, event: m.event, title: m.title, body: m.body, data: m.data, createdAt: Number(m.created_at) },
        this.ctx,
      );
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const now = this.ctx.now();
    const channelId = Number(m.channel_id);
    if (error === null) {
      await this.repo.settle(id, token, {
        status: 'sent',
        attempts,
        lastError: null,
        nextAttemptAt: null,
        sentAt: now,
      });
      await this.repo.channelWorks(channelId);
      return 'sent';
    }
    // A test message is tried once: it answers the test button, and never counts against its channel.
    const giveUp = m.event === 'test' || now - Number(m.created_at) >= GIVE_UP_AFTER;
    await this.repo.settle(id, token, {
      status: giveUp ? 'gave_up' : 'failed',
      attempts,
      lastError: error.slice(0, 500),
      nextAttemptAt: giveUp ? null : now + backoff(attempts),
      sentAt: null,
    });
    if (m.event !== 'test') await this.channelFailed(channelId, now);
    return giveUp ? 'gaveUp' : 'failed';
  }

  /** Marks when the channel began failing; three days on, pauses it (once) and tells its owner elsewhere. */
  private async channelFailed(channelId: number, now: number): Promise<void> {
    const since = await this.repo.channelFails(channelId, now);
    if (since === null || now - since < PAUSE_AFTER) return;
    await this.repo.transaction(async (repo) => {
      const channel = await repo.pause(channelId, now);
      if (!channel) return;
      await repo.giveUpChannel(channelId, 'the channel was paused after failing for 3 days');
      const others = (await repo.channels(Number(channel.user_id)))
        .filter((c) => c.paused_at === null && Number(c.id) !== channelId)
        .map((c) => Number(c.id));
      await repo.events().record(
        { userIds: [Number(channel.user_id)] },
        'channel_paused',
        () => ({
          key: `channel_paused:${channelId}:${now}`,
          title: `Notification channel “${channel.name}” paused`,
          body: `Billfold could not deliver to your ${channel.kind} channel “${channel.name}” for 3 days, so it is paused. Check its settings on the Account page and resume it there.`,
          data: { channelId, channelName: channel.name },
        }),
        now,
        others,
      );
    });
    this.options.log.warn({ channelId }, 'notification channel paused after failing for 3 days');
  }

  /**
   * The day's due-soon and overdue messages (the hourly job): for each active channel that chose them, one message
   * per unpaid invoice of the owner's ledgers falling due within its days ahead, or that fell due in the last week.
   * The key (invoice and due date) makes each go out once per channel, whichever process runs the job.
   */
  async recordDue(): Promise<number> {
    const now = this.ctx.now();
    const today = utcDate(now);
    let queued = 0;
    for (const c of await this.repo.dueChannels()) {
      const userId = Number(c.user_id);
      const wants = (e: string) => c.events.includes(`,${e},`);
      const invoices = await this.repo.dueInvoices(
        userId,
        addDays(today, -OVERDUE_LOOKBACK_DAYS),
        addDays(today, c.days_ahead),
      );
      for (const inv of invoices) {
        const dueDate = inv.due_date as string;
        const overdue = dueDate < today;
        const event = overdue ? 'overdue' : 'due_soon';
        if (!wants(event)) continue;
        const side = inv.flow === 'INCOMING' ? 'to collect' : 'to pay';
        const amount = formatUsd(fromCents(inv.balance_cents));
        queued += await this.repo.events().record(
          { userIds: [userId] },
          event,
          () => ({
            key: `${event}:${inv.id}:${dueDate}`,
            title: overdue
              ? `Overdue: #${inv.invoice_number} ${inv.bill_name}`
              : `Due ${dueDate === today ? 'today' : dueDate}: #${inv.invoice_number} ${inv.bill_name}`,
            body: `Invoice #${inv.invoice_number} of ${inv.bill_name} (${inv.ledger_name}): ${amount} ${side}, due ${dueDate}.`,
            data: {
              ledgerId: Number(inv.ledger_id),
              ledgerName: inv.ledger_name,
              entryId: Number(inv.id),
              invoiceId: inv.invoice_number,
              name: inv.bill_name,
              flow: inv.flow,
              balance: fromCents(inv.balance_cents),
              dueDate,
            },
          }),
          now,
          [Number(c.id)],
        );
      }
    }
    if (queued > 0) this.wake();
    return queued;
  }
}
