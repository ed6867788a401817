import { type Failure, failureMessage } from '../../api/outcome.ts';

/** The spec's "Failed to … MFA." message, followed by the server's reason when it gave one (wrong password, code). */
export function mfaFailureMessage(base: string, failure: Failure): string {
  return failureMessage(failure, { failed: base, error: base });
}
