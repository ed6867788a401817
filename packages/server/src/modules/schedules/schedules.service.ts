import { addDays, utcDate } from '@billfold/contract/dates';
import { fromCents } from '@billfold/contract/money';
import {
  expandTemplate,
  firstOccurrenceOnOrAfter,
  occurrenceDueDate,
  type ScheduleRule,
  upcomingOccurrences,
} from '@billfold/contract/schedule-dates';
import {
  MAX_CATCH_UP,
  type PreviewInvoice,
  type Schedule,
  type ScheduleInput,
  type SchedulePreview,
} from '@billfold/contract/schedules';
import type { ScheduleRow } from '../../db/schema.ts';
import type { Actor } from '../../lib/actor.ts';
import { badRequest, conflict, notFound } from '../../lib/http-error.ts';
import { MESSAGES } from '../../lib/messages.ts';
import { ruleOf, toSchedule } from './schedule.mapper.ts';
import { scheduleEstimate, scheduleEstimates } from './schedule-estimate.ts';
import type { ScheduleRunner } from './schedule-runner.ts';
import { SCHEDULE_MESSAGES } from './schedules.messages.ts';
import type { SchedulesRepository } from './schedules.repository.ts';

type Bill = { status: number; recycled_at: number | null } | undefined;

/** Schedules of an entity in the recycle bin are hidden with it; an archived entity's are read only. */
function assertWritableBill(bill: Bill, missing: string): void {
  if (!bill || bill.recycled_at !== null) throw notFound(missing);
  if (bill.status === 0) throw conflict(MESSAGES.entityArchived);
}

function ruleOfInput(input: ScheduleInput): ScheduleRule {
  return {
    cadence: input.cadence,
    interval: input.interval,
    dayOfMonth: input.dayOfMonth,
    firstDate: input.firstDate,
    endDate: input.endDate,
  };
}

function columnsOf(input: ScheduleInput) {
  return {
    cadence: input.cadence,
    interval: input.interval,
    day_of_month: input.dayOfMonth,
    first_date: input.firstDate,
    end_date: input.endDate,
    max_count: input.count,
    amount_cents: input.amount,
    flow: input.flow,
    template: input.description,
    due_days: input.dueDays,
    autopay_method: input.autopay,
    amount_mode: input.amountMode,
    amount_of: input.averageOf,
  };
}

/**
 * The body's rule and its first occurrence; 400 when it has none (an end date before it). A save of any kind, and
 * its preview, apply this.
 */
function checkRule(input: ScheduleInput): { rule: ScheduleRule; first: string } {
  const rule = ruleOfInput(input);
  const first = firstOccurrenceOnOrAfter(rule, input.firstDate);
  if (first === null) throw badRequest(SCHEDULE_MESSAGES.noOccurrence);
  return { rule, first };
}

/** The later of two dates. */
const later = (a: string, b: string) => (a > b ? a : b);

/**
 * The occurrences a save creates at once: from `from` up to `today`, at most `remaining` (what its count leaves),
 * and at most one more than a new schedule may create at once (enough to tell "too many").
 */
function dueAtOnce(rule: ScheduleRule, from: string, today: string, remaining: number | null): string[] {
  const limit = Math.min(remaining ?? MAX_CATCH_UP + 1, MAX_CATCH_UP + 1);
  if (limit <= 0) return [];
  return upcomingOccurrences(rule, from, limit).filter((date) => date <= today);
}

/** What a save creates at once, and the entity's existing invoice of the same date and amount beside each. */
interface AtOnce {
  dates: string[];
  /** Occurrence date → the oldest live invoice of the entity with that date and the schedule's amount. */
  same: Map<string, { id: number; invoice_number: number }>;
}

