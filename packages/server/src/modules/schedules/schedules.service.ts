import { addDays, utcDate } from '@billfold/contract/dates';
import { firstOccurrenceOnOrAfter, occurrencesUpTo, type ScheduleRule } from '@billfold/contract/schedule-dates';
import { MAX_CATCH_UP, type Schedule, type ScheduleInput } from '@billfold/contract/schedules';
import type { ScheduleRow } from '../../db/schema.ts';
import { badRequest, conflict, notFound } from '../../lib/http-error.ts';
import { MESSAGES } from '../../lib/messages.ts';
import { ruleOf, toSchedule } from './schedule.mapper.ts';
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
  };
}

/** The later of two dates. */
const later = (a: string, b: string) => (a > b ? a : b);

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

  async list(userId: number, billId: number): Promise<Schedule[]> {
    const bill = await this.repo.findBill(userId, billId);
    if (!bill || bill.recycled_at !== null) throw notFound(MESSAGES.entityNotFound);
    return (await this.repo.listOfBill(billId)).map(toSchedule);
  }

  async get(userId: number, id: number): Promise<Schedule> {
    return toSchedule(await this.visible(userId, id));
  }

  async create(userId: number, billId: number, input: ScheduleInput): Promise<Schedule> {
    const rule = ruleOfInput(input);
    const next = firstOccurrenceOnOrAfter(rule, input.firstDate);
    if (next === null) throw badRequest(SCHEDULE_MESSAGES.noOccurrence);
    const atOnce = occurrencesUpTo(rule, utcDate(this.now()), MAX_CATCH_UP);
    if (Math.min(atOnce, input.count ?? atOnce) > MAX_CATCH_UP) throw badRequest(SCHEDULE_MESSAGES.tooManyAtOnce);
    const row = await this.repo.transaction(async (repo) => {
      const bill = await repo.entries().lockBill(userId, billId);
      if (bill?.recycled_at != null) throw conflict(MESSAGES.entityRecycled);
      assertWritableBill(bill, MESSAGES.entityNotFound);
      return repo.insert({
        user_id: userId,
        bill_id: billId,
        ...columnsOf(input),
        next_date: next,
        created_at: this.now(),
      });
    });
    return this.settled(row.id);
  }

  replace(userId: number, id: number, input: ScheduleInput): Promise<Schedule> {
    return this.change(userId, id, async (repo, schedule) => {
      const rule = ruleOfInput(input);
      if (firstOccurrenceOnOrAfter(rule, input.firstDate) === null) throw badRequest(SCHEDULE_MESSAGES.noOccurrence);
      const last = await repo.lastClaimed(id);
      const from = later(utcDate(this.now()), last ? addDays(last, 1) : input.firstDate);
      return { ...columnsOf(input), next_date: nextFrom(rule, from, schedule.created_count, input.count) };
    });
  }

  pause(userId: number, id: number): Promise<Schedule> {
    return this.change(userId, id, async () => ({ paused: 1 }));
  }

  resume(userId: number, id: number): Promise<Schedule> {
    return this.change(userId, id, async (_repo, schedule) => {
      if (schedule.paused === 0) return {};
      const today = utcDate(this.now());
      const from = schedule.next_date === null ? null : later(schedule.next_date, today);
      const next = from === null ? null : nextFrom(ruleOf(schedule), from, schedule.created_count, schedule.max_count);
      return { paused: 0, next_date: next };
    });
  }

  async remove(userId: number, id: number): Promise<void> {
    await this.repo.transaction(async (repo) => {
      const schedule = await this.writable(repo, userId, id);
      await repo.remove(schedule.id);
    });
  }

  private async visible(userId: number, id: number): Promise<ScheduleRow> {
    const row = await this.repo.findOwned(userId, id);
    const bill = row && (await this.repo.findBill(userId, row.bill_id));
    if (!row || !bill || bill.recycled_at !== null) throw notFound(SCHEDULE_MESSAGES.notFound);
    return row;
  }

  /** The schedule, locked, of an entity that is neither archived nor in the bin. */
  private async writable(repo: SchedulesRepository, userId: number, id: number): Promise<ScheduleRow> {
    const seen = await repo.findOwned(userId, id);
    if (!seen) throw notFound(SCHEDULE_MESSAGES.notFound);
    const schedule = await repo.lock(seen.id);
    if (!schedule) throw notFound(SCHEDULE_MESSAGES.notFound);
    assertWritableBill(await repo.findBill(userId, schedule.bill_id), SCHEDULE_MESSAGES.notFound);
    return schedule;
  }

  private async change(
    userId: number,
    id: number,
    changes: (
      repo: SchedulesRepository,
      schedule: ScheduleRow,
    ) => Promise<Parameters<SchedulesRepository['update']>[1]>,
  ): Promise<Schedule> {
    await this.repo.transaction(async (repo) => {
      const schedule = await this.writable(repo, userId, id);
      const update = await changes(repo, schedule);
      if (Object.keys(update).length > 0) await repo.update(schedule.id, update);
    });
    return this.settled(id);
  }

  /** Creates what is due right away (the job would within the hour), then reads the schedule back. */
  private async settled(id: number): Promise<Schedule> {
    await this.runner.runOne(id, this.now());
    const row = await this.repo.findSchedule(id);
    if (!row) throw notFound(SCHEDULE_MESSAGES.notFound);
    return toSchedule(row);
  }
}
