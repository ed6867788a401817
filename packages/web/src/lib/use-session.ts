import { useSyncExternalStore } from 'react';
import { isSessionPending, readSession, type Session, subscribeSession } from './session.ts';

/** The stored session; re-renders when tokens are saved, refreshed, cleared or handed over by another tab. */
export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, readSession, readSession);
}

/** True while a tab opened without a session waits for another tab of the browser to hand it theirs. */
export function useSessionPending(): boolean {
  return useSyncExternalStore(subscribeSession, isSessionPending, isSessionPending);
}
