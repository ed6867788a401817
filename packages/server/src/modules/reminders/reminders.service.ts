import { addDays, utcDate } from '@billfold/contract/dates';
import {
  REMINDER_DAYS_DEFAULT,
  REMINDERS_NOT_CONFIGURED,
  type ReminderSettings,
  type ReminderSettingsBody,
} from '@billfold/contract/due';
import { fromCents } from '@billfold/contract/money';
import { MAX_CHANNELS } from '@billfold/contract/notifications';
import { conflict } from '../../lib/http-error.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { DueRepository } from '../due/due.repository.ts';
import { dueGroup } from '../due/due-group.ts';
import type { EmailVerificationService } from '../email-verification/email-verification.service.ts';
import { tooManyChannels } from '../notifications/channel-limit.ts';
import { type DigestEntry, type DigestGroup, digestMail } from './reminder-mail.ts';
import { digestKey, type RemindersRepository } from './reminders.repository.ts';

/** Digests go out from 07:00 UTC unless `REMINDER_HOUR` says otherwise. */
export const DEFAULT_REMINDER_HOUR = 7;

/** Invoices each group of a digest lists; the rest are counted. */
export const DIGEST_LIST = 20;

export interface RemindersOptions {
  /** Null when `SMTP_URL` and `MAIL_FROM` are not both set: reminders are then not configured. */
  mailer: Mailer | null;
  /** Digests go out from this hour of the day (UTC) on. */
  hourUtc: number;
  appUrl: string | null;
  now: () => number;
  /** Tells the notification sender that digests were queued. */
  wake: () => void;
}

export interface DigestRun {
  /** Digests written into the outbox (the notification sender mails them, retrying a failed send). */
  queued: number;
  /** Nothing due for them today: nothing queued, so a later run looks again. */
  nothingDue: number;
  /** Queued by another process first (the outbox's key lets one through). */
  queuedElsewhere: number;
  /** Reminders on but the address unverified and never sent a link (accounts older than verification): sent one. */
  askedToVerify: number;
}

/** The name of the email channel that turning reminders on makes. */
export const DIGEST_CHANNEL_NAME = 'Daily digest';

/**
 * E-mail reminders (docs/decisions/1003-email-reminders.md): the user's choice, and the daily digest, an email
 * notification channel's event sent through the outbox (docs/decisions/1154-reminder-digest-channel.md).
 */
export class RemindersService {
  constructor(
    private readonly repo: RemindersRepository,
    private readonly due: DueRepository,
    private readonly addresses: EmailVerificationService,
    private readonly options: RemindersOptions,
  ) {}

  get configured(): boolean {
    return this.options.mailer !== null;
  }

  async settings(userId: number): Promise<ReminderSettings> {
    const [channel, address] = await Promise.all([this.repo.digestChannel(userId), this.repo.email(userId)]);
    return {
      configured: this.configured,
      enabled: channel !== undefined,
      daysAhead: channel?.days_ahead ?? REMINDER_DAYS_DEFAULT,
      email: address.email,
      emailVerified: address.verified,
    };
  }

  /**
   * Turning them on needs a server that can send mail (409 otherwise): the user's email channel hearing the digest
   * takes the days ahead, or one is made. Turning them off always works: no email channel hears the digest.
   */
  async update(userId: number, body: ReminderSettingsBody): Promise<ReminderSettings> {
    const now = this.options.now();
    if (body.enabled === false) await this.repo.transaction((repo) => repo.dropDigest(userId, now));
    else {
      if (!this.configured) throw conflict(REMINDERS_NOT_CONFIGURED);
      await this.repo.transaction(async (repo) => {
        const current = await repo.digestChannel(userId);
        if (current) {
          if (body.daysAhead !== undefined) await repo.setDays(Number(current.id), body.daysAhead, now);
          return;
        }
        if ((await repo.events().countChannels(userId)) >= MAX_CHANNELS) throw tooManyChannels();
        await repo.addDigestChannel(userId, DIGEST_CHANNEL_NAME, body.daysAhead ?? REMINDER_DAYS_DEFAULT, now);
      });
    }
    return this.settings(userId);
  }

