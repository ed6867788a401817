import { describe, expect, it } from 'vitest';
import { Random } from '../lib/random.ts';
import {
  type Case,
  drawCase,
  firstPerUser,
  followUp,
  KINDS,
  pickStep,
  type Sample,
  slowestSamples,
  summarizeWindow,
  type TenantSample,
  totalOf,
  WEIGHTS,
  windows,
} from '../lib/tenants.ts';

const users: TenantSample[] = Array.from({ length: 40 }, (_, i) => ({
  username: i === 0 ? 'tenant' : `tenant${i + 1}`,
  firstDate: '2016-11-23',
  lastDate: '2026-11-25',
  entityNames: [`Entity ${i} A`, `Entity ${i} B`],
  invoiceNumbers: [37 + i, 137 + i],
}));

describe('many-tenant bench: drawing', () => {
  it('draws every user and every step, with the same draws for the same seed', () => {
    const draw = (seed: number) => {
      const r = new Random(seed);
      return Array.from({ length: 2_000 }, () => drawCase(r, users));
    };
    const cases = draw(11);
    expect(draw(11)).toEqual(cases);
    expect(draw(12)).not.toEqual(cases);
    expect(new Set(cases.map((c) => c.user)).size).toBe(users.length);
    const kinds = new Set(cases.map((c) => c.kind));
    // A drawn case starts a step; "any page" only ever follows a first page.
    expect([...kinds].sort()).toEqual(['due summary', 'entities page', 'first page', 'stats']);
    const share = (kind: string) => cases.filter((c) => c.kind === kind).length / cases.length;
    expect(share('first page')).toBeGreaterThan(WEIGHTS.list - 0.05);
    expect(share('first page')).toBeLessThan(WEIGHTS.list + 0.05);
    expect(share('stats')).toBeGreaterThan(WEIGHTS.stats - 0.05);
  });

  it('draws a user no other client is acting as', () => {
    const r = new Random(5);
    const busy = new Set(users.slice(0, 35).map((_, i) => i));
    const cases = Array.from({ length: 300 }, () => drawCase(r, users, (user) => busy.has(user)));
    expect(cases.every((c) => !busy.has(c.user))).toBe(true);
    expect(new Set(cases.map((c) => c.user)).size).toBe(users.length - busy.size);
  });

  it('asks the public API: list and Entities pages from page 0 with a follow-up, stats and due summary without', () => {
    const r = new Random(3);
    for (let i = 0; i < 500; i++) {
      const c = drawCase(r, users);
      const url = new URL(c.path, 'http://x');
      if (c.kind === 'first page') {
        expect(url.pathname).toBe('/api/v1/entries');
        expect(url.searchParams.get('pageNum')).toBe('0');
        expect(url.searchParams.get('pageSize')).toBe('100');
        expect(url.searchParams.get('sortField')).toBeTruthy();
        expect(c.follow?.kind).toBe('any page');
      } else if (c.kind === 'entities page') {
        expect(url.pathname).toBe('/api/v1/bills/overview');
        expect(url.searchParams.get('pageNum')).toBe('0');
        expect(c.follow?.pageSize).toBe(Number(url.searchParams.get('pageSize')));
      } else if (c.kind === 'stats') {
        expect(url.pathname).toBe('/api/v1/entries/stats');
        expect(url.searchParams.get('sortField')).toBeNull();
        expect(c.follow).toBeUndefined();
      } else {
        expect(url.pathname).toBe('/api/v1/entries/due-summary');
        expect(url.searchParams.get('today')).toMatch(/^20(1[6-9]|2\d)-\d\d-\d\d$/);
        expect(c.follow).toBeUndefined();
      }
      // Entity names drawn for the list come from the drawn user's own ledger.
      for (const party of url.searchParams.getAll('partyList')) {
        expect(users[c.user]?.entityNames).toContain(party);
      }
    }
  });

  it('follows a first page with a page drawn within its result', () => {
    const first: Case = {
      kind: 'first page',
      user: 5,
      path: '/api/v1/entries?pageSize=100&pageNum=0',
      follow: { base: '/api/v1/entries?pageSize=100', pageSize: 100, kind: 'any page' },
    };
    const r = new Random(1);
    const pages = new Set<number>();
    for (let i = 0; i < 300; i++) {
      const next = followUp(r, first, '{"items":[],"total":250,"page":0}');
      expect(next?.kind).toBe('any page');
      expect(next?.user).toBe(5);
      pages.add(Number(new URL(next?.path ?? '', 'http://x').searchParams.get('pageNum')));
    }
    expect([...pages].sort()).toEqual([0, 1, 2]);
    expect(followUp(r, first, '{"items":[],"total":0}')?.path).toBe('/api/v1/entries?pageSize=100&pageNum=0');
    expect(followUp(r, first, '{"code":"X"}')).toBeNull();
    expect(followUp(r, { kind: 'stats', user: 1, path: '/api/v1/entries/stats' }, '{"total":9}')).toBeNull();
    expect(totalOf('{"a":{"total":3}}')).toBe(3);
  });

  it('picks steps by weight at the edges of the unit interval', () => {
    expect(pickStep(0)).toBe('list');
    expect(pickStep(0.3999)).toBe('list');
    expect(pickStep(0.4001)).toBe('stats');
    expect(pickStep(0.9999)).toBe('entities');
  });
});

