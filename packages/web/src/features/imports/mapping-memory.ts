import { type ColumnMapping, columnMapping } from '@billfold/contract/imports';

/**
 * The mapping a user confirmed, remembered per header set in local storage (it is a preference of this browser,
 * not data), so next month's file from the same bank maps itself.
 */
const PREFIX = 'billfold.importMapping:';
const keyOf = (headers: readonly string[]) => `${PREFIX}${headers.map((h) => h.trim().toLowerCase()).join('\u001f')}`;

export function recallMapping(headers: readonly string[]): ColumnMapping | null {
  try {
    const saved = localStorage.getItem(keyOf(headers));
    const parsed = saved === null ? null : columnMapping.safeParse(JSON.parse(saved));
    return parsed?.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function rememberMapping(headers: readonly string[], mapping: ColumnMapping): void {
  try {
    localStorage.setItem(keyOf(headers), JSON.stringify(mapping));
  } catch {
    // storage full or disabled: the mapping is simply not remembered
  }
}