/** The message of a save refused because it would create invoices beside existing ones without saying so. */
function duplicatesMessage(dates: string[]): string {
  const list = dates.length > 5 ? `${dates.slice(0, 5).join(', ')} and ${dates.length - 5} more` : dates.join(', ');
  const one = dates.length === 1;
  return `${dates.length} invoice${one ? '' : 's'} this schedule would create now already exist${one ? 's' : ''} for this entity with the same date and amount (${list}). Say whether to skip ${one ? 'it' : 'them'} or create ${one ? 'it' : 'them'} anyway.`;
}

/**
 * The next occurrence to create from `from` on, or null when the schedule has ended (its end date, or its count of
 * invoices reached).
 */
function nextFrom(rule: ScheduleRule, from: string, created: number, count: number | null): string | null {
  if (count !== null && created >= count) return null;
  return firstOccurrenceOnOrAfter(rule, from);
}

/**
 * Schedules of an entity: create (occurrences from the first date on, the past ones included, are created at once),
 * replace (already created invoices stay; only occurrences from today on follow the new rule), pause, resume
 * (what fell due while paused is passed over) and delete (for good; its invoices stay).
 */
export class SchedulesService {
  constructor(
    private readonly repo: SchedulesRepository,
    private readonly runner: ScheduleRunner,
    private readonly now: () => number,
  ) {}

  async list(ledgerId: number, billId: number): Promise<Schedule[]> {
    const bill = await this.repo.findBill(ledgerId, billId);
    if (!bill || bill.recycled_at !== null) throw notFound(MESSAGES.entityNotFound);
    const rows = await this.repo.listOfBill(billId);
    const estimates = await scheduleEstimates(this.repo, rows);
    return rows.map((row) => toSchedule(row, estimates.get(row.id) ?? row.amount_cents));
  }

  async get(ledgerId: number, id: number): Promise<Schedule> {
    return this.shown(await this.visible(ledgerId, id));
  }

  async create(actor: Actor, billId: number, input: ScheduleInput): Promise<Schedule> {
    const { ledgerId } = actor;
    const { next, dates } = this.checkNew(input);
    const row = await this.repo.transaction(async (repo) => {
      const bill = await repo.entries().lockBill(ledgerId, billId);
      if (bill?.recycled_at != null) throw conflict(MESSAGES.entityRecycled);
      assertWritableBill(bill, MESSAGES.entityNotFound);
      const amount = await this.estimateOf(repo, ledgerId, billId, 0, input);
      const atOnce = await this.withSame(repo, ledgerId, billId, dates, amount);
      const row = await repo.insert({
        ledger_id: ledgerId,
        bill_id: billId,
        ...columnsOf(input),
        next_date: next,
        created_at: this.now(),
      });
      await this.settleDuplicates(repo, row.id, atOnce, input);
      return row;
    });
    return this.settled(row.id, actor.userId);
  }

  /**
   * What creating this schedule would create at once (occurrences dated up to today), each with its due date, its
   * description, whether its automatic payment is recorded at once too, and the entity's existing invoice of the
   * same date and amount beside it. Changes nothing.
   */
  async previewNew(ledgerId: number, billId: number, input: ScheduleInput): Promise<SchedulePreview> {
    const { dates } = this.checkNew(input);
    const bill = await this.repo.findBill(ledgerId, billId);
    if (bill?.recycled_at != null) throw conflict(MESSAGES.entityRecycled);
    assertWritableBill(bill, MESSAGES.entityNotFound);
    const amount = await this.estimateOf(this.repo, ledgerId, billId, 0, input);
    return this.preview(input, amount, await this.withSame(this.repo, ledgerId, billId, dates, amount), 1);
  }

  /** The same for replacing a schedule with this body: at most today's occurrence, numbered after the last. */
  async previewReplace(ledgerId: number, id: number, input: ScheduleInput): Promise<SchedulePreview> {
    checkRule(input);
    const schedule = await this.visible(ledgerId, id);
    assertWritableBill(await this.repo.findBill(ledgerId, schedule.bill_id), SCHEDULE_MESSAGES.notFound);
    const from = await this.replaceFrom(this.repo, schedule.id, input);
    const amount = await this.estimateOf(this.repo, ledgerId, schedule.bill_id, schedule.id, input);
    return this.preview(
      input,
      amount,
      await this.atOnceOfReplace(this.repo, schedule, input, from, amount),
      schedule.created_count + 1,
    );
  }

