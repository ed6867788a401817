import ContentCopy from '@mui/icons-material/ContentCopy';
import Download from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useAccountNotice } from './use-account-notice.ts';

const FILE_NAME = 'billfold-recovery-codes.txt';

/** Ten one-time recovery codes, shown once: listed, copied or downloaded as a text file. */
export function RecoveryCodeList({ codes, username }: { codes: string[]; username: string }) {
  const notify = useAccountNotice();
  const text = `Billfold recovery codes for ${username}\nEach code signs you in once.\n\n${codes.join('\n')}\n`;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      notify('Recovery codes copied.', 'success');
    } catch {
      notify('Could not copy; download the codes instead.', 'error');
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = FILE_NAME;
    link.click();
    URL.revokeObjectURL(url);
  };

  return (
    <Stack spacing={2}>
      <Alert severity="warning">
        Keep these codes somewhere safe. Each one signs you in once if you lose your authenticator app. They are shown
        only now.
      </Alert>
      <Box
        component="ol"
        aria-label="Recovery codes"
        sx={{
          m: 0,
          p: 2,
          listStyle: 'none',
          display: 'grid',
          gridTemplateColumns: 'repeat(2, 1fr)',
          gap: 1,
          fontFamily: 'monospace',
          fontSize: '1rem',
          textAlign: 'center',
          bgcolor: 'action.hover',
          borderRadius: 1,
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Stack direction="row" spacing={1}>
        <Button startIcon={<Download />} onClick={download}>
          Download
        </Button>
        <Button startIcon={<ContentCopy />} onClick={copy}>
          Copy
        </Button>
      </Stack>
    </Stack>
  );
}
