import AttachFile from '@mui/icons-material/AttachFile';
import PhotoCamera from '@mui/icons-material/PhotoCamera';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type ChangeEvent, type DragEvent, type ReactNode, useRef, useState } from 'react';

/**
 * A dashed box files are dropped on, with "Choose file" and, on phones and tablets, "Take photo" (the back camera):
 * the Files part's and "Invoice from a file"'s. `onFiles` gets what was dropped or picked (never while disabled).
 */
export function FileDropZone({
  children,
  accept,
  multiple = false,
  disabled,
  onFiles,
  testId,
  inputTestId,
  pickLabel,
  photoLabel,
}: {
  /** The text in the box. */
  children: ReactNode;
  accept: string;
  multiple?: boolean;
  disabled: boolean;
  onFiles: (files: File[]) => void;
  testId: string;
  inputTestId: string;
  /** The file inputs' accessible names. */
  pickLabel: string;
  photoLabel: string;
}) {
  const [dragging, setDragging] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const camera = useRef<HTMLInputElement>(null);
  const picked = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (chosen.length > 0) onFiles(chosen);
  };
  const dropped = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const chosen = Array.from(event.dataTransfer.files);
    if (!disabled && chosen.length > 0) onFiles(multiple ? chosen : chosen.slice(0, 1));
  };
  return (
    <Box
      onDragOver={(event) => {
        event.preventDefault();
        if (!disabled) setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={dropped}
      data-testid={testId}
      sx={{
        border: 2,
        borderStyle: 'dashed',
        borderColor: dragging ? 'primary.main' : 'divider',
        bgcolor: dragging ? 'action.hover' : 'transparent',
        borderRadius: 1,
        p: 2,
        textAlign: 'center',
      }}
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {children}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Button
          variant="outlined"
          startIcon={<AttachFile />}
          onClick={() => picker.current?.click()}
          disabled={disabled}
        >
          Choose file
        </Button>
        <Button
          variant="outlined"
          startIcon={<PhotoCamera />}
          onClick={() => camera.current?.click()}
          disabled={disabled}
          sx={{ display: { xs: 'inline-flex', md: 'none' } }}
        >
          Take photo
        </Button>
      </Stack>
      <input
        ref={picker}
        type="file"
        accept={accept}
        multiple={multiple}
        hidden
        onChange={picked}
        data-testid={inputTestId}
        aria-label={pickLabel}
      />
      <input
        ref={camera}
        type="file"
        accept="image/*"
        capture="environment"
        hidden
        onChange={picked}
        aria-label={photoLabel}
      />
    </Box>
  );
}
