import { LEDGER_HEADER } from '@billfold/contract/ledger-basics';
import { ledgerHeaderValue } from '../lib/ledger-choice.ts';
import { API_PREFIX, ApiError, type Observation, sendWithSession } from './client.ts';
import { type Outcome, settle } from './outcome.ts';

/**
 * `GET path` as a `Blob`, with the session's token and the tab's ledger: bytes that are not JSON (an attachment or
 * its thumbnail, which an `<img src>` or a link cannot fetch with the bearer token, and the ledger file, which may be
 * a tar archive). The blob's `type` is the answer's content type.
 */
export function getBlob(path: string): Promise<Outcome<Blob>> {
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
