import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  GridFooterContainer,
  GridPagination,
  gridPageCountSelector,
  gridPaginationModelSelector,
  gridPaginationRowCountSelector,
  useGridApiContext,
  useGridSelector,
} from '@mui/x-data-grid';
import { useId, useState } from 'react';

/** The 1-based page a Go-to-page entry names, or null when it is not a page of `pageCount`. */
export function parseGoToPage(text: string, pageCount: number): number | null {
  if (!/^\d+$/.test(text)) return null;
  const page = Number(text);
  return page >= 1 && page <= pageCount ? page : null;
}

/** Why Go is disabled for a typed page: `Pages start at 1.` or `The last page is 7.`; null when empty or fine. */
export function goToPageProblem(text: string, pageCount: number): string | null {
  // An empty grid still shows page 1.
  if (text === '' || parseGoToPage(text, Math.max(pageCount, 1)) !== null) return null;
  return Number(text) < 1 ? 'Pages start at 1.' : `The last page is ${Math.max(pageCount, 1)}.`;
}

export interface GoToPageBoxProps {
  /** 0-based. */
  page: number;
  pageCount: number;
  /** False until the first answer: the row count, and so the last page, are not known yet. */
  known: boolean;
  /** 0-based. */
  onPage: (page: number) => void;
}

/** The Go-to-page box (docs/product.md, Home (/home)) — Page, Go, First and Last (the grid's footer and the phone list's). */
export function GoToPageBox({ page, pageCount, known, onPage }: GoToPageBoxProps) {
  const [text, setText] = useState('');
  const target = known ? parseGoToPage(text, pageCount) : null;
  const problem = known ? goToPageProblem(text, pageCount) : null;
  const problemId = useId();
  const go = () => {
    if (target === null) return;
    onPage(target - 1);
    setText('');
  };
  return (
    <Box
      role="group"
      aria-label="Go to page"
      sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.5, pl: 1, flexWrap: 'wrap' }}
    >
      <TextField
        size="small"
        label="Page"
        value={text}
        onChange={(event) => setText(event.target.value.replace(/\D/g, '').slice(0, 7))}
        onKeyDown={(event) => {
          if (event.key === 'Enter') go();
        }}
        error={problem !== null}
        slotProps={{
          htmlInput: {
            inputMode: 'numeric',
            'aria-label': 'Page',
            ...(problem ? { 'aria-describedby': problemId, 'aria-invalid': true } : {}),
          },
        }}
        sx={{ width: 76 }}
      />
      <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
        of {known ? Math.max(pageCount, 1) : '…'}
      </Typography>
      <Button size="small" variant="outlined" onClick={go} disabled={target === null}>
        Go
      </Button>
      {problem && (
        <Typography id={problemId} variant="body2" color="error" role="status" sx={{ whiteSpace: 'nowrap' }}>
          {problem}
        </Typography>
      )}
      <Button size="small" onClick={() => onPage(0)} disabled={page === 0}>
        First
      </Button>
      <Button
        size="small"
        onClick={() => onPage(Math.max(pageCount - 1, 0))}
        disabled={!known || page >= pageCount - 1}
      >
        Last
      </Button>
    </Box>
  );
}

function GoToPage() {
  const apiRef = useGridApiContext();
  const pageCount = useGridSelector(apiRef, gridPageCountSelector);
  const rowCount = useGridSelector(apiRef, gridPaginationRowCountSelector);
  const { page } = useGridSelector(apiRef, gridPaginationModelSelector);
  return (
    <GoToPageBox
      page={page}
      pageCount={pageCount}
      known={rowCount >= 0}
      onPage={(target) => apiRef.current.setPage(target)}
    />
  );
}

export function InvoiceGridFooter() {
  return (
    <GridFooterContainer sx={{ flexWrap: 'wrap', justifyContent: 'space-between', flex: '0 0 auto' }}>
      <GoToPage />
      <GridPagination />
    </GridFooterContainer>
  );
}