  replace(actor: Actor, id: number, input: ScheduleInput): Promise<Schedule> {
    return this.change(actor, id, async (repo, schedule) => {
      const { rule } = checkRule(input);
      const from = await this.replaceFrom(repo, schedule.id, input);
      const amount = await this.estimateOf(repo, schedule.ledger_id, schedule.bill_id, schedule.id, input);
      const atOnce = await this.atOnceOfReplace(repo, schedule, input, from, amount);
      await this.settleDuplicates(repo, schedule.id, atOnce, input);
      return { ...columnsOf(input), next_date: nextFrom(rule, from, schedule.created_count, input.count) };
    });
  }

  pause(actor: Actor, id: number): Promise<Schedule> {
    return this.change(actor, id, async () => ({ paused: 1 }));
  }

  resume(actor: Actor, id: number): Promise<Schedule> {
    return this.change(actor, id, async (_repo, schedule) => {
      if (schedule.paused === 0) return {};
      const today = utcDate(this.now());
      const from = schedule.next_date === null ? null : later(schedule.next_date, today);
      const next = from === null ? null : nextFrom(ruleOf(schedule), from, schedule.created_count, schedule.max_count);
      return { paused: 0, next_date: next };
    });
  }

  async remove(actor: Actor, id: number): Promise<void> {
    await this.repo.transaction(async (repo) => {
      const schedule = await this.writable(repo, actor.ledgerId, id);
      await repo.remove(schedule.id);
    });
  }

  /**
   * A new schedule's first occurrence and the occurrences it creates at once (dated up to today); 400 when it has
   * no occurrence or would create too many invoices at once.
   */
  private checkNew(input: ScheduleInput): { next: string; dates: string[] } {
    const { rule, first } = checkRule(input);
    const dates = dueAtOnce(rule, input.firstDate, utcDate(this.now()), input.count);
    if (dates.length > MAX_CATCH_UP) throw badRequest(SCHEDULE_MESSAGES.tooManyAtOnce);
    return { next: first, dates };
  }

  /** Where a replaced rule goes on from: today, and after the last occurrence already claimed. */
  private async replaceFrom(repo: SchedulesRepository, id: number, input: ScheduleInput): Promise<string> {
    const last = await repo.lastClaimed(id);
    return later(utcDate(this.now()), last ? addDays(last, 1) : input.firstDate);
  }

  /** What replacing the schedule's rule creates at once, going on from `from` (`replaceFrom`). */
  private async atOnceOfReplace(
    repo: SchedulesRepository,
    schedule: ScheduleRow,
    input: ScheduleInput,
    from: string,
    amountCents: number,
  ): Promise<AtOnce> {
    // A paused schedule creates nothing when edited.
    if (schedule.paused === 1) return { dates: [], same: new Map() };
    const remaining = input.count === null ? null : input.count - schedule.created_count;
    const dates = dueAtOnce(ruleOfInput(input), from, utcDate(this.now()), remaining);
    return this.withSame(repo, schedule.ledger_id, schedule.bill_id, dates, amountCents);
  }

  private async withSame(
    repo: SchedulesRepository,
    ledgerId: number,
    billId: number,
    dates: string[],
    amountCents: number,
  ): Promise<AtOnce> {
    const same = new Map<string, { id: number; invoice_number: number }>();
    for (const row of await repo.sameInvoices(ledgerId, billId, dates, amountCents))
      if (!same.has(row.date)) same.set(row.date, row);
    return { dates, same };
  }

