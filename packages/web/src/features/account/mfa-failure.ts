import type { Failure } from '../../api/outcome.ts';

/** The spec's "Failed to … MFA." message, followed by the server's reason when it gave one (wrong password, code). */
export function mfaFailureMessage(base: string, failure: Failure): string {
  if (failure.reason === 'failed' && failure.message) return `${base} ${failure.message.replace(/\.?$/, '.')}`;
  return base;
}
