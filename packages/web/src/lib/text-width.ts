/**
 * Widths of text as the browser draws it, for sizing grid columns from their content rather than guessing for
 * one machine's fonts (docs/decisions/0604-grid-column-widths.md).
 */

let context: CanvasRenderingContext2D | null | undefined;

function canvas(): CanvasRenderingContext2D | null {
  if (context !== undefined) return context;
  try {
    context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  } catch {
    // jsdom and locked-down browsers draw nothing: callers fall back to fixed widths.
    context = null;
  }
  return context;
}

/**
 * The widest of `texts` in CSS pixels, drawn in `font` (a CSS font shorthand) with `letterSpacing` px after each
 * character (as the theme's body text has); null where nothing can measure.
 */
export function widestText(texts: Iterable<string>, font: string, letterSpacing = 0): number | null {
  const ctx = canvas();
  if (!ctx) return null;
  ctx.font = font;
  let widest = 0;
  for (const text of texts) widest = Math.max(widest, ctx.measureText(text).width + [...text].length * letterSpacing);
  return widest;
}

/** A column's width from its content: the widest text plus the cell's padding, kept within `min` and `max`. */
export function contentWidth(widest: number | null, bounds: { min: number; max: number; padding: number }): number {
  if (widest === null) return bounds.min;
  return Math.min(bounds.max, Math.max(bounds.min, Math.ceil(widest + bounds.padding)));
}