  /**
   * One pass of the daily digest: for each email channel hearing it with none queued today (UTC), the invoices
   * overdue and due within its days ahead; with something due, the digest is written into the notification outbox
   * under the key `digest:<day>` (one per channel and day, however many processes run this) and the sender woken,
   * which mails it and retries a failed send like any delivery. Only verified addresses get digests; an account
   * whose unverified address was never sent a link (one made before verification) is sent one, once, saying that
   * its reminders are paused until it is followed.
   */
  async sendDigests(): Promise<DigestRun> {
    const run: DigestRun = { queued: 0, nothingDue: 0, queuedElsewhere: 0, askedToVerify: 0 };
    const { mailer, now } = this.options;
    if (!mailer || new Date(now()).getUTCHours() < this.options.hourUtc) return run;
    for (const user of await this.repo.awaitingFirstLink()) {
      await this.addresses.sendLinkTo(user, this.options.appUrl, 'reminders');
      run.askedToVerify += 1;
    }
    const today = utcDate(now());
    for (const channel of await this.repo.dueForDigest(today)) {
      const userId = Number(channel.user_id);
      const [overdue, upcoming] = await this.groups(userId, today, channel.days_ahead);
      if (overdue.count === 0 && upcoming.count === 0) {
        run.nothingDue += 1;
        continue;
      }
      const mail = digestMail({
        username: channel.username,
        overdue,
        upcoming,
        appUrl: this.options.appUrl,
      });
      const queued = await this.repo.events().record(
        { userIds: [userId] },
        'digest',
        () => ({
          key: digestKey(today),
          title: mail.subject,
          body: mail.text,
          data: { day: today, overdue: overdue.count, dueSoon: upcoming.count, html: mail.html },
        }),
        now(),
        [Number(channel.id)],
      );
      if (queued > 0) run.queued += 1;
      else run.queuedElsewhere += 1;
    }
    if (run.queued > 0) this.options.wake();
    return run;
  }

  /**
   * The digest's two groups over every ledger the user is a member of: counts and sums added up, and the first
   * invoices by due date whichever ledger holds them, each naming its ledger when there is more than one.
   */
  private async groups(userId: number, today: string, daysAhead: number): Promise<[DigestGroup, DigestGroup]> {
    const ledgers = await this.due.ledgersOf(userId);
    const windows = [
      { title: 'Overdue', from: null, to: addDays(today, -1) },
      {
        title: `Due within ${daysAhead} ${daysAhead === 1 ? 'day' : 'days'}`,
        from: today,
        to: addDays(today, daysAhead),
      },
    ];
    const groups: DigestGroup[] = windows.map((w) => ({
      title: w.title,
      count: 0,
      toPay: 0,
      toCollect: 0,
      entries: [],
    }));
    const cents = windows.map(() => ({ toPay: 0, toCollect: 0 }));
    for (const [order, ledger] of ledgers.entries()) {
      const totals = await this.due.totals({ id: ledger.id }, today, [daysAhead]);
      for (const [i, w] of windows.entries()) {
        const part = await dueGroup(this.due, { id: ledger.id }, totals[i], w, DIGEST_LIST);
        const group = groups[i] as DigestGroup;
        const sum = cents[i] as { toPay: number; toCollect: number };
        group.count += part.count;
        sum.toPay += totals[i]?.toPayCents ?? 0;
        sum.toCollect += totals[i]?.toCollectCents ?? 0;
        group.toPay = fromCents(sum.toPay);
        group.toCollect = fromCents(sum.toCollect);
        group.entries.push(
          ...part.entries.map((e) => ({ ...e, ...(ledgers.length > 1 ? { ledger: ledger.name } : {}), order })),
        );
      }
    }
    for (const group of groups) {
      group.entries = (group.entries as (DigestEntry & { order: number })[])
        .sort(
          (a, b) => (a.dueDate ?? '').localeCompare(b.dueDate ?? '') || a.order - b.order || a.invoiceId - b.invoiceId,
        )
        .slice(0, DIGEST_LIST)
        .map(({ order: _order, ...e }) => e);
    }
    return [groups[0] as DigestGroup, groups[1] as DigestGroup];
  }
}
