import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isTokenUnexpired, tokenExpiresAt } from '../src/lib/jwt.ts';
import { safeReturnPath } from '../src/lib/login-flags.ts';
import {
  ALL_SESSION_KEYS,
  ASK_BLIND_WAIT_MS,
  clearSession,
  isSessionPending,
  joinSessionChannel,
  readSession,
  readSetting,
  saveSession,
  sessionEndReason,
  startSession,
  subscribeSession,
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

  it("names every saved view setting (docs/product.md, Saved view settings), showMoreOptions by the original client's name", () => {
    expect(Object.keys(VIEW_KEYS).sort()).toEqual(
      [
        'columnVisibility',
        'columnWidths',
        'dateMode',
        'dateRange',
        'entitiesView',
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

describe('tabs sharing one session (BroadcastChannel)', () => {
  /** Another tab of this browser, as the channel sees it. */
  function otherTab() {
    const channel = new BroadcastChannel('billfold-session');
    const received: unknown[] = [];
    channel.onmessage = (event) => received.push(event.data);
    return { channel, received, close: () => channel.close() };
  }
  const changed = () =>
    new Promise<void>((resolve) => {
      const stop = subscribeSession(() => {
        stop();
        resolve();
      });
    });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
  let tab: ReturnType<typeof otherTab>;
  beforeEach(() => {
    joinSessionChannel();
    tab = otherTab();
  });
  afterEach(() => tab.close());

  it('a sign-in starts a session of its own; a refresh is told to the tabs of that session', async () => {
    startSession({ accessToken: 'a1', refreshToken: 'r1', username: 'ann' });
    const id = readSession()?.sessionId;
    expect(id).toMatch(/\w{8}/);
    saveSession({ accessToken: 'a2', refreshToken: 'r2', username: 'ann' });
    await settle();
    expect(tab.received).toEqual([
      { type: 'share', askId: null, sessionId: id, accessToken: 'a1', refreshToken: 'r1', username: 'ann' },
      { type: 'tokens', sessionId: id, accessToken: 'a2', refreshToken: 'r2', username: 'ann' },
    ]);
    startSession({ accessToken: 'b1', refreshToken: 's1', username: 'bob' });
    expect(readSession()?.sessionId).not.toBe(id);
  });

  it("takes another tab's new tokens only for the session it holds, and its logout whatever session it holds", async () => {
    startSession({ accessToken: 'a1', refreshToken: 'r1', username: 'ann' });
    const id = readSession()?.sessionId as string;
    tab.channel.postMessage({ type: 'tokens', sessionId: 'someone-else', accessToken: 'x', refreshToken: 'y' });
    await settle();
    expect(readSession()?.refreshToken).toBe('r1');

    const renewed = changed();
    tab.channel.postMessage({
      type: 'tokens',
      sessionId: id,
      accessToken: 'a2',
      refreshToken: 'r2',
      username: 'ann',
    });
    await renewed;
    expect(readSession()).toMatchObject({ accessToken: 'a2', refreshToken: 'r2', sessionId: id });

    // A session that could not be renewed ends only the tabs holding that one.
    tab.channel.postMessage({ type: 'end', sessionId: 'someone-else', reason: 'ended' });
    await settle();
    expect(readSession()?.refreshToken).toBe('r2');

    // A logout signs the whole browser out: one sign-in per browser.
    writeSetting(VIEW_KEYS.pageSize, 25);
    const ended = changed();
    tab.channel.postMessage({ type: 'end', sessionId: 'someone-else', reason: 'loggedOut' });
    await ended;
    expect(readSession()).toBeNull();
    expect(sessionStorage.getItem(VIEW_KEYS.pageSize)).toBeNull();
    expect(sessionEndReason()).toBe('loggedOut');
  });

  it('answers a new tab that asks with the session it holds, and nothing when it holds none', async () => {
    tab.channel.postMessage({ type: 'ask', askId: 'q0' });
    await settle();
    expect(tab.received).toEqual([]);
    startSession({ accessToken: 'a1', refreshToken: 'r1', username: 'ann' });
    saveSession({ accessToken: 'a2', refreshToken: 'r2' });
    const id = readSession()?.sessionId;
    await settle();
    tab.received.length = 0;
    tab.channel.postMessage({ type: 'ask', askId: 'q1' });
    await settle();
    expect(tab.received).toEqual([
      { type: 'share', askId: 'q1', sessionId: id, accessToken: 'a2', refreshToken: 'r2', username: 'ann' },
    ]);
  });

  it('a tab without a session takes one signed in elsewhere, never replacing the one it holds', async () => {
    const taken = changed();
    tab.channel.postMessage({
      type: 'share',
      askId: null,
      sessionId: 's-1',
      accessToken: 'a1',
      refreshToken: 'r1',
      username: 'ann',
    });
    await taken;
    expect(readSession()).toEqual({ accessToken: 'a1', refreshToken: 'r1', username: 'ann', sessionId: 's-1' });
    tab.channel.postMessage({
      type: 'share',
      askId: null,
      sessionId: 's-2',
      accessToken: 'b1',
      refreshToken: 'q1',
      username: 'bob',
    });
    await settle();
    expect(readSession()?.sessionId).toBe('s-1');
    // An answer meant for another tab's question is not taken either.
    clearSession('ended');
    tab.channel.postMessage({
      type: 'share',
      askId: 'not-mine',
      sessionId: 's-3',
      accessToken: 'c1',
      refreshToken: 'p1',
      username: 'cy',
    });
    await settle();
    expect(readSession()).toBeNull();
  });

  it('a tab opened without a session asks the others, takes the first answer, and gives up after a short wait', async () => {
    await vi.waitFor(() => expect(isSessionPending()).toBe(false), { timeout: ASK_BLIND_WAIT_MS * 3 });
    const answers = (event: MessageEvent) => {
      if (event.data?.type !== 'ask') return;
      for (const [sessionId, username] of [
        ['s-1', 'ann'],
        ['s-2', 'bob'],
      ])
        tab.channel.postMessage({
          type: 'share',
          askId: event.data.askId,
          sessionId,
          accessToken: `a-${username}`,
          refreshToken: `r-${username}`,
          username,
        });
    };
    tab.channel.addEventListener('message', answers);
    const taken = changed();
    joinSessionChannel();
    expect(isSessionPending()).toBe(true);
    await taken;
    await vi.waitFor(() => expect(readSession()).toMatchObject({ sessionId: 's-1', username: 'ann' }));
    expect(isSessionPending()).toBe(false);
    await settle();
    expect(readSession()).toMatchObject({ sessionId: 's-1', accessToken: 'a-ann', refreshToken: 'r-ann' });

    // Nobody holds a session: after the wait, the tab is signed out (the login page).
    tab.channel.removeEventListener('message', answers);
    clearSession('loggedOut');
    joinSessionChannel();
    expect(isSessionPending()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, ASK_BLIND_WAIT_MS + 100));
    expect(isSessionPending()).toBe(false);
    expect(readSession()).toBeNull();
  });

  it('tells the other tabs why the session ended', async () => {
    startSession({ accessToken: 'a1', refreshToken: 'r1', username: 'ann' });
    const id = readSession()?.sessionId;
    clearSession('ended');
    expect(sessionEndReason()).toBe('ended');
    await settle();
    expect(tab.received.at(-1)).toEqual({ type: 'end', sessionId: id, reason: 'ended' });
  });
});

describe('the page to return to after sign-in', () => {
  const origin = 'https://billfold.example';
  it('keeps a path of this app with its query and hash', () => {
    expect(safeReturnPath('/entries/5', origin)).toBe('/entries/5');
    expect(safeReturnPath('/bills/3?tab=2#top', origin)).toBe('/bills/3?tab=2#top');
  });

  it.each([
    'https://evil.example/home',
    '//evil.example/x',
    '/\\evil.example/x',
    '/\\/evil.example',
    'javascript:alert(1)',
    'entries/5',
    '/entries/5\n',
    '',
    '/',
    '/logout',
    '/user',
    '/home',
    42,
    null,
  ])('refuses %j', (value) => {
    expect(safeReturnPath(value, origin)).toBeNull();
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
