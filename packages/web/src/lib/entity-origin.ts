/**
 * Router state of a link to `/bills/{id}` (docs/product.md, Edit entity (/bills/:id)): the entity or invoice page the user came from, so that Save
 * and Archive can go back there. `invoiceId` is the invoice's `entryId`, the id of its `/entries/{id}` route.
 */
export interface EntityOrigin {
  entityId?: number;
  invoiceId?: number;
}

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

export function readEntityOrigin(state: unknown): EntityOrigin {
  if (!state || typeof state !== 'object') return {};
  const { entityId, invoiceId } = state as Record<string, unknown>;
  return { ...(isId(entityId) ? { entityId } : {}), ...(isId(invoiceId) ? { invoiceId } : {}) };
}
