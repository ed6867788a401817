import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';

/**
 * A page's item that is not there (docs/product.md, Messages: "Invoice not found.", "Entity not found."), with a way
 * home, and when the item is in the recycle bin, saying so with a link there (where it can be restored).
 */
export function NotFoundNotice({ message, what, inBin }: { message: string; what: string; inBin: boolean }) {
  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
      <Alert severity="error" sx={{ alignSelf: 'stretch' }}>
        {message}
      </Alert>
      {inBin && (
        <Typography>
          This {what} is in the recycle bin. Restore it there within 14 days of its deletion, or it is deleted
          permanently.
        </Typography>
      )}
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {inBin && (
          <Button component={RouterLink} to="/recycle" variant="contained">
            Open Recycle Bin
          </Button>
        )}
        <Button component={RouterLink} to="/home" variant={inBin ? 'outlined' : 'contained'}>
          Go to Home
        </Button>
      </Stack>
    </Stack>
  );
}
