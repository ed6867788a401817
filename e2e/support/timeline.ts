/**
 * When things happened in the page, by the page's own clock: a text appearing and disappearing, and the path
 * changing. A spec that checks how long a notice stays, or how long the app waits before it navigates, reads these
 * instead of timing from the test process, whose view of the page can lag behind it on a busy machine.
 */
import type { Page } from 'playwright-core';

export interface Timeline {
  /** When `text` was first seen, and when it was next gone (ms, `performance.now()` of the page). */
  shown: number | null;
  hidden: number | null;
  /** Each change of `location.pathname` by the app (push, replace or back). */
  paths: { path: string; at: number }[];
}

interface Recorder extends Timeline {
  text: string;
}

/** Starts recording for `text`; call it before the action that makes the text appear. */
export async function watchTimeline(page: Page, text: string): Promise<void> {
  await page.evaluate((watched) => {
    const w = window as unknown as { __timeline?: Recorder };
    const record: Recorder = { text: watched, shown: null, hidden: null, paths: [] };
    w.__timeline = record;
    const check = () => {
      const present = document.body.textContent?.includes(record.text) ?? false;
      if (present && record.shown === null) record.shown = performance.now();
      else if (!present && record.shown !== null && record.hidden === null) record.hidden = performance.now();
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
    let path = location.pathname;
    const onPath = () => {
      if (location.pathname === path) return;
      path = location.pathname;
      record.paths.push({ path, at: performance.now() });
    };
    for (const method of ['pushState', 'replaceState'] as const) {
      const original = history[method].bind(history);
      history[method] = (...args: Parameters<History['pushState']>) => {
        original(...args);
        onPath();
      };
    }
    addEventListener('popstate', onPath);
    check();
  }, text);
}

/** What was recorded since `watchTimeline`. */
export function timeline(page: Page): Promise<Timeline> {
  return page.evaluate(() => {
    const record = (window as unknown as { __timeline?: Timeline }).__timeline;
    if (!record) throw new Error('watchTimeline was not called on this page');
    return { shown: record.shown, hidden: record.hidden, paths: record.paths };
  });
}

/** Milliseconds from the text's appearance to the app's arrival at `path`. */
export async function shownUntilPath(page: Page, path: string): Promise<number> {
  const { shown, paths } = await timeline(page);
  const arrival = paths.find((p) => p.path === path);
  if (shown === null || !arrival) throw new Error(`no timeline from the text to ${path}: ${JSON.stringify(paths)}`);
  return arrival.at - shown;
}

/** Milliseconds the text was shown. */
export async function shownFor(page: Page): Promise<number> {
  const { shown, hidden } = await timeline(page);
  if (shown === null || hidden === null) throw new Error('the text was not both shown and hidden');
  return hidden - shown;
}
