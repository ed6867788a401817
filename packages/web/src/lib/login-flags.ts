/** Router state carried to `/` so the login page can show the matching notice (spec §2). */
export type LoginFlag = 'loggedOut' | 'accountCreated';

export interface LoginLocationState {
  flag: LoginFlag;
}

export function loginState(flag: LoginFlag): LoginLocationState {
  return { flag };
}

export function readLoginFlag(state: unknown): LoginFlag | null {
  if (state && typeof state === 'object' && 'flag' in state) {
    const { flag } = state as { flag: unknown };
    if (flag === 'loggedOut' || flag === 'accountCreated') return flag;
  }
  return null;
}
