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

// ---------- tabs sharing one session ----------

/**
 * Tabs of one browser that hold the same session (a duplicated tab copies session storage) tell each other on a
 * `BroadcastChannel`: new tokens after a refresh, and the end of the session. Each tab keeps its tokens in its
 * own session storage; a tab only listens to messages of the session it holds.
 */
type SessionMessage =
  | ({ type: 'tokens'; sessionId: string } & Tokens)
  | { type: 'end'; sessionId: string; reason: SessionEnd };

const CHANNEL_NAME = 'billfold-session';
let channel: BroadcastChannel | null = null;

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

function receive(message: SessionMessage): void {
  const store = storage();
  if (!store || !message || message.sessionId !== store.getItem(SESSION_KEYS.sessionId)) return;
  if (message.type === 'tokens') {
    writeTokens(store, message);
  } else {
    removeAll(store);
    lastEnd = message.reason;
  }
  emit();
}

/** Starts listening for the other tabs of this tab's session; the app calls it once at start-up. */
export function joinSessionChannel(): void {
  openChannel();
}

// ---------- writing ----------

/** Stores the tokens of a new sign-in, as a session of its own, and tells every subscriber. */
export function startSession(tokens: Tokens): void {
  const store = storage();
  if (!store) return;
  removeAll(store);
  writeTokens(store, tokens);
  store.setItem(SESSION_KEYS.sessionId, newSessionId());
  lastEnd = null;
  openChannel();
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
 * Removes the tokens and every saved view setting, here and in the tabs that share the session. `reason` tells
 * the login page what to say: a logout, or a session that could not be renewed.
 */
export function clearSession(reason: SessionEnd = 'loggedOut'): void {
  const store = storage();
  const sessionId = store?.getItem(SESSION_KEYS.sessionId);
  removeAll(store);
  lastEnd = reason;
  if (sessionId) broadcast({ type: 'end', sessionId, reason });
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
