/** A route's `:id` as a positive integer id, or null when it cannot be one (the page then says "not found"). */
export function parseRouteId(text: string | undefined): number | null {
  if (!text || !/^[1-9]\d{0,15}$/.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : null;
}
