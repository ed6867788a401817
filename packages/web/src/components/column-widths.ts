import { useTheme } from '@mui/material/styles';
import { useEffect, useMemo, useState } from 'react';
import { contentWidth, widestText } from '../lib/text-width.ts';

/** MUI X grid cells and column headers have 10 px of padding on each side, and a 1 px border; 1 px for rounding. */
export const CELL_PADDING = 22;
/** Room for the sort arrow a sorted column's header shows after its title. */
export const SORT_ICON_ROOM = 28;

/** How one column is sized from what it shows (docs/decisions/0604-grid-column-widths.md). */
export interface ColumnContent<Row> {
  /** The column's title, drawn in the header's weight. */
  header: string;
  /** What a row's cell shows, as text. */
  text?: (row: Row) => string;
  /** The widest values the column can show (an amount's largest, a date), always room for, whatever the rows. */
  samples?: readonly string[];
  /** Room for the sort arrow after the title (default true). */
  sortRoom?: boolean;
  /** Cell text drawn bold (an overdue due date). */
  bold?: boolean;
  min?: number;
  max?: number;
  /** The width where nothing can measure text (no canvas); `min` when not given. */
  fallback?: number;
}

const DEFAULT_MIN = 56;
const DEFAULT_MAX = 360;

function pixels(size: string | number | undefined): number {
  if (typeof size === 'number') return size;
  if (size?.endsWith('rem')) return Number.parseFloat(size) * 16;
  return Number.parseFloat(size ?? '14') || 14;
}

function fontOf(weight: number | string | undefined, px: number, family: string | undefined) {
  return `${weight ?? 400} ${px}px ${family ?? 'sans-serif'}`;
}

/** `0.01071em` of a `px` font, in px. */
function spacing(letterSpacing: string | number | undefined, px: number): number {
  if (typeof letterSpacing === 'number') return letterSpacing;
  if (letterSpacing?.endsWith('em')) return Number.parseFloat(letterSpacing) * px || 0;
  return Number.parseFloat(letterSpacing ?? '0') || 0;
}

/**
 * The grid's fonts (body2, as MUI X draws cells; medium weight for headers), and whether they have loaded: the
 * app ships its typeface (`@fontsource/roboto`), and a width measured in the fallback font is measured again once
 * it has arrived.
 */
export function useGridFonts(): { cell: string; bold: string; header: string; letterSpacing: number; ready: boolean } {
  const { typography } = useTheme();
  const { fontFamily, fontSize, letterSpacing } = typography.body2;
  const fonts = useMemo(() => {
    const px = pixels(fontSize);
    return {
      cell: fontOf(typography.fontWeightRegular, px, fontFamily),
      bold: fontOf(typography.fontWeightMedium, px, fontFamily),
      header: fontOf(typography.fontWeightMedium, px, fontFamily),
      letterSpacing: spacing(letterSpacing, px),
    };
  }, [typography, fontFamily, fontSize, letterSpacing]);
  const [ready, setReady] = useState(() => fontsLoaded([fonts.cell, fonts.header]));
  useEffect(() => {
    if (ready || typeof document === 'undefined' || !document.fonts) return;
    let live = true;
    Promise.all([document.fonts.load(fonts.cell), document.fonts.load(fonts.header)])
      .then(() => {
        if (live) setReady(true);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [fonts, ready]);
  return { ...fonts, ready };
}

function fontsLoaded(fonts: readonly string[]): boolean {
  if (typeof document === 'undefined' || !document.fonts) return true;
  try {
    return fonts.every((font) => document.fonts.check(font));
  } catch {
    return true;
  }
}

/**
 * Each column's width from its content: the widest of its header title (with room for the sort arrow), its
 * samples and the rows shown, in the fonts the grid draws them with, plus the cell padding.
 */
export function useContentWidths<Row>(
  rows: readonly Row[],
  columns: Readonly<Record<string, ColumnContent<Row>>>,
): Record<string, number> {
  const fonts = useGridFonts();
  return useMemo(() => {
    void fonts.ready;
    const widths: Record<string, number> = {};
    for (const [field, column] of Object.entries(columns)) {
      const texts = [...(column.samples ?? []), ...(column.text ? rows.map(column.text) : [])];
      const cells = widestText(texts, column.bold ? fonts.bold : fonts.cell, fonts.letterSpacing);
      const header = widestText([column.header], fonts.header, fonts.letterSpacing);
      if (cells === null || header === null) {
        widths[field] = column.fallback ?? column.min ?? DEFAULT_MIN;
        continue;
      }
      const widest = Math.max(cells, header + (column.sortRoom === false ? 0 : SORT_ICON_ROOM));
      widths[field] = contentWidth(widest, {
        min: column.min ?? DEFAULT_MIN,
        max: column.max ?? DEFAULT_MAX,
        padding: CELL_PADDING,
      });
    }
    return widths;
  }, [rows, columns, fonts]);
}
