/**
 * Where a schedule's invoices take their amount from (docs/decisions/0212-estimated-amounts.md): `fixed` (its
 * `amount`, the default), `last` (the last confirmed invoice's amount) or `average` (the mean of the last
 * `averageOf` confirmed invoices). The invoices are those the schedule created, or the entity's when it has none
 * confirmed yet; with none at all the schedule's `amount` stands in. In a file of its own so that the entities'
 * schedule summary (`bills.ts`) names them without importing the schedules.
 */
export const AMOUNT_MODES = ['fixed', 'last', 'average'] as const;
export type AmountMode = (typeof AMOUNT_MODES)[number];
