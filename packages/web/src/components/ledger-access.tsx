/**
 * The tab's ledger and what the caller may do in it (docs/decisions/0303-web-ledgers.md). Every screen with a
 * write control asks `useLedgerAccess()`; a viewer's controls are disabled with the reason in a tooltip
 * (`ReadOnlyTip`), or hidden where a whole screen writes, so no button is dead.
 */

import { LEDGER_OWNER_ONLY_MESSAGE, LEDGER_READ_ONLY_MESSAGE } from '@billfold/contract/ledger-basics';
import type { Ledger, LedgerRole } from '@billfold/contract/ledgers';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import type { ReactElement, ReactNode } from 'react';
import { useSyncExternalStore } from 'react';
import { useLedgers } from '../api/ledgers/list-ledgers.ts';
import { type LedgerChoice, readLedgerChoice, subscribeLedgerChoice } from '../lib/ledger-choice.ts';
import { useSession } from '../lib/use-session.ts';

/** The tab's ledger: its id once known (the personal ledger's comes with the list), name, the caller's role. */
export interface CurrentLedger {
  id: number | null;
  name: string;
  role: LedgerRole;
  personal: boolean;
}

/** The name a personal ledger has until the user renames it (docs/decisions/0107-ledgers.md). */
export const PERSONAL_LEDGER_NAME = 'Personal';

/** This tab's chosen ledger (null: the personal one); re-renders when it changes. */
export function useLedgerChoice(): LedgerChoice | null {
  return useSyncExternalStore(subscribeLedgerChoice, readLedgerChoice, readLedgerChoice);
}

/**
 * The ledger the tab works in, from the choice and the user's ledger list. Until the list has arrived the choice's
 * own name and role stand in (so a reload shows them at once); the personal ledger is always its owner's.
 */
export function currentLedger(choice: LedgerChoice | null, ledgers: readonly Ledger[] | undefined): CurrentLedger {
  if (choice) {
    const listed = ledgers?.find((ledger) => ledger.id === choice.id);
    return {
      id: choice.id,
      name: listed?.name ?? choice.name,
      role: listed?.role ?? choice.role,
      personal: listed?.personal ?? false,
    };
  }
  const personal = ledgers?.find((ledger) => ledger.personal);
  return { id: personal?.id ?? null, name: personal?.name ?? PERSONAL_LEDGER_NAME, role: 'owner', personal: true };
}

export function useCurrentLedger(): { ledger: CurrentLedger; ledgers: readonly Ledger[] | undefined } {
  const session = useSession();
  const choice = useLedgerChoice();
  const { data } = useLedgers({ enabled: session !== null });
  return { ledger: currentLedger(choice, data), ledgers: data };
}

export interface LedgerAccess {
  role: LedgerRole;
  /** Editors and owners write the ledger's data; viewers only read and export. */
  canWrite: boolean;
  /** Owners manage members, invitations, the name, and delete the ledger. */
  isOwner: boolean;
  /** Why a write control is disabled (the server's own message for a viewer's write), or null when it is not. */
  readOnlyReason: string | null;
  /** Why an owner's control (loading a ledger file) is disabled for an editor or a viewer, or null for an owner. */
  ownerOnlyReason: string | null;
}

/** The reason on a control only a ledger's owners may use (403 `LEDGER_OWNER_ONLY` from the server). */
export const OWNER_ONLY_REASON = LEDGER_OWNER_ONLY_MESSAGE;

export function accessOf(role: LedgerRole): LedgerAccess {
  const canWrite = role !== 'viewer';
  return {
    role,
    canWrite,
    isOwner: role === 'owner',
    readOnlyReason: canWrite ? null : LEDGER_READ_ONLY_MESSAGE,
    ownerOnlyReason: role === 'owner' ? null : canWrite ? OWNER_ONLY_REASON : LEDGER_READ_ONLY_MESSAGE,
  };
}

/** What the caller may do in the tab's ledger. */
export function useLedgerAccess(): LedgerAccess {
  return accessOf(useCurrentLedger().ledger.role);
}

/**
 * A write control, with `reason` as its tooltip while it is disabled because of the role. A disabled button
 * takes no pointer events, so the tooltip sits on a wrapper; `children` must already be disabled when `reason`
 * is given. Without a reason the control is rendered as is.
 */
export function ReadOnlyTip({
  reason,
  children,
  block = false,
}: {
  reason: string | null;
  children: ReactElement;
  /** The wrapper takes the full width (a full-width button). */
  block?: boolean;
}): ReactNode {
  if (!reason) return children;
  return (
    <Tooltip title={reason} describeChild>
      <Box
        component="span"
        data-read-only-reason={reason}
        sx={{ display: block ? 'block' : 'inline-flex', cursor: 'not-allowed' }}
      >
        {children}
      </Box>
    </Tooltip>
  );
}

/** The notice of a screen whose every control writes (a form reached by its address), for a viewer. */
export function ReadOnlyBanner({ reason }: { reason: string }) {
  return (
    <Alert severity="info" sx={{ mb: 2 }} data-testid="read-only-banner">
      {reason}
    </Alert>
  );
}
