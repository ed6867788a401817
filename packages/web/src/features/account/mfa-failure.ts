import { type Failure, failureMessage } from '../../api/outcome.ts';

/** The "Failed to … MFA." message (docs/product.md, Messages), followed by the server's reason when it gave one (wrong password, code). */
export function mfaFailureMessage(base: string, failure: Failure): string {
  return failureMessage(failure, { failed: base, error: base });
}
