import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INITIAL_JS_BUDGET_BYTES, measureInitialJs } from '../../packages/web/scripts/size.ts';

const DIST = resolve(import.meta.dirname, '../../packages/web/dist');

describe('production bundle', () => {
  it('keeps the initial JavaScript within 300 KB gzip, with pages in their own chunks', () => {
    const report = measureInitialJs(DIST);
    console.log(
      `initial JS: ${(report.totalBytes / 1024).toFixed(1)} KB, ${(report.totalGzipBytes / 1024).toFixed(1)} KB gzip in ${report.files.length} files`,
    );
    expect(report.totalGzipBytes).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
    const initial = report.files.map((f) => f.file).join(' ');
    expect(initial).not.toContain('jsx-dev-runtime'); // a development build would pass for a while, then ship
    for (const page of ['LoginPage', 'CreateAccountPage', 'AccountPage', 'HomePage', 'NotFoundPage']) {
      expect(initial).not.toContain(page);
    }
  });
});
