import { utcDate } from '@billfold/contract/dates';
import type { Flow } from '@billfold/contract/entries';
import { formatUsd } from '@billfold/contract/money';
import { splitMethod } from '@billfold/contract/payment-methods';
import { expandTemplate, occurrenceAfter, occurrenceDueDate } from '@billfold/contract/schedule-dates';
import { isEstimating } from '@billfold/contract/schedules';
import { DEFAULT_PRICE_INCREASE_PERCENT } from '../../config.ts';
import { EntriesService } from '../entries/entries.service.ts';
import { PaymentsService } from '../payments/payments.service.ts';
import { ruleOf } from './schedule.mapper.ts';
import { amountRuleOf, scheduleEstimate } from './schedule-estimate.ts';
import type { SchedulesRepository } from './schedules.repository.ts';

export interface ScheduleRunResult {
  /** Invoices created. */
  created: number;
  /** Occurrences passed over because the entity was archived or in the recycle bin. */
  skipped: number;
  /** Automatic payments recorded. */
  autopaid: number;
  /** Occurrences whose claim was made beforehand for an existing invoice (a save told to skip duplicates). */
  adopted: number;
}

const BATCH = 100;

/**
 * Creates the invoices of due occurrences and records due automatic payments (docs/decisions/1010-recurring-invoices.md).
 * Each occurrence is one transaction that locks its schedule first, claims the occurrence (unique per schedule and
 * date), creates the invoice through the invoice service and moves the schedule's cursor on; each automatic payment
 * is one transaction that takes its claim's pending date and records the payment through the payment service. So
 * every process may run this at the same moment: whoever waits on the lock finds the work done.
 */
export class ScheduleRunner {
  /** `priceIncreasePercent`: the threshold of the invoices' `price_increase` events (docs/decisions/0215-price-increase-event.md). */
  constructor(
    private readonly repo: SchedulesRepository,
    private readonly priceIncreasePercent = DEFAULT_PRICE_INCREASE_PERCENT,
  ) {}

  /** Everything due by `now`'s UTC date, also what fell due while no server ran. */
  async run(now: number): Promise<ScheduleRunResult> {
    const result: ScheduleRunResult = { created: 0, skipped: 0, autopaid: 0, adopted: 0 };
    const today = utcDate(now);
    for (;;) {
      const ids = await this.repo.dueIds(today, BATCH);
      let progressed = false;
      for (const id of ids) progressed = (await this.catchUp(id, now, result)) || progressed;
      if (ids.length < BATCH || !progressed) break;
    }
    await this.autopayDue(now, result);
    return result;
  }

  /**
   * One schedule's due occurrences and automatic payments, right after it was created, edited or resumed: the
   * history names `actor`, whose save made them due (docs/decisions/0108-change-history.md).
   */
  async runOne(scheduleId: number, now: number, actor: number | null = null): Promise<ScheduleRunResult> {
    const result: ScheduleRunResult = { created: 0, skipped: 0, autopaid: 0, adopted: 0 };
    await this.catchUp(scheduleId, now, result, actor);
    await this.autopayDue(now, result, scheduleId, actor);
    return result;
  }

  private async catchUp(
    scheduleId: number,
    now: number,
    result: ScheduleRunResult,
    actor: number | null = null,
  ): Promise<boolean> {
    let progressed = false;
    for (;;) {
      const outcome = await this.step(scheduleId, now, actor);
      if (outcome === null) return progressed;
      result[outcome]++;
      progressed = true;
    }
  }

