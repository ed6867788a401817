import ContentCopy from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { ReactNode } from 'react';

interface Props {
  /** The secret itself. */
  value: string;
  /** What it is, in the warning and the notices: `token`, `secret`. */
  noun: string;
  /** The accessible name of the box holding it, e.g. `API token`. */
  label: string;
  testId: string;
  /** Tells the person whether Copy worked. */
  notify: (message: string, severity: 'success' | 'error') => void;
  /** What to do with it, below the Copy button. */
  children?: ReactNode;
}

/**
 * A secret the server shows this once (an API token, a webhook's signing secret): the warning, the value in a box
 * that selects whole, and a Copy button.
 */
export function SecretOnce({ value, noun, label, testId, notify, children }: Props) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      notify(`${noun[0]?.toUpperCase()}${noun.slice(1)} copied.`, 'success');
    } catch {
      notify(`Could not copy; select the ${noun} and copy it yourself.`, 'error');
    }
  };
  return (
    <>
      <Alert severity="warning">Copy this {noun} now. It is shown only once.</Alert>
      <Box
        component="code"
        aria-label={label}
        data-testid={testId}
        sx={{
          p: 1.5,
          fontFamily: 'monospace',
          fontSize: '0.95rem',
          overflowWrap: 'anywhere',
          bgcolor: 'action.hover',
          borderRadius: 1,
          userSelect: 'all',
        }}
      >
        {value}
      </Box>
      <Box>
        <Button startIcon={<ContentCopy />} onClick={copy}>
          Copy
        </Button>
      </Box>
      {children}
    </>
  );
}
