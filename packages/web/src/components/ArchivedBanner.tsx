import Alert from '@mui/material/Alert';
import type { SxProps, Theme } from '@mui/material/styles';

/** Read-only notice of an archived entity's screens (docs/product.md, Archiving): where to go to make it editable again. */
export const ARCHIVED_BANNER_TEXT =
  'This entity is archived, so it and its invoices and payments are read only. To make changes, restore it from Archives in the History menu.';

export function ArchivedBanner({ sx }: { sx?: SxProps<Theme> }) {
  return (
    <Alert severity="warning" sx={sx ?? { mb: 2 }} data-testid="archived-banner">
      {ARCHIVED_BANNER_TEXT}
    </Alert>
  );
}
