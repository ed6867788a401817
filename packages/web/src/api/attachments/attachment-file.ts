import { LEDGER_HEADER } from '@billfold/contract/ledger-basics';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ledgerHeaderValue } from '../../lib/ledger-choice.ts';
import { API_PREFIX, ApiError, type Observation, sendWithSession } from '../client.ts';
import { type Outcome, settle } from '../outcome.ts';

/**
 * `GET /attachments/{id}` or `/attachments/{id}/thumbnail` as a `Blob`: the bytes need the bearer token, so an
 * `<img src>` or a link cannot fetch them itself; the page shows them through an object URL.
 */
export function attachmentBlob(path: string): Promise<Outcome<Blob>> {
  return settle('GET', path, readBlob(path));
}

async function readBlob(path: string): Promise<Blob> {
  const ledger = ledgerHeaderValue();
  let blob: Blob | null = null;
  const result = await sendWithSession(async (token): Promise<Observation> => {
    try {
      const response = await fetch(`${API_PREFIX}${path}`, {
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(ledger ? { [LEDGER_HEADER]: ledger } : {}),
        },
      });
      if (response.ok) blob = await response.blob();
      return {
        stage: 'response',
        status: response.status,
        ok: response.ok,
        text: response.ok ? '' : await response.text(),
      };
    } catch (error) {
      return { stage: 'request', error };
    }
  });
  if (result.stage !== 'response') throw result.error;
  if (!result.ok || !blob) throw new ApiError(result.status, `GET ${path} failed with ${result.status}`);
  return blob;
}

/** The attachment's thumbnail as an object URL while the component shows it (revoked after). */
export function useThumbnailUrl(id: number): string | null {
  const query = useQuery({
    queryKey: ['attachments', 'thumbnail', id],
    queryFn: async () => {
      const outcome = await attachmentBlob(`/attachments/${id}/thumbnail`);
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
  const outcome = await attachmentBlob(`/attachments/${id}`);
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
