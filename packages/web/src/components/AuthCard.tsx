import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** The centred card of the signed-out screens. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Container maxWidth="xs" sx={{ py: { xs: 4, sm: 8 } }}>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 } }}>
        <Typography variant="h5" component="h1" sx={{ mb: 3, textAlign: 'center', fontWeight: 500 }}>
          {title}
        </Typography>
        {children}
      </Paper>
    </Container>
  );
}
