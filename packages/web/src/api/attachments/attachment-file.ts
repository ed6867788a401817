import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getBlob } from '../blob.ts';
import { ApiError } from '../client.ts';
import type { Outcome } from '../outcome.ts';

/** The attachment's thumbnail as an object URL while the component shows it (revoked after). */
export function useThumbnailUrl(id: number): string | null {
  const query = useQuery({
    queryKey: ['attachments', 'thumbnail', id],
    queryFn: async () => {
      const outcome = await getBlob(`/attachments/${id}/thumbnail`);
      if (!outcome.ok) throw new ApiError(outcome.status ?? 0, 'thumbnail failed');
      return URL.createObjectURL(outcome.data);
    },
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  const url = query.data ?? null;
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  return url;
}

/** Opens the file in a new tab (PDFs and pictures show in the browser), or saves it under its name. */
export async function openAttachment(id: number, fileName: string, save: boolean): Promise<Outcome<Blob>> {
  const outcome = await getBlob(`/attachments/${id}`);
  if (!outcome.ok) return outcome;
  const url = URL.createObjectURL(outcome.data);
  if (save) {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.click();
  } else {
    window.open(url, '_blank', 'noopener');
  }
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return outcome;
}
