import { addDays } from '@billfold/contract/dates';
import {
  CADENCES,
  expandTemplate,
  occurrenceDueDate,
  occurrencesAfter,
  type ScheduleRule,
} from '@billfold/contract/schedule-dates';
import { describe, expect, it } from 'vitest';
import {
  describeOccurrence,
  pendingOccurrences,
  type ScheduleWithEntity,
  sortByDueDate,
} from '../src/modules/due/scheduled.ts';
import { ruleOf } from '../src/modules/schedules/schedule.mapper.ts';
import { random } from './helpers/random.ts';

/**
 * A schedule's pending occurrences are stepped through once and kept (`expansionOf` in src/modules/due/scheduled.ts):
 * whatever order windows are asked in, and whatever field of the schedule changes between them, each answer equals
 * the plain walk from the cursor, description included.
 */

const SEED = Number(process.env.SCHEDULED_SEED ?? 20261202);

/** The walk the kept expansions must equal: every occurrence from the cursor, tested one by one. */
function reference(s: ScheduleWithEntity, from: string | null, to: string) {
  if (s.next_date === null) return [];
  const out: { date: string; dueDate: string; description: string }[] = [];
  const rule: ScheduleRule = ruleOf(s);
  let n = s.created_count;
  for (const date of [s.next_date, ...occurrencesAfter(rule, s.next_date)]) {
    n++;
    if (n - s.created_count > 400 || (s.max_count !== null && n > s.max_count)) break;
    const dueDate = occurrenceDueDate(date, s.due_days);
    if (dueDate > to) break;
    if (from === null || dueDate >= from) out.push({ date, dueDate, description: expandTemplate(s.template, date, n) });
  }
  return out;
}

function drawSchedule(r: ReturnType<typeof random>, id: number): ScheduleWithEntity {
  const cadence = r.pick(CADENCES);
  const first = addDays('2015-01-01', r.int(4000));
  return {
    id,
    bill_id: 100 + id,
    bill_name: r.pick(['Acme', 'acme', 'Bistro', 'Zeta']),
    cadence,
    interval: 1 + r.int(3),
    day_of_month: cadence === 'weekly' ? null : 1 + r.int(31),
    first_date: first,
    end_date: r.chance(0.3) ? addDays(first, r.int(3000)) : null,
    max_count: r.chance(0.3) ? 1 + r.int(60) : null,
    amount_cents: 1000 + r.int(10_000),
    flow: r.chance(0.5) ? 'OUTGOING' : 'INCOMING',
    template: r.pick(['', '{month} {year}', 'Rent #{n} of {date}']),
    due_days: r.int(40),
    next_date: r.chance(0.1) ? null : addDays(first, r.int(200)),
    created_count: r.int(30),
    ledger_id: 1,
    amount_mode: 'fixed',
    amount_of: null,
  } as ScheduleWithEntity;
}

describe('pending occurrences of a schedule', () => {
  it(`equal the plain walk for any window, asked in any order, as the schedule changes (seed ${SEED})`, () => {
    const r = random(SEED);
    const schedules = Array.from({ length: 40 }, (_, i) => drawSchedule(r, i + 1));
    for (let step = 0; step < 2_000; step++) {
      const k = r.int(schedules.length);
      let s = schedules[k] as ScheduleWithEntity;
      // The runner moves the cursor, or an edit changes a field the dates depend on.
      if (r.chance(0.1) && s.next_date !== null) {
        s = { ...s, next_date: addDays(s.next_date, 1 + r.int(60)), created_count: s.created_count + 1 };
      } else if (r.chance(0.05)) s = { ...s, due_days: r.int(40), template: 'Changed {n}' };
      schedules[k] = s;
      const from = r.chance(0.3) ? null : addDays('2015-01-01', r.int(5000));
      const to = addDays(from ?? '2015-01-01', r.int(2500));
      const label = `seed ${SEED}, step ${step}: schedule ${s.id} from ${from} to ${to}`;
      const found = pendingOccurrences(s, from, to);
      expect(
        found.map((o) => ({ date: o.date, dueDate: o.dueDate, description: describeOccurrence(o) })),
        label,
      ).toEqual(reference(s, from, to));
    }
  });

  it('sort soonest due first, then by entity name as localeCompare orders it, then by schedule', () => {
    const r = random(SEED + 1);
    const all = Array.from({ length: 30 }, (_, i) => drawSchedule(r, i + 1)).flatMap((s) =>
      pendingOccurrences(s, '2016-01-01', '2017-12-31'),
    );
    const expected = [...all].sort(
      (a, b) => a.dueDate.localeCompare(b.dueDate) || a.name.localeCompare(b.name) || a.scheduleId - b.scheduleId,
    );
    expect(sortByDueDate([...all].reverse())).toEqual(expected);
  });
});
