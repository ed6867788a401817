import { addDays, utcDate } from '@billfold/contract/dates';
import {
  REMINDER_DAYS_DEFAULT,
  REMINDERS_NOT_CONFIGURED,
  type ReminderSettings,
  type ReminderSettingsBody,
} from '@billfold/contract/due';
import { fromCents } from '@billfold/contract/money';
import type { FastifyBaseLogger } from 'fastify';
import { conflict } from '../../lib/http-error.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { DueRepository } from '../due/due.repository.ts';
import { dueGroup } from '../due/due-group.ts';
import type { EmailVerificationService } from '../email-verification/email-verification.service.ts';
import { type DigestEntry, type DigestGroup, digestMail } from './reminder-mail.ts';
import type { RemindersRepository } from './reminders.repository.ts';

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
}

export interface DigestRun {
  sent: number;
  /** Nothing due for them today: no mail, and no claim, so a later run looks again. */
  nothingDue: number;
  /** Claimed by another process first. */
  claimedElsewhere: number;
  failed: number;
  /** Reminders on but the address unverified and never sent a link (accounts older than verification): sent one. */
  askedToVerify: number;
}

/** E-mail reminders (docs/decisions/1003-email-reminders.md): the user's choice, and the daily digest. */
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
    const [row, address] = await Promise.all([this.repo.settings(userId), this.repo.email(userId)]);
    return {
      configured: this.configured,
      enabled: row !== undefined,
      daysAhead: row?.days_ahead ?? REMINDER_DAYS_DEFAULT,
      email: address.email,
      emailVerified: address.verified,
    };
  }

  /** Turning them on needs a server that can send mail (409 otherwise); turning them off always works. */
  async update(userId: number, body: ReminderSettingsBody): Promise<ReminderSettings> {
    if (body.enabled === false) await this.repo.remove(userId);
    else {
      if (!this.configured) throw conflict(REMINDERS_NOT_CONFIGURED);
      const current = await this.repo.settings(userId);
      const days = body.daysAhead ?? current?.days_ahead ?? REMINDER_DAYS_DEFAULT;
      await this.repo.save(userId, days, this.options.now());
    }
    return this.settings(userId);
  }

  /**
   * One pass of the daily digest: for each user with reminders on and none claimed today (UTC), the invoices
   * overdue and due within their days ahead; a user with something due is claimed (exactly one process wins)
   * and mailed. A failed send gives the claim back, so the next hourly run tries again. Only verified addresses
   * get digests; an account whose unverified address was never sent a link (one made before verification) is
   * sent one, once, saying that its reminders are paused until it is followed.
   */
  async sendDigests(log?: FastifyBaseLogger): Promise<DigestRun> {
    const run: DigestRun = { sent: 0, nothingDue: 0, claimedElsewhere: 0, failed: 0, askedToVerify: 0 };
    const { mailer, now } = this.options;
    if (!mailer || new Date(now()).getUTCHours() < this.options.hourUtc) return run;
    for (const user of await this.repo.awaitingFirstLink()) {
      await this.addresses.sendLinkTo(user, this.options.appUrl, 'reminders');
      run.askedToVerify += 1;
    }
    const today = utcDate(now());
    for (const user of await this.repo.dueForDigest(today)) {
      const userId = Number(user.user_id);
      const [overdue, upcoming] = await this.groups(userId, today, user.days_ahead);
      if (overdue.count === 0 && upcoming.count === 0) {
        run.nothingDue += 1;
        continue;
      }
      if (!(await this.repo.claim(userId, today, now()))) {
        run.claimedElsewhere += 1;
        continue;
      }
      try {
        await mailer.send(
          digestMail({ to: user.email, username: user.username, overdue, upcoming, appUrl: this.options.appUrl }),
        );
        await this.repo.markSent(userId, today, now());
        run.sent += 1;
      } catch (err) {
        await this.repo.release(userId, today);
        log?.error({ err, userId }, 'reminder email failed; will retry next run');
        run.failed += 1;
      }
    }
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
      const totals = await this.due.totals(ledger.id, today, [daysAhead]);
      for (const [i, w] of windows.entries()) {
        const part = await dueGroup(this.due, ledger.id, totals[i], w, DIGEST_LIST);
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