  /**
   * The schedule's next occurrence, if it is due: created, skipped when its entity is archived or recycled, or
   * adopted when the save that made it due claimed it for an existing invoice of the same date and amount.
   */
  private step(
    scheduleId: number,
    now: number,
    actor: number | null,
  ): Promise<'created' | 'skipped' | 'adopted' | null> {
    const today = utcDate(now);
    return this.repo.transaction(async (repo) => {
      const schedule = await repo.lock(scheduleId);
      if (!schedule || schedule.paused === 1 || schedule.next_date === null || schedule.next_date > today) return null;
      const rule = ruleOf(schedule);
      const bill = await repo.findBill(schedule.ledger_id, schedule.bill_id);
      if (!bill || bill.status === 0 || bill.recycled_at !== null) {
        // What falls due while the entity is archived or in the bin is passed over, not made up later.
        await repo.update(schedule.id, { next_date: occurrenceAfter(rule, today) });
        return 'skipped';
      }
      const date = schedule.next_date;
      const dueDate = occurrenceDueDate(date, schedule.due_days);
      const n = schedule.created_count + 1;
      const ended = schedule.max_count !== null && n >= schedule.max_count;
      const claim = await repo.claimIfFree({
        schedule_id: schedule.id,
        occurrence_date: date,
        entry_id: null,
        autopay_date: schedule.autopay_method === null ? null : dueDate,
        payment_id: null,
        created_at: now,
      });
      if (!claim) {
        // Claimed for an existing invoice: it is this occurrence's, the schedule's n-th, and nothing is paid for it.
        await repo.update(schedule.id, { created_count: n, next_date: ended ? null : occurrenceAfter(rule, date) });
        return 'adopted';
      }
      const estimate = await scheduleEstimate(repo, schedule);
      const entry = await new EntriesService(repo.entries(), () => now, this.priceIncreasePercent).create(
        { ledgerId: schedule.ledger_id, userId: actor },
        {
          billId: schedule.bill_id,
          date,
          flow: schedule.flow as Flow,
          amount: estimate,
          services: expandTemplate(schedule.template, date, n),
          dueDate,
        },
        { actor, action: 'schedule' },
        { cents: estimate, estimated: isEstimating(amountRuleOf(schedule).mode) },
      );
      await repo.setOccurrence(claim.id, { entry_id: entry.entryId });
      await repo.update(schedule.id, { created_count: n, next_date: ended ? null : occurrenceAfter(rule, date) });
      const events = repo.notifications();
      await events.record(
        { ledgerId: schedule.ledger_id },
        'schedule_invoice',
        async () => {
          const ledger = await events.ledgerName(schedule.ledger_id);
          return {
            key: `schedule_invoice:${entry.entryId}`,
            title: `New invoice #${entry.invoiceId} ${entry.name}`,
            body: `A recurring schedule created invoice #${entry.invoiceId} of ${entry.name} (${ledger}): ${formatUsd(entry.amount)}${entry.dueDate ? `, due ${entry.dueDate}` : ''}.`,
            data: {
              ledgerId: schedule.ledger_id,
              ledgerName: ledger,
              entryId: entry.entryId,
              invoiceId: entry.invoiceId,
              name: entry.name,
              flow: entry.flow,
              amount: entry.amount,
              dueDate: entry.dueDate,
            },
          };
        },
        now,
      );
      return 'created';
    });
  }

  private async autopayDue(
    now: number,
    result: ScheduleRunResult,
    scheduleId?: number,
    actor: number | null = null,
  ): Promise<void> {
    const today = utcDate(now);
    for (;;) {
      const ids = await this.repo.dueAutopayIds(today, BATCH, scheduleId);
      for (const id of ids) if (await this.autopay(id, now, actor)) result.autopaid++;
      if (ids.length < BATCH) return;
    }
  }

  /**
   * Records the occurrence's automatic payment on its due date: the invoice's balance then, with the schedule's
   * current method. Nothing is recorded when the invoice is paid already, deleted, purged or its entity archived,
   * or when the schedule is paused or no longer pays automatically; the pending date is cleared either way.
   */
  private autopay(occurrenceId: number, now: number, actor: number | null): Promise<boolean> {
    return this.repo.transaction(async (repo) => {
      const occurrence = await repo.findOccurrence(occurrenceId);
      const date = occurrence?.autopay_date;
      if (!occurrence || !date || date > utcDate(now) || !(await repo.takeAutopay(occurrence.id, date))) return false;
      if (occurrence.entry_id === null) return false;
      const schedule = await repo.findSchedule(occurrence.schedule_id);
      const entry = await repo.findEntry(occurrence.entry_id);
      if (!schedule || schedule.paused === 1 || schedule.autopay_method === null || !entry) return false;
      if (entry.recycled_at !== null || entry.archived === 1 || entry.balance_cents <= 0) return false;
      const [type, medium] = splitMethod(schedule.autopay_method);
      const payment = await new PaymentsService(repo.payments(), () => now).create(
        { ledgerId: entry.ledger_id, userId: actor },
        {
          entryId: entry.id,
          date,
          amount: entry.balance_cents,
          type,
          medium,
          notes: 'Automatic payment of a recurring invoice',
          autopay: true,
        },
        { actor, action: 'autopay' },
      );
      await repo.setOccurrence(occurrence.id, { payment_id: payment.paymentId });
      const events = repo.notifications();
      await events.record(
        { ledgerId: entry.ledger_id },
        'autopay',
        async () => {
          const ledger = await events.ledgerName(entry.ledger_id);
          return {
            key: `autopay:${payment.paymentId}`,
            title: `Automatic payment: #${entry.invoice_number} ${entry.bill_name}`,
            body: `An automatic payment of ${formatUsd(payment.amount)} was recorded for invoice #${entry.invoice_number} of ${entry.bill_name} (${ledger}) on ${date}.`,
            data: {
              ledgerId: entry.ledger_id,
              ledgerName: ledger,
              entryId: entry.id,
              invoiceId: entry.invoice_number,
              name: entry.bill_name,
              paymentId: payment.paymentId,
              amount: payment.amount,
              date,
            },
          };
        },
        now,
      );
      return true;
    });
  }
}
