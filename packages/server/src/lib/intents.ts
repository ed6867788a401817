import type { Actor } from './actor.ts';

/**
 * The intents that one PUT of the wire carries in its `recycle` flag (docs/api/README.md, General): `true`
 * deletes to the recycle bin, `false` restores (a live row is just edited), absent edits — and an edit of a row in
 * the bin is refused until it is restored. Entities, invoices and payments each implement the three, and the
 * recycle bin's restore calls `restore` (docs/decisions/1102-intent-methods.md).
 */
export interface RecycleIntents<C, R> {
  edit(actor: Actor, change: C): Promise<R>;
  recycle(actor: Actor, change: C): Promise<R>;
  restore(actor: Actor, change: C): Promise<R>;
}

/** The intent a PUT body names, chosen from its `recycle` flag. */
export function runIntent<C extends { recycle?: boolean | undefined }, R>(
  service: RecycleIntents<C, R>,
  actor: Actor,
  change: C,
): Promise<R> {
  if (change.recycle === true) return service.recycle(actor, change);
  if (change.recycle === false) return service.restore(actor, change);
  return service.edit(actor, change);
}
