/**
 * Initial JavaScript of the production build: the entry script of `dist/index.html` and every chunk it
 * imports statically (what a first visit downloads before any route chunk), gzip-compressed.
 * `npm run size -w @billfold/web` prints it and fails above the budget (issue 4: 300 KB gzip).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

export const INITIAL_JS_BUDGET_BYTES = 300 * 1024;

export interface SizeReport {
  files: { file: string; bytes: number; gzipBytes: number }[];
  totalBytes: number;
  totalGzipBytes: number;
}

const STATIC_IMPORT = /(?:^|[;\s}])import\s*(?:[\w$*{}\s,]+from\s*)?["'](\.\/[^"']+\.js)["']/g;

export function measureInitialJs(distDir: string): SizeReport {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const entries = [...html.matchAll(/<script[^>]+type="module"[^>]+src="\/([^"]+\.js)"/g)].map((m) => m[1] as string);
  if (entries.length === 0) throw new Error('index.html has no module script');
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(distDir, file), 'utf8');
    const dir = file.slice(0, file.lastIndexOf('/') + 1);
    for (const match of code.matchAll(STATIC_IMPORT)) queue.push(dir + (match[1] as string).slice(2));
  }
  const files = [...seen].map((file) => {
    const content = readFileSync(join(distDir, file));
    return { file, bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
  });
  return {
    files,
    totalBytes: files.reduce((sum, f) => sum + f.bytes, 0),
    totalGzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = measureInitialJs(resolve(import.meta.dirname, '../dist'));
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  for (const f of report.files)
    console.log(`${f.file.padEnd(60)} ${kb(f.bytes).padStart(10)} ${kb(f.gzipBytes).padStart(10)} gzip`);
  console.log(
    `initial JS: ${kb(report.totalBytes)}, ${kb(report.totalGzipBytes)} gzip (budget ${kb(INITIAL_JS_BUDGET_BYTES)})`,
  );
  if (report.totalGzipBytes > INITIAL_JS_BUDGET_BYTES) process.exitCode = 1;
}
