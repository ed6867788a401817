/**
 * `sx` for text that screen readers read and tests find but that is not shown (a page's hidden heading, a label).
 * Lengths are strings: in `sx` a bare 1 means 100 % and a margin of -1 means one spacing unit, which made the
 * hidden heading as wide as the page plus 8 px and scrolled every page sideways.
 */
export const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;
