import { tokenExpiresAt } from './jwt.ts';

/**
 * Everything the app keeps in session storage, under one list of key names. Signing out removes every key
 * listed here (docs/product.md, Saved view settings), so a feature that saves a view setting must use a key from `VIEW_KEYS`.
 */
export const SESSION_KEYS = {
  accessToken: 'accessToken',
  refreshToken: 'refreshToken',
  username: 'username',
  /** Names one sign-in; tabs holding the same one (a duplicated tab) keep each other's tokens current. */
  sessionId: 'sessionId',
  /** The ledger this tab works in, `{id, name, role}` (`lib/ledger-choice.ts`); none: the personal ledger. */
  ledger: 'ledger',
} as const;

/** Saved view settings of the home page (docs/product.md, Saved view settings); cleared on logout. */
export const VIEW_KEYS = {
  /** Filter fields: invoice, category, biller, amountMin, amountMax, status, flow. */
  filters: 'filters',
  /** `false`, `true` or `'only'`. */
  includeArchived: 'includeArchived',
  /** `{start, end}` as `YYYY-MM-DD` or null. */
  dateRange: 'dateRange',
  /** `'single'` or `'range'`. */
  dateMode: 'dateMode',
  page: 'page',
  pageSize: 'pageSize',
  columnVisibility: 'columnVisibility',
  /** Column field → the width in px the user dragged it to. */
  columnWidths: 'columnWidths',
  sortModel: 'sortModel',
  /** The original client's name for this key, kept so its saved settings carry over. */
  showMoreOptions: 'showMoreOptions',
  /** The Entities page's search, archives choice, page, page size and sort (`features/entities/entities-view.ts`). */
  entitiesView: 'entitiesView',
} as const;

export const ALL_SESSION_KEYS: readonly string[] = [...Object.values(SESSION_KEYS), ...Object.values(VIEW_KEYS)];

export interface Session {
  accessToken: string;
  refreshToken: string | null;
  username: string;
  sessionId: string | null;
}

/** Why the last session ended: the user logged out, or it could not be renewed (a failed refresh). */
export type SessionEnd = 'loggedOut' | 'ended';

type Listener = () => void;
const listeners = new Set<Listener>();
let snapshot: Session | null | undefined;
let lastEnd: SessionEnd | null = null;

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    // Storage can be blocked by browser settings; the app then behaves as signed out.
    return null;
  }
}

function load(): Session | null {
  const store = storage();
  const accessToken = store?.getItem(SESSION_KEYS.accessToken);
  if (!store || !accessToken) return null;
  return {
    accessToken,
    refreshToken: store.getItem(SESSION_KEYS.refreshToken),
    username: store.getItem(SESSION_KEYS.username) ?? '',
    sessionId: store.getItem(SESSION_KEYS.sessionId),
  };
}

function emit(): void {
  snapshot = load();
  for (const listener of listeners) listener();
}

