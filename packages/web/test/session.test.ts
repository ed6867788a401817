import { afterEach, describe, expect, it } from 'vitest';
import { isTokenUnexpired, tokenExpiresAt } from '../src/lib/jwt.ts';
import {
  ALL_SESSION_KEYS,
  clearSession,
  readSession,
  readSetting,
  saveSession,
  VIEW_KEYS,
  writeSetting,
} from '../src/lib/session.ts';
import { fakeJwt } from './fake-server.ts';

afterEach(() => {
  clearSession();
  sessionStorage.clear();
});

describe('session storage', () => {
  it('keeps tokens and username under their keys and returns one stable snapshot', () => {
    saveSession({ accessToken: 'a', refreshToken: 'r', username: 'ann' });
    expect(sessionStorage.getItem('accessToken')).toBe('a');
    expect(sessionStorage.getItem('refreshToken')).toBe('r');
    expect(sessionStorage.getItem('username')).toBe('ann');
    expect(readSession()).toBe(readSession());
  });

  it('names every saved view setting of spec §4, showMoreOptions by its spec name', () => {
    expect(Object.keys(VIEW_KEYS).sort()).toEqual(
      [
        'columnVisibility',
        'dateMode',
        'dateRange',
        'filters',
        'includeArchived',
        'page',
        'pageSize',
        'showMoreOptions',
        'sortModel',
      ].sort(),
    );
    expect(VIEW_KEYS.showMoreOptions).toBe('showMoreOptions');
  });

  it('clears tokens and every saved view setting, and leaves other keys alone', () => {
    saveSession({ accessToken: 'a', refreshToken: 'r', username: 'ann' });
    writeSetting(VIEW_KEYS.filters, { invoice: '7' });
    writeSetting(VIEW_KEYS.showMoreOptions, true);
    sessionStorage.setItem('unrelated', 'kept');
    clearSession();
    expect(readSession()).toBeNull();
    for (const key of ALL_SESSION_KEYS) expect(sessionStorage.getItem(key)).toBeNull();
    expect(sessionStorage.getItem('unrelated')).toBe('kept');
  });

  it('reads saved settings as JSON with a fallback', () => {
    expect(readSetting(VIEW_KEYS.pageSize, 100)).toBe(100);
    writeSetting(VIEW_KEYS.pageSize, 25);
    expect(readSetting(VIEW_KEYS.pageSize, 100)).toBe(25);
    sessionStorage.setItem(VIEW_KEYS.sortModel, '{not json');
    expect(readSetting(VIEW_KEYS.sortModel, [])).toEqual([]);
  });
});

describe('access token expiry', () => {
  it('reads exp from the payload', () => {
    const token = fakeJwt(60);
    expect(tokenExpiresAt(token)).toBeGreaterThan(Date.now());
    expect(isTokenUnexpired(token)).toBe(true);
    expect(isTokenUnexpired(fakeJwt(-1))).toBe(false);
  });

  it('treats missing or malformed tokens as expired', () => {
    expect(isTokenUnexpired(null)).toBe(false);
    expect(isTokenUnexpired('not-a-jwt')).toBe(false);
    expect(isTokenUnexpired('a.%%%.c')).toBe(false);
  });
});
