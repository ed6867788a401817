import { parseApiTimestamp } from '@billfold/contract/dates';

const timestampFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** An API timestamp (UTC without offset) in the user's own time zone: `Nov 22, 2026, 10:04 AM`. */
export function formatTimestamp(text: string | null | undefined, fallback = '—'): string {
  if (!text) return fallback;
  const date = parseApiTimestamp(text);
  return Number.isNaN(date.getTime()) ? fallback : timestampFormat.format(date);
}

/** A local calendar date as `YYYY-MM-DD`. */
export function toIsoDate(date: Date): string {
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}

/** Today in the user's time zone as `YYYY-MM-DD`. */
export function todayIso(now = new Date()): string {
  return toIsoDate(now);
}

/** The date `days` before `now`, in the user's time zone, as `YYYY-MM-DD`. */
export function daysAgoIso(days: number, now = new Date()): string {
  const date = new Date(now);
  date.setDate(date.getDate() - days);
  return toIsoDate(date);
}