/** The stored session; the same object until it changes (usable with `useSyncExternalStore`). */
export function readSession(): Session | null {
  if (snapshot === undefined) snapshot = load();
  return snapshot;
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

interface Tokens {
  accessToken: string;
  refreshToken?: string | null;
  username?: string;
}

function writeTokens(store: Storage, tokens: Tokens): void {
  store.setItem(SESSION_KEYS.accessToken, tokens.accessToken);
  if (tokens.refreshToken) store.setItem(SESSION_KEYS.refreshToken, tokens.refreshToken);
  if (tokens.username) store.setItem(SESSION_KEYS.username, tokens.username);
}

function removeAll(store: Storage | null): void {
  if (store) for (const key of ALL_SESSION_KEYS) store.removeItem(key);
}

// ---------- one session for every tab of the browser ----------

/**
 * Every tab of this origin holds the one sign-in of the browser (docs/decisions/0705-sessions-across-tabs-and-ended-sessions.md). Each keeps the tokens in its own session storage
 * (so closing every tab still ends the session: nothing outlives them), and the tabs talk on a `BroadcastChannel`:
 * - a tab that starts without a session asks (`ask`); a tab holding one answers with it (`share`), and the first
 *   answer is taken. Nobody answering within a short wait means there is no session: the login page;
 * - a sign-in is offered to every tab without a session (`share` to nobody in particular);
 * - new tokens after a refresh go to the tabs of the same session (`tokens`);
 * - a logout ends the session in every tab (`end`, `loggedOut`); a session that could not be renewed ends in the
 *   tabs holding that one (`end`, `ended`).
 */
type SessionMessage =
  | ({ type: 'tokens'; sessionId: string } & Tokens)
  | { type: 'end'; sessionId: string; reason: SessionEnd }
  | { type: 'ask'; askId: string }
  | ({ type: 'share'; askId: string | null; sessionId: string } & Tokens);

const CHANNEL_NAME = 'billfold-session';
/** Held (shared mode) by every tab that holds a session, so a new tab sees at once whether any could answer. */
const HOLDER_LOCK = 'billfold-session-holder';
/** How long a new tab waits for an answer when some tab holds a session (a busy or background tab answers late). */
export const ASK_HOLDER_WAIT_MS = 1500;
/** How long it waits when the browser cannot tell whether any tab holds one (no Web Locks: not a secure context). */
export const ASK_BLIND_WAIT_MS = 400;

let channel: BroadcastChannel | null = null;
let pending = false;
let askId: string | null = null;
let releaseHolder: (() => void) | null = null;

function openChannel(): BroadcastChannel | null {
  if (channel || typeof BroadcastChannel === 'undefined') return channel;
  channel = new BroadcastChannel(CHANNEL_NAME);
  channel.onmessage = (event: MessageEvent<SessionMessage>) => receive(event.data);
  // Node (unit tests) would otherwise stay alive for the channel; browsers have no `unref`.
  (channel as BroadcastChannel & { unref?: () => void }).unref?.();
  return channel;
}

function broadcast(message: SessionMessage): void {
  try {
    openChannel()?.postMessage(message);
  } catch {
    // a closed or unsupported channel: this tab's own session is unaffected
  }
}

function locks(): LockManager | null {
  return (typeof navigator !== 'undefined' && navigator.locks) || null;
}

/** Holds the holder lock while this tab holds a session; a closed tab releases it by itself. */
function holdLock(): void {
  const manager = locks();
  if (!manager || releaseHolder) return;
  const held = new Promise<void>((resolve) => {
    releaseHolder = resolve;
  });
  manager.request(HOLDER_LOCK, { mode: 'shared' }, () => held).catch(() => undefined);
}

function releaseLock(): void {
  releaseHolder?.();
  releaseHolder = null;
}

function receive(message: SessionMessage): void {
  const store = storage();
  if (!store || !message) return;
  const current = store.getItem(SESSION_KEYS.sessionId);
  const holding = store.getItem(SESSION_KEYS.accessToken) !== null;
  switch (message.type) {
    case 'ask':
      if (holding && current) answer(store, message.askId, current);
      return;
    case 'share':
      if (renewal !== null && message.askId === renewal.askId) {
        renewal.answered(store, message);
        return;
      }
      // The first answer (or a sign-in in another tab) is taken by a tab without a session; later ones are not.
      if (holding || (message.askId !== null && message.askId !== askId)) return;
      adopt(store, message);
      return;
    case 'tokens':
      if (message.sessionId !== current) return;
      writeTokens(store, message);
      break;
    case 'end':
      if (!holding) return;
      if (message.reason === 'ended' && message.sessionId !== current) return;
      removeAll(store);
      releaseLock();
      lastEnd = message.reason;
      break;
  }
  emit();
}

function answer(store: Storage, to: string, sessionId: string): void {
  const accessToken = store.getItem(SESSION_KEYS.accessToken);
  if (!accessToken) return;
  broadcast({
    type: 'share',
    askId: to,
    sessionId,
    accessToken,
    refreshToken: store.getItem(SESSION_KEYS.refreshToken),
    username: store.getItem(SESSION_KEYS.username) ?? '',
  });
}

function adopt(store: Storage, message: Extract<SessionMessage, { type: 'share' }>): void {
  hold(store, message, message.sessionId);
  emit();
}

/** Makes `tokens` this tab's session `sessionId`, in place of anything stored before. */
function hold(store: Storage, tokens: Tokens, sessionId: string): void {
  removeAll(store);
  writeTokens(store, tokens);
  store.setItem(SESSION_KEYS.sessionId, sessionId);
  lastEnd = null;
  finishAsking();
  holdLock();
}

function finishAsking(): void {
  askId = null;
  pending = false;
}

/**
 * Joins the tabs of this browser; the app calls it once at start-up. A tab holding a session (a reload) keeps it;
 * a tab without one asks the others for theirs and stays pending (`isSessionPending`) until one answers or the
 * wait is over.
 */
export function joinSessionChannel(): void {
  if (!openChannel()) return;
  if (load() !== null) {
    holdLock();
    return;
  }
  if (pending) return;
  const id = newSessionId();
  askId = id;
  pending = true;
  emit();
  broadcast({ type: 'ask', askId: id });
  const giveUp = () => {
    if (askId !== id) return;
    finishAsking();
    emit();
  };
  const manager = locks();
  if (!manager) {
    setTimeout(giveUp, ASK_BLIND_WAIT_MS);
    return;
  }
  manager
    .query()
    .then((state) => {
      const someoneHolds = (state.held ?? []).some((lock) => lock.name === HOLDER_LOCK);
      if (someoneHolds) setTimeout(giveUp, ASK_HOLDER_WAIT_MS);
      else giveUp();
    })
    .catch(() => setTimeout(giveUp, ASK_BLIND_WAIT_MS));
}

/** Held by the tab renewing the session's tokens, so that the tabs of one session renew once between them. */
const RENEW_LOCK = 'billfold-session-renew';
/** How long a tab about to renew waits for the other tabs to say what they hold. */
const HELD_TOKENS_WAIT_MS = 500;

/** True when this tab holds `seen`'s session with other tokens than `seen`'s: they were renewed since. */
export function renewedSince(seen: Session): boolean {
  const now = readSession();
  return now !== null && now.sessionId === seen.sessionId && now.accessToken !== seen.accessToken;
}

/**
 * Renews the session whose tokens `seen` were found expired or refused, by `renew` (a token refresh), as the only
 * renewal among the tabs of this browser. Two tabs whose access tokens expired together (a laptop waking up, a new
 * tab handed the session of one about to renew) would otherwise both spend the refresh token. The tabs renew one
 * at a time (a Web Lock); the one whose turn it is first asks the other tabs holding a session what they hold,
 * and takes newer tokens of its session from them instead of renewing. Asking, rather than only listening for the
 * renewing tab's `tokens`, also covers a tab that was loading (its channel not yet open) while another renewed.
 * Nothing is renewed when the tab already holds newer tokens than `seen`. Without Web Locks (not a secure
 * context) it renews.
 */
export async function renewOnce(seen: Session, renew: () => Promise<boolean>): Promise<boolean> {
  const manager = locks();
  if (renewedSince(seen)) return true;
  if (!manager) return renew();
  return manager.request(RENEW_LOCK, async () => (await heldElsewhere(manager, seen)) || renew());
}

/** The renewal's question to the other tabs (`ask`), whose answers (`share`) `receive` hands to `answered`. */
let renewal: {
  askId: string;
  answered: (store: Storage, message: Extract<SessionMessage, { type: 'share' }>) => void;
} | null = null;

/**
 * Asks the other tabs holding a session for their tokens and resolves true once renewed tokens of `seen`'s session
 * (another refresh token, a later expiry) are held here; false when every tab answered without them, or after the wait.
 */
async function heldElsewhere(manager: LockManager, seen: Session): Promise<boolean> {
  if (renewedSince(seen)) return true;
  const state = await manager.query().catch(() => null);
  // This tab holds the holder lock too; each other holder answers.
  const others = (state?.held ?? []).filter((lock) => lock.name === HOLDER_LOCK).length - 1;
  if (others <= 0) return renewedSince(seen);
  const seenExpiry = tokenExpiresAt(seen.accessToken) ?? 0;
  return new Promise((resolve) => {
    let answers = 0;
    const stop = (renewed: boolean) => {
      clearTimeout(timer);
      renewal = null;
      resolve(renewed);
    };
    const timer = setTimeout(() => stop(renewedSince(seen)), HELD_TOKENS_WAIT_MS);
    renewal = {
      askId: newSessionId(),
      answered: (store, message) => {
        answers += 1;
        // Renewed: another refresh token, and an access token that outlives the one found wanting.
        const newer =
          message.refreshToken !== seen.refreshToken && (tokenExpiresAt(message.accessToken) ?? 0) > seenExpiry;
        if (message.sessionId === seen.sessionId && store.getItem(SESSION_KEYS.sessionId) === seen.sessionId && newer) {
          writeTokens(store, message);
          emit();
        }
        if (renewedSince(seen) || answers >= others) stop(renewedSince(seen));
      },
    };
    broadcast({ type: 'ask', askId: renewal.askId });
  });
}

/** True while this tab, started without a session, waits for another tab to hand it theirs. */
export function isSessionPending(): boolean {
  return pending;
}

// ---------- writing ----------

/** Stores the tokens of a new sign-in, as a session of its own, offers it to the tabs without one, tells every subscriber. */
export function startSession(tokens: Tokens): void {
  const store = storage();
  if (!store) return;
  const sessionId = newSessionId();
  hold(store, tokens, sessionId);
  broadcast({ type: 'share', askId: null, sessionId, ...tokens });
  emit();
}

function newSessionId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** Stores renewed tokens of the current session (after a refresh), here and in the tabs that share it. */
export function saveSession(tokens: Tokens): void {
  const store = storage();
  if (!store) return;
  writeTokens(store, tokens);
  const sessionId = store.getItem(SESSION_KEYS.sessionId);
  if (sessionId) broadcast({ type: 'tokens', sessionId, ...tokens });
  emit();
}

/**
 * Removes the tokens and every saved view setting. A logout (`loggedOut`) signs out every tab of the browser; a
 * session that could not be renewed (`ended`) ends in the tabs that hold it. `reason` tells the login page what
 * to say.
 */
export function clearSession(reason: SessionEnd = 'loggedOut'): void {
  const store = storage();
  const sessionId = store?.getItem(SESSION_KEYS.sessionId);
  removeAll(store);
  releaseLock();
  lastEnd = reason;
  if (sessionId || reason === 'loggedOut') broadcast({ type: 'end', sessionId: sessionId ?? '', reason });
  emit();
}

/** How the last session of this tab ended, or null while one is running or none ever did. */
export function sessionEndReason(): SessionEnd | null {
  return lastEnd;
}

/** A saved view setting, or `fallback` when it is missing or unreadable. */
export function readSetting<T>(key: (typeof VIEW_KEYS)[keyof typeof VIEW_KEYS], fallback: T): T {
  const text = storage()?.getItem(key);
  if (text == null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function writeSetting(key: (typeof VIEW_KEYS)[keyof typeof VIEW_KEYS], value: unknown): void {
  storage()?.setItem(key, JSON.stringify(value));
}
