/**
 * Everything the app keeps in session storage, under one list of key names. Signing out removes every key
 * listed here (spec §4), so a feature that saves a view setting must use a key from `VIEW_KEYS`.
 */
export const SESSION_KEYS = {
  accessToken: 'accessToken',
  refreshToken: 'refreshToken',
  username: 'username',
} as const;

/** Saved view settings of the home page (spec §4 "Persistence"); cleared on logout. */
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
  /** The spec names this key. */
  showMoreOptions: 'showMoreOptions',
} as const;

export const ALL_SESSION_KEYS: readonly string[] = [...Object.values(SESSION_KEYS), ...Object.values(VIEW_KEYS)];

export interface Session {
  accessToken: string;
  refreshToken: string | null;
  username: string;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let snapshot: Session | null | undefined;

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

/** Stores new tokens (after login or refresh) and tells every subscriber. */
export function saveSession(tokens: { accessToken: string; refreshToken?: string | null; username?: string }): void {
  const store = storage();
  if (!store) return;
  store.setItem(SESSION_KEYS.accessToken, tokens.accessToken);
  if (tokens.refreshToken) store.setItem(SESSION_KEYS.refreshToken, tokens.refreshToken);
  if (tokens.username) store.setItem(SESSION_KEYS.username, tokens.username);
  emit();
}

/** Removes the tokens and every saved view setting. */
export function clearSession(): void {
  const store = storage();
  if (store) for (const key of ALL_SESSION_KEYS) store.removeItem(key);
  emit();
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
