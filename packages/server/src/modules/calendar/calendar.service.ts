import { addDays, toApiTimestamp, utcDate } from '@billfold/contract/dates';
import { CALENDAR_PASSWORD_REQUIRED, type CalendarFeed } from '@billfold/contract/due';
import { formatUsd, fromCents } from '@billfold/contract/money';
import ical, { ICalCalendarMethod } from 'ical-generator';
import { badRequest, notFound } from '../../lib/http-error.ts';
import { newOpaqueToken, sha256 } from '../../lib/tokens.ts';
import type { AuthRepository } from '../auth/auth.repository.ts';
import { checkCurrentPassword } from '../auth/throttle.ts';
import type { DueRepository } from '../due/due.repository.ts';
import { describeOccurrence, type ScheduledOccurrence } from '../due/scheduled.ts';
import type { CalendarRepository } from './calendar.repository.ts';

/** The feed lists invoices due from this many days ago on (older overdue ones stay on the Home panel). */
export const FEED_DAYS_BACK = 90;
/** At most this many events, soonest due first: calendar apps poll the whole file. */
export const FEED_MAX_EVENTS = 2000;
/** Scheduled invoices are listed with a due date up to this many days ahead (a schedule may run for ever). */
export const FEED_SCHEDULED_DAYS_AHEAD = 366;

const FEED_PATH = '/api/v1/calendar';
const FEED_NOT_FOUND = 'No calendar feed has this address. It may have been turned off or replaced.';

/** A path as the log may show it: a feed address's token is a secret, so it is never written down. */
export const maskCalendarToken = (path: string) => path.replace(/(\/calendar\/)[^/]+$/, '$1…');

/** `<token>.ics` (or the bare token) → its hash. */
const tokenHashOf = (file: string) => sha256(file.replace(/\.ics$/i, ''));

/** Who asks to turn the feed on: the account's current password, and where from (for the password throttle). */
export interface FeedRequest {
  userId: number;
  password: string | undefined;
  ip: string;
}

/**
 * A private iCalendar feed of unpaid invoices with due dates (docs/decisions/1002-calendar-feed.md): the address
 * carries a random token; only its hash is stored, so the address is shown once, when it is made. Making one
 * needs the current password (a stolen access token is not enough to get a lasting read of the ledger); a
 * password change or deactivation ends it.
 */
export class CalendarService {
  constructor(
    private readonly repo: CalendarRepository,
    private readonly due: DueRepository,
    private readonly accounts: AuthRepository,
    private readonly now: () => number,
  ) {}

  async status(userId: number): Promise<CalendarFeed> {
    const row = await this.repo.find(userId);
    return { enabled: row !== undefined, createdAt: row ? toApiTimestamp(new Date(Number(row.created_at))) : null };
  }

  /**
   * Turns the feed on with a new address (the previous one stops working), checking the current password with
   * the sign-in throttle (docs/decisions/1130-current-password-throttle.md); or off, which needs no password.
   */
  async set(who: FeedRequest, enabled: boolean, origin: string): Promise<CalendarFeed> {
    if (!enabled) {
      await this.revoke(who.userId);
      return { enabled: false, createdAt: null };
    }
    if (who.password === undefined) throw badRequest(CALENDAR_PASSWORD_REQUIRED, 'VALIDATION_FAILED');
    const account = await this.accounts.findUserById(who.userId);
    if (!account) throw notFound('User not found');
    await checkCurrentPassword(this.accounts, account, who.password, who.ip, this.now());
    const token = newOpaqueToken();
    const at = this.now();
    await this.repo.replace(who.userId, sha256(token), at, account.token_version);
    return { enabled: true, createdAt: toApiTimestamp(new Date(at)), url: `${origin}${FEED_PATH}/${token}.ics` };
  }

  /**
   * Ends the user's feed at once: turning it off, and whatever else takes away what the feed would show (a
   * password change and deactivation end it through the token version already; this also drops the row).
   */
  async revoke(userId: number): Promise<void> {
    await this.repo.remove(userId);
  }

  /** The feed's iCalendar text; links point back to the app at `origin`. */
  async feed(file: string, origin: string): Promise<string> {
    const userId = await this.repo.ownerOf(tokenHashOf(file));
    if (userId === null) throw notFound(FEED_NOT_FOUND);
    const today = utcDate(this.now());
    const from = addDays(today, -FEED_DAYS_BACK);
    // Every ledger the user is a member of; with more than one, each event names its ledger.
    const ledgers = await this.due.ledgersOf(userId);
    const named = ledgers.length > 1;
    const rows: (Awaited<ReturnType<DueRepository['dueFrom']>>[number] & { ledger: string; order: number })[] = [];
    const scheduled: (ScheduledOccurrence & { ledger: string })[] = [];
    for (const [order, ledger] of ledgers.entries()) {
      for (const row of await this.due.dueFrom(ledger.id, from, FEED_MAX_EVENTS))
        rows.push({ ...row, ledger: ledger.name, order });
      // Read after the invoices: an occurrence that became an invoice in between is missing once, never doubled.
      for (const o of await this.due.scheduled({ id: ledger.id }, from, addDays(today, FEED_SCHEDULED_DAYS_AHEAD)))
        scheduled.push({ ...o, ledger: ledger.name });
    }
    const inLedger = (summary: string, ledger: string) => (named ? `${summary} (${ledger})` : summary);
    const calendar = ical({
      name: 'Billfold: bills due',
      description: 'Unpaid invoices with a due date, and the invoices schedules will create',
      prodId: { company: 'Billfold', product: 'due-dates', language: 'EN' },
      method: ICalCalendarMethod.PUBLISH,
      ttl: 60 * 60,
    });
    const events = [
      ...rows.map((row) => {
        const owed = formatUsd(fromCents(row.balance_cents));
        return {
          due: row.due_date as string,
          order: `i${String(row.order).padStart(6, '0')}${String(row.invoice_number).padStart(12, '0')}`,
          event: {
            id: `billfold-invoice-${row.id}`,
            start: row.due_date as string,
            allDay: true,
            summary: inLedger(
              row.flow === 'INCOMING' ? `Expect ${owed} from ${row.bill_name}` : `Pay ${row.bill_name} ${owed}`,
              row.ledger,
            ),
            description: [`Invoice #${row.invoice_number} of ${row.date}`, row.services].filter(Boolean).join('\n'),
            url: `${origin}/entries/${row.id}`,
            stamp: new Date(Number(row.created_at)),
          },
        };
      }),
      ...scheduled.map((o) => {
        const amount = formatUsd(fromCents(o.amountCents));
        return {
          due: o.dueDate,
          order: `s${o.name}\u0000${o.scheduleId}`,
          event: {
            // One occurrence of one schedule: stable across polls until it becomes an invoice with its own UID.
            id: `billfold-schedule-${o.scheduleId}-${o.date}`,
            start: o.dueDate,
            allDay: true,
            summary: inLedger(
              o.flow === 'INCOMING'
                ? `Scheduled: expect ${amount} from ${o.name}`
                : `Scheduled: pay ${o.name} ${amount}`,
              o.ledger,
            ),
            description: [`Scheduled invoice of ${o.date}, not created yet`, describeOccurrence(o)]
              .filter(Boolean)
              .join('\n'),
            url: `${origin}/entities/${o.entityId}`,
            stamp: new Date(this.now()),
          },
        };
      }),
    ];
    events.sort((a, b) => a.due.localeCompare(b.due) || a.order.localeCompare(b.order));
    for (const { event } of events.slice(0, FEED_MAX_EVENTS)) calendar.createEvent(event);
    return calendar.toString();
  }
}
