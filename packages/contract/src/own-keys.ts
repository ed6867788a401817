/**
 * Lookups by a key a user chose (a CSV cell, a query value, a name) in a table written as an object literal. A
 * plain object also answers to the keys every object inherits (`constructor`, `toString`, `__proto__`, …), so
 * `table[userValue]` can return a function or `Object.prototype` instead of `undefined`
 * (docs/security.md, Safe lookups). Tables keyed by user values are `Map`s; fixed tables go through `ownValue`.
 */

/** The value `table` holds under `key` as its own property, or `undefined`: never one every object inherits. */
export function ownValue<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** The keys every plain object answers to without holding them: what a safe lookup must never return a value for. */
export const INHERITED_KEYS: readonly string[] = [
  '__proto__',
  ...Object.getOwnPropertyNames(Object.prototype).filter((k) => k !== '__proto__'),
];
