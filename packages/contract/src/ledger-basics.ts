/**
 * The few ledger values a client needs before anything else, free of zod so the web app's first download stays
 * small (e2e/specs/bundle-size.test.ts): the header, the roles and the viewer's message. `ledgers.ts` re-exports
 * them with the wire shapes (docs/decisions/0107-ledgers.md).
 */

/** The request header that names the ledger a call works in (the pattern of Stripe's `Stripe-Account`). */
export const LEDGER_HEADER = 'Billfold-Ledger';

/** owner: everything, members, delete · editor: every data write · viewer: reads and exports only. */
export const LEDGER_ROLES = ['owner', 'editor', 'viewer'] as const;
export type LedgerRole = (typeof LEDGER_ROLES)[number];

/** The message of every write a viewer tries (docs/decisions/0107-ledgers.md), code `LEDGER_READ_ONLY`. */
export const LEDGER_READ_ONLY_MESSAGE = 'This ledger is read-only for you.';

/** The message of an owner's call made by an editor or viewer, code `LEDGER_OWNER_ONLY`. */
export const LEDGER_OWNER_ONLY_MESSAGE = 'Only an owner of this ledger may do this.';
