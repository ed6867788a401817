/**
 * The ledger this tab works in (docs/decisions/0107-ledgers.md, docs/decisions/0303-web-ledgers.md). Each tab
 * remembers its own choice in session storage (so a reload keeps it and another tab may work in another ledger);
 * no choice means the user's personal ledger, and then no `Billfold-Ledger` header is sent at all, exactly as
 * the spec's original client does. The choice keeps the ledger's name and the caller's role as last seen, so a
 * reload shows both at once (the ledger list corrects them when it arrives) and a notice can name a ledger that
 * is gone.
 */
import { LEDGER_ROLES, type LedgerRole } from '@billfold/contract/ledger-basics';
import { SESSION_KEYS, subscribeSession } from './session.ts';

export interface LedgerChoice {
  id: number;
  name: string;
  role: LedgerRole;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let snapshot: LedgerChoice | null | undefined;

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

/** A stored choice, when the text is one: a positive whole id, a name and a known role. */
export function parseLedgerChoice(text: string | null | undefined): LedgerChoice | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<LedgerChoice> | null;
    if (!value || typeof value !== 'object') return null;
    const { id, name, role } = value;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) return null;
    if (typeof name !== 'string' || !LEDGER_ROLES.includes(role as LedgerRole)) return null;
    return { id, name, role: role as LedgerRole };
  } catch {
    return null;
  }
}

function load(): LedgerChoice | null {
  return parseLedgerChoice(storage()?.getItem(SESSION_KEYS.ledger));
}

/** This tab's chosen ledger, or null for the personal one; the same object until it changes. */
export function readLedgerChoice(): LedgerChoice | null {
  if (snapshot === undefined) snapshot = load();
  return snapshot;
}

export function subscribeLedgerChoice(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function same(a: LedgerChoice | null, b: LedgerChoice | null): boolean {
  return a === b || (a !== null && b !== null && a.id === b.id && a.name === b.name && a.role === b.role);
}

/**
 * Makes `choice` this tab's ledger (null: the personal one). Listeners hear of every change, including a new
 * name or role of the same ledger.
 */
export function chooseLedger(choice: LedgerChoice | null): void {
  const store = storage();
  const before = readLedgerChoice();
  if (same(before, choice)) return;
  if (choice) store?.setItem(SESSION_KEYS.ledger, JSON.stringify(choice));
  else store?.removeItem(SESSION_KEYS.ledger);
  snapshot = choice;
  for (const listener of listeners) listener();
}

/** The `Billfold-Ledger` value for this tab's calls: the chosen ledger's id, or null for the personal ledger. */
export function ledgerHeaderValue(): string | null {
  const choice = readLedgerChoice();
  return choice ? String(choice.id) : null;
}

/** Reads storage again when the session changes: signing out (or in as someone else) removes the choice. */
function reloadLedgerChoice(): void {
  const next = load();
  if (same(snapshot ?? null, next)) {
    snapshot = next;
    return;
  }
  snapshot = next;
  for (const listener of listeners) listener();
}
subscribeSession(reloadLedgerChoice);

// ---------- what the server's refusals say about the chosen ledger ----------

const doubtListeners = new Set<Listener>();

/**
 * Called by the API client when a call made in a chosen ledger was refused in a way that may mean the caller's
 * membership or role changed under the open tab: a 404 (the ledger may be gone, or they were removed), or a 403
 * `LEDGER_READ_ONLY`/`LEDGER_OWNER_ONLY` (their role was lowered). The app then reads the ledger list again.
 */
export function reportLedgerDoubt(): void {
  for (const listener of doubtListeners) listener();
}

export function subscribeLedgerDoubt(listener: Listener): () => void {
  doubtListeners.add(listener);
  return () => doubtListeners.delete(listener);
}
