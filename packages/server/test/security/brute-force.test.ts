import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../src/lib/time.ts';
import { dialects, type TestApp, withSecondProcess } from '../helpers/app.ts';
import { type Session, signUp } from '../helpers/factories.ts';

/**
 * Password guessing against one account. The promise (docs/security.md): however many addresses and however
 * concurrent the attempts, at most 100 wrong passwords an hour are ever checked for one account, and the
 * throttle frees itself, so it cannot lock the owner out for good. "Evaluated" = answered 401 (the password
 * was checked); 429 = refused before any check.
 */

const WRONG = 'Wrong!Passw0rd';

let ipSequence = 0;
/** A fresh client address per attempt: an attacker with a botnet defeats any per-IP limit. */
function freshIp(): string {
  ipSequence += 1;
  return `10.${(ipSequence >> 16) & 255}.${(ipSequence >> 8) & 255}.${ipSequence & 255}`;
}

/** Largest number of timestamps inside any window of `width` ms (windows start at a timestamp). */
function busiestWindow(times: number[], width: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while ((sorted[j] as number) <= (sorted[i] as number) - width) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

describe.each(dialects)('brute force on %s', (dialect) => {
  let t: TestApp;
  /** A second server process on the same database: the counters must be shared, not per process. */
  let other: FastifyInstance;
  withSecondProcess(dialect, (app, second) => {
    t = app;
    other = second;
  });

  const attempt = (app: FastifyInstance, username: string, password: string, ip = freshIp()) =>
    app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username, password }, remoteAddress: ip });

  /** Every way of naming the account at login: both keys (username, email), any case, padded. */
  const loginNames = (s: Session) => [
    s.username,
    s.username.toUpperCase(),
    s.email,
    s.email.toUpperCase(),
    ` ${s.username} `,
  ];

  function tally(responses: LightMyRequestResponse[]) {
    let evaluated = 0;
    for (const res of responses) {
      if (res.statusCode === 401) evaluated += 1;
      else {
        expect(res.statusCode).toBe(429);
        expect(res.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
        const retryAfter = Number(res.headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      }
    }
    return evaluated;
  }

  /**
   * The throttle expires: once the attack stops, the owner (right password, any address) is in at once or, if
   * held back (that is the price of the throttle), exactly when Retry-After says, and never later than 15 minutes.
   */
  async function expectOwnerGetsIn(s: Session) {
    const first = await attempt(t.app, s.username, s.password);
    if (first.statusCode === 200) return;
    expect(first.statusCode).toBe(429);
    const wait = Number(first.headers['retry-after']) * 1000;
    expect(wait).toBeLessThanOrEqual(15 * MINUTE);
    t.clock.advance(wait);
    expect((await attempt(other, s.username, s.password)).statusCode).toBe(200);
  }

  it('checks at most 10 passwords per login name in 15 minutes even when 40 attempts arrive at once, on two processes', async () => {
    const s = await signUp(t.app);
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) => attempt(i % 2 === 0 ? t.app : other, s.username, `${WRONG}${i}`)),
    );
    expect(tally(burst)).toBeLessThanOrEqual(10);
    await expectOwnerGetsIn(s);
  });

  it('checks at most 50 passwords per address in 15 minutes even when 70 attempts at 70 names arrive at once', async () => {
    const ip = freshIp();
    const burst = await Promise.all(
      Array.from({ length: 70 }, (_, i) => attempt(i % 2 === 0 ? t.app : other, `nobody${i}_${dialect}`, WRONG, ip)),
    );
    expect(tally(burst)).toBeLessThanOrEqual(50);
    t.clock.advance(15 * MINUTE + 1000);
    expect((await attempt(t.app, `nobody0_${dialect}`, WRONG, ip)).statusCode).toBe(401);
  });

  it('checks at most 100 wrong passwords an hour for one account over a 75-minute distributed attack, then lets the owner in', async () => {
    const s = await signUp(t.app);
    const names = loginNames(s);
    const evaluatedAt: number[] = [];
    let attempts = 0;
    let lastRetryAfter = 0;
    for (let round = 0; round < 30; round++) {
      const burst = await Promise.all(
        Array.from({ length: 40 }, (_, i) => {
          attempts += 1;
          return attempt(i % 2 === 0 ? t.app : other, names[attempts % names.length] as string, `${WRONG}${attempts}`);
        }),
      );
      const evaluated = tally(burst);
      for (let i = 0; i < evaluated; i++) evaluatedAt.push(t.clock.now());
      const refused = burst.filter((res) => res.statusCode === 429).at(-1);
      if (refused) lastRetryAfter = Number(refused.headers['retry-after']);
      // Checked as the attack goes, so a regression fails at the first hour that breaks the promise.
      expect(busiestWindow(evaluatedAt, HOUR), `after ${attempts} attempts`).toBeLessThanOrEqual(100);
      t.clock.advance(2.5 * MINUTE);
    }
    expect(attempts).toBe(1200);
    // The attack was mostly refused before any password was checked.
    expect(evaluatedAt.length).toBeLessThan(attempts / 5);

    expect(lastRetryAfter).toBeGreaterThan(0);
    await expectOwnerGetsIn(s);
  });
});