  /**
   * A save that would create an invoice beside an existing one of the same date and amount must say what to do:
   * 409 without `duplicates`; with `skip`, each such occurrence is claimed now, in the save's transaction, for the
   * existing invoice (so no process's job creates it); with `create`, nothing is done here.
   */
  private async settleDuplicates(
    repo: SchedulesRepository,
    scheduleId: number,
    atOnce: AtOnce,
    input: ScheduleInput,
  ): Promise<void> {
    const dates = atOnce.dates.filter((date) => atOnce.same.has(date));
    if (dates.length === 0 || input.duplicates === 'create') return;
    if (input.duplicates === null) throw conflict(duplicatesMessage(dates), 'SCHEDULE_DUPLICATES');
    for (const date of dates)
      await repo.claim({
        schedule_id: scheduleId,
        occurrence_date: date,
        entry_id: atOnce.same.get(date)?.id ?? null,
        autopay_date: null,
        payment_id: null,
        created_at: this.now(),
      });
  }

  private preview(input: ScheduleInput, amountCents: number, atOnce: AtOnce, firstN: number): SchedulePreview {
    const today = utcDate(this.now());
    const invoices = atOnce.dates.map((date, i): PreviewInvoice => {
      const dueDate = occurrenceDueDate(date, input.dueDays);
      const same = atOnce.same.get(date);
      return {
        date,
        dueDate,
        amount: fromCents(amountCents),
        description: expandTemplate(input.description, date, firstN + i),
        autopay: input.autopay !== null && dueDate <= today,
        duplicateOf: same ? { entryId: same.id, invoiceId: same.invoice_number } : null,
      };
    });
    return { invoices };
  }

  private async visible(ledgerId: number, id: number): Promise<ScheduleRow> {
    const row = await this.repo.findOwned(ledgerId, id);
    const bill = row && (await this.repo.findBill(ledgerId, row.bill_id));
    if (!row || !bill || bill.recycled_at !== null) throw notFound(SCHEDULE_MESSAGES.notFound);
    return row;
  }

  /** The schedule, locked, of an entity that is neither archived nor in the bin. */
  private async writable(repo: SchedulesRepository, ledgerId: number, id: number): Promise<ScheduleRow> {
    const seen = await repo.findOwned(ledgerId, id);
    if (!seen) throw notFound(SCHEDULE_MESSAGES.notFound);
    const schedule = await repo.lock(seen.id);
    if (!schedule) throw notFound(SCHEDULE_MESSAGES.notFound);
    assertWritableBill(await repo.findBill(ledgerId, schedule.bill_id), SCHEDULE_MESSAGES.notFound);
    return schedule;
  }

  private async change(
    actor: Actor,
    id: number,
    changes: (
      repo: SchedulesRepository,
      schedule: ScheduleRow,
    ) => Promise<Parameters<SchedulesRepository['update']>[1]>,
  ): Promise<Schedule> {
    await this.repo.transaction(async (repo) => {
      const schedule = await this.writable(repo, actor.ledgerId, id);
      const update = await changes(repo, schedule);
      if (Object.keys(update).length > 0) await repo.update(schedule.id, update);
    });
    return this.settled(id, actor.userId);
  }

  /** Creates what is due right away (the job would within the hour) in `actor`'s name, then reads the schedule back. */
  private async settled(id: number, actor: number | null): Promise<Schedule> {
    await this.runner.runOne(id, this.now(), actor);
    const row = await this.repo.findSchedule(id);
    if (!row) throw notFound(SCHEDULE_MESSAGES.notFound);
    return this.shown(row);
  }

  private async shown(row: ScheduleRow): Promise<Schedule> {
    return toSchedule(row, await scheduleEstimate(this.repo, row));
  }

  /**
   * The amount the invoices a save creates at once get: the body's estimate for the schedule (`id`, 0 for a new
   * one), which they keep as they are all estimates or all fixed (docs/decisions/0212-estimated-amounts.md).
   */
  private estimateOf(
    repo: SchedulesRepository,
    ledgerId: number,
    billId: number,
    id: number,
    input: ScheduleInput,
  ): Promise<number> {
    const columns = columnsOf(input);
    return scheduleEstimate(repo, { id, ledger_id: ledgerId, bill_id: billId, ...columns });
  }
}
