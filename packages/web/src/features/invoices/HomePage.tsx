import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';

/** `/home` (spec §2). The invoice grid, filter panel and stats tab arrive with issue 5. */
export default function HomePage() {
  return (
    <Container maxWidth="xl" sx={{ py: 3 }}>
      <Typography variant="h5" component="h1">
        Home
      </Typography>
    </Container>
  );
}
