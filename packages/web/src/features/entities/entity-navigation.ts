import type { EntityOrigin } from '../../lib/entity-origin.ts';

/**
 * Where the edit-entity page goes 1.2 s after Save or Archive (docs/product.md, Where a save leads): `/home` once the entity is archived;
 * otherwise the entity or invoice page it was opened from, else the entity's own page.
 */
export function pathAfterEntitySave(origin: EntityOrigin, result: { billId: number; archived: boolean }): string {
  if (result.archived) return '/home';
  if (origin.entityId !== undefined) return `/entities/${origin.entityId}`;
  if (origin.invoiceId !== undefined) return `/entries/${origin.invoiceId}`;
  return `/entities/${result.billId}`;
}

/** Where Cancel goes: back where the user came from, else the entity's page. */
export function pathOfOrigin(origin: EntityOrigin, billId: number): string {
  return pathAfterEntitySave(origin, { billId, archived: false });
}
