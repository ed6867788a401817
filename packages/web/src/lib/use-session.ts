import { useSyncExternalStore } from 'react';
import { readSession, type Session, subscribeSession } from './session.ts';

/** The stored session; re-renders when tokens are saved, refreshed or cleared. */
export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, readSession, readSession);
}
