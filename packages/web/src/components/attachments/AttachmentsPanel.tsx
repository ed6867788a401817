import { ATTACHMENT_ACCEPT, type Attachment } from '@billfold/contract/attachments';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import OpenInNew from '@mui/icons-material/OpenInNew';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useId, useRef, useState } from 'react';
import { openAttachment, useThumbnailUrl } from '../../api/attachments/attachment-file.ts';
import { useDeleteAttachment } from '../../api/attachments/delete-attachment.ts';
import { type AttachmentOwner, useAttachments } from '../../api/attachments/list-attachments.ts';
import { useUploadAttachment } from '../../api/attachments/upload-attachment.ts';
import { failureMessage } from '../../api/outcome.ts';
import { ConfirmDialog } from '../ConfirmDialog.tsx';
import { ReadOnlyTip } from '../ledger-access.tsx';
import { useNotice } from '../notices.tsx';
import { FileDropZone } from './FileDropZone.tsx';

/** `1.4 MB`, `820 KB`, `96 bytes`: a file's size as people read it. */
export function fileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

interface Upload {
  key: number;
  name: string;
  share: number;
}

/**
 * The files of an invoice or a payment (docs/product.md, Files): previews, open, save and delete, and a drop zone
 * with a file picker and, on phones, the camera. A viewer (or an item that cannot change) sees the files with the
 * write controls disabled and the reason.
 */
export function AttachmentsPanel({
  owner,
  readOnly,
  readOnlyReason,
  title = 'Files',
  elevation = 'outlined',
}: {
  owner: AttachmentOwner;
  readOnly: boolean;
  readOnlyReason: string | null;
  title?: string;
  elevation?: 'outlined' | 'none';
}) {
  const files = useAttachments(owner);
  const upload = useUploadAttachment();
  const remove = useDeleteAttachment();
  const notify = useNotice();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [deleting, setDeleting] = useState<Attachment | null>(null);
  const headingId = useId();
  const sequence = useRef(0);

  const send = async (chosen: readonly File[]) => {
    for (const file of chosen) {
      sequence.current += 1;
      const key = sequence.current;
      setUploads((list) => [...list, { key, name: file.name, share: 0 }]);
      const outcome = await upload(owner, file, (share) =>
        setUploads((list) => list.map((u) => (u.key === key ? { ...u, share } : u))),
      );
      setUploads((list) => list.filter((u) => u.key !== key));
      if (outcome.ok) notify(`${file.name} attached.`, { severity: 'success' });
      else
        notify(
          failureMessage(outcome, { failed: `Failed to attach ${file.name}.`, error: `Error attaching ${file.name}.` }),
          {
            severity: 'error',
          },
        );
    }
  };
  const confirmDelete = async () => {
    if (!deleting) return;
    const outcome = await remove.mutateAsync(deleting.id);
    const name = deleting.fileName;
    setDeleting(null);
    if (outcome.ok) notify(`${name} removed.`, { severity: 'success' });
    else
      notify(failureMessage(outcome, { failed: `Failed to remove ${name}.`, error: `Error removing ${name}.` }), {
        severity: 'error',
      });
  };
  const open = async (file: Attachment, save: boolean) => {
    const outcome = await openAttachment(file.id, file.fileName, save);
    if (!outcome.ok)
      notify(failureMessage(outcome, { failed: 'Failed to open the file.', error: 'Error opening the file.' }), {
        severity: 'error',
      });
  };

  const list = files.data?.attachments ?? [];
  return (
    <Paper
      variant={elevation === 'outlined' ? 'outlined' : 'elevation'}
      elevation={0}
      sx={{ p: elevation === 'outlined' ? { xs: 2, sm: 3 } : 0, mb: 3 }}
      component="section"
      aria-labelledby={headingId}
      data-testid="attachments"
    >
      <Typography variant="h6" component="h2" id={headingId} sx={{ mb: 2 }}>
        {title}
        {list.length > 0 && ` (${list.length})`}
      </Typography>
      {files.isError && (
        <Typography color="error" sx={{ mb: 2 }}>
          Failed to load the files.
        </Typography>
      )}
      {list.length > 0 && (
        <Box
          component="ul"
          sx={{
            listStyle: 'none',
            p: 0,
            m: 0,
            mb: 2,
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(auto-fill, minmax(160px, 1fr))' },
          }}
        >
          {list.map((file) => (
            <AttachmentCard
              key={file.id}
              file={file}
              readOnly={readOnly}
              readOnlyReason={readOnlyReason}
              onOpen={(save) => void open(file, save)}
              onDelete={() => setDeleting(file)}
            />
          ))}
        </Box>
      )}
      {uploads.map((u) => (
        <Box key={u.key} sx={{ mb: 2 }} data-testid="upload-progress">
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            Uploading {u.name}… {Math.round(u.share * 100)}%
          </Typography>
          <LinearProgress variant="determinate" value={u.share * 100} aria-label={`Uploading ${u.name}`} />
        </Box>
      ))}
      <ReadOnlyTip reason={readOnlyReason} block>
        <FileDropZone
          accept={ATTACHMENT_ACCEPT}
          multiple
          disabled={readOnly}
          onFiles={(chosen) => void send(chosen)}
          testId="drop-zone"
          inputTestId="attach-file-input"
          pickLabel="Choose a file to attach"
          photoLabel="Take a photo to attach"
        >
          {list.length === 0 ? 'No files yet. ' : ''}Drop a PDF or a photo of the bill here (up to 20 MB).
        </FileDropZone>
      </ReadOnlyTip>
      <ConfirmDialog
        open={deleting !== null}
        title="Remove File"
        confirmLabel="Remove"
        destructive
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        {deleting ? `Remove ${deleting.fileName} from this item? This cannot be undone.` : ''}
      </ConfirmDialog>
    </Paper>
  );
}

function AttachmentCard({
  file,
  readOnly,
  readOnlyReason,
  onOpen,
  onDelete,
}: {
  file: Attachment;
  readOnly: boolean;
  readOnlyReason: string | null;
  onOpen: (save: boolean) => void;
  onDelete: () => void;
}) {
  const thumbnail = useThumbnailUrl(file.id);
  return (
    <Box
      component="li"
      data-testid="attachment"
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden' }}
    >
      <Box
        component="button"
        type="button"
        onClick={() => onOpen(false)}
        aria-label={`Open ${file.fileName}`}
        sx={{
          display: 'block',
          width: '100%',
          height: 140,
          p: 0,
          border: 0,
          bgcolor: 'action.hover',
          cursor: 'pointer',
        }}
      >
        {thumbnail && (
          <Box
            component="img"
            src={thumbnail}
            alt=""
            data-testid="attachment-preview"
            sx={{ width: '100%', height: '100%', objectFit: 'contain', display: 'block' }}
          />
        )}
      </Box>
      <Box sx={{ px: 1, pt: 1 }}>
        <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
          {file.fileName}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {fileSize(file.size)}
        </Typography>
      </Box>
      <Stack direction="row" sx={{ px: 0.5, pb: 0.5 }}>
        <Tooltip title="Open">
          <IconButton aria-label={`Open ${file.fileName} in a new tab`} onClick={() => onOpen(false)}>
            <OpenInNew fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title="Save">
          <IconButton aria-label={`Save ${file.fileName}`} onClick={() => onOpen(true)}>
            <FileDownloadOutlined fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title={readOnlyReason ?? 'Remove'}>
          <span>
            <IconButton aria-label={`Remove ${file.fileName}`} onClick={onDelete} disabled={readOnly}>
              <DeleteOutlined fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      </Stack>
    </Box>
  );
}
