import type { Migration } from 'kysely';
import * as initial from './2026-11-22T00-00_initial.ts';

/** Every migration, by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '2026-11-22T00-00_initial': initial,
};
