import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

interface Props {
  title: string;
  /** The card's width from the `sm` breakpoint up, in pixels. */
  width?: number;
  /** The space under the title, in theme spacing units. */
  titleGap?: number;
  children: ReactNode;
}

/** A page whose content sits on one outlined card under its title (the forms, the account). */
export function PageCard({ title, width = 640, titleGap = 3, children }: Props) {
  return (
    <Container sx={{ py: 4, maxWidth: { sm: width } }}>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 4 } }}>
        <Typography variant="h5" component="h1" sx={{ mb: titleGap, fontWeight: 500 }}>
          {title}
        </Typography>
        {children}
      </Paper>
    </Container>
  );
}