describe('many-tenant bench: the report', () => {
  it('takes the first, middle and last minute of a run of three minutes or more, thirds of a shorter one', () => {
    expect(windows(300).map((w) => [w.from, w.to])).toEqual([
      [0, 60],
      [120, 180],
      [240, 300],
    ]);
    expect(windows(180).map((w) => [w.from, w.to])).toEqual([
      [0, 60],
      [60, 120],
      [120, 180],
    ]);
    expect(windows(90).map((w) => [w.from, w.to])).toEqual([
      [0, 30],
      [30, 60],
      [60, 90],
    ]);
  });

  it('summarises a window: latencies of 2xx only, non-2xx and errors apart, requests per second', () => {
    const s = (at: number, kind: Sample['kind'], ms: number, status = 200): Sample => ({
      at,
      kind,
      ms,
      status,
      user: 0,
      path: `/p/${kind}/${ms}`,
    });
    const samples: Sample[] = [
      ...Array.from({ length: 100 }, (_, i) => s(i * 0.5, 'first page', i + 1)),
      s(1, 'any page', 500),
      s(2, 'stats', 40),
      s(3, 'stats', 9_000, 429),
      s(4, 'due summary', 60_000, 0),
      s(70, 'stats', 1),
    ];
    const w = summarizeWindow(samples, { name: 'first', from: 0, to: 60 });
    expect(w.requests).toBe(104);
    expect(w.errors).toBe(1);
    expect(w.non2xx).toBe(1);
    expect(w.statuses).toEqual({ 0: 1, 200: 102, 429: 1 });
    expect(w.rps).toBeCloseTo(103 / 60);
    expect(w.kinds['first page']).toEqual({ count: 100, p50: 50, p95: 95, max: 100 });
    expect(w.kinds.stats).toEqual({ count: 1, p50: 40, p95: 40, max: 40 });
    expect(w.kinds['due summary'].count).toBe(0);
    expect(w.list.count).toBe(101);
    expect(w.list.max).toBe(500);
    expect(Object.keys(w.kinds)).toEqual([...KINDS]);
    const slow = slowestSamples(samples, 2);
    expect(slow.map((x) => x.ms)).toEqual([100, 99, 500, 9_000, 40]);
  });

  it("takes each user's first request, answered or not", () => {
    const s = (at: number, user: number, ms: number, status = 200): Sample => ({
      at,
      kind: 'stats',
      ms,
      status,
      user,
      path: '/api/v1/entries/stats',
    });
    const first = firstPerUser([s(5, 1, 9), s(1, 1, 4_000), s(2, 2, 60_000, 0), s(3, 2, 1), s(9, 3, 20)]);
    expect(first).toEqual({ users: 3, count: 3, p50: 4_000, p95: 60_000, max: 60_000 });
  });
});
