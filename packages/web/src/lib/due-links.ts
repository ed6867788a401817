/** The due selections the filter panel offers and links name: overdue, due within 7 or 30 days. */
export const DUE_CHOICES = ['overdue', 'next7', 'next30'] as const;
export type DueChoice = (typeof DUE_CHOICES)[number];

/** The Home link that shows a due selection in the grid (the Home panel's and the top bar's links). */
export const dueLink = (due: DueChoice) => `/home?due=${due}`;

/** The selection a `?due=` value names, or null. */
export function dueChoiceOf(value: string | null): DueChoice | null {
  return (DUE_CHOICES as readonly (string | null)[]).includes(value) ? (value as DueChoice) : null;
}
