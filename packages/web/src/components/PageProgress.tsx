import LinearProgress from '@mui/material/LinearProgress';

/** Shown while a page's code or data loads. */
export function PageProgress() {
  return <LinearProgress aria-label="Loading" sx={{ position: 'absolute', left: 0, right: 0 }} />;
}
