/** Calendar dates travel as `YYYY-MM-DD` within 1900-01-01..2099-12-31; timestamps as UTC `YYYY-MM-DDTHH:mm:ss`. */
export const MIN_DATE = '1900-01-01';
export const MAX_DATE = '2099-12-31';
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isValidIsoDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    text >= MIN_DATE &&
    text <= MAX_DATE
  );
}

/** `2026-11-22T10:04:05` — UTC without an offset, as existing clients expect. */
export function toApiTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19);
}

/** Parses the API's offset-less UTC timestamps (and tolerates ones that carry `Z`). */
export function parseApiTimestamp(text: string): Date {
  return new Date(/[zZ]|[+-]\d{2}:?\d{2}$/.test(text) ? text : `${text}Z`);
}

const DAY_MS = 86_400_000;
const dayNumber = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;

/** The ISO date `days` after (or before, when negative) `iso`. */
export function addDays(iso: string, days: number): string {
  return new Date((dayNumber(iso) + days) * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round(dayNumber(to) - dayNumber(from));
}

/** Today's date in UTC, `YYYY-MM-DD`. */
export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
