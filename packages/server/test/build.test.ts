import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTarget, currentBuild, ensureBuilt, sourceHash } from '../../../scripts/build.mjs';
import { startServer } from './helpers/server-process.ts';

/**
 * The builds of scripts/build.mjs (docs/decisions/0904-compiled-start.md): a build never changes what a running
 * server serves, keeps the previous build's assets for pages loaded from it, and is skipped when nothing changed.
 */
describe('builds', () => {
  it('a web build while a server runs: every request answered, the old build kept and served, its assets carried over', async () => {
    await ensureBuilt();
    const before = currentBuild('web');
    if (!before) throw new Error('no web build');
    // A chunk only the current build has, as a tab loaded from it would ask for after a restart onto the next.
    const chunk = `only-in-previous-${process.pid}.js`;
    writeFileSync(join(before.dir, 'assets', chunk), 'export {};\n');
    const record = JSON.parse(readFileSync(join(before.dir, 'build.json'), 'utf8'));
    writeFileSync(join(before.dir, 'build.json'), JSON.stringify({ ...record, assets: [...record.assets, chunk] }));

    const dataDir = mkdtempSync(join(tmpdir(), 'billfold-build-'));
    const server = await startServer({ DATA_DIR: dataDir });
    try {
      const page = await (await fetch(`${server.url}/`)).text();
      const entry = /src="(\/assets\/[^"]+\.js)"/.exec(page)?.[1];
      expect(entry).toBeDefined();
      const failures: string[] = [];
      let asked = 0;
      let building = true;
      const asking = (async () => {
        while (building) {
          for (const path of ['/', '/entries/5', entry ?? '', `/assets/${chunk}`]) {
            const res = await fetch(`${server.url}${path}`);
            await res.arrayBuffer();
            asked++;
            if (res.status !== 200) failures.push(`${path} ${res.status}`);
          }
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      let next: string;
      try {
        next = await buildTarget('web');
      } finally {
        building = false;
        await asking;
      }
      expect(asked).toBeGreaterThan(20);
      expect(failures).toEqual([]);

      const after = currentBuild('web');
      expect(after?.dir).toBe(next);
      expect(next).not.toBe(before.dir);
      // The running server still serves the build it started with, which the new build did not remove.
      expect(readFileSync(join(before.dir, 'index.html'), 'utf8')).toBe(page);
      expect((await fetch(`${server.url}/assets/${chunk}`)).status).toBe(200);
      // The new build holds the previous build's chunk, without counting it among its own.
      expect(readFileSync(join(next, 'assets', chunk), 'utf8')).toBe('export {};\n');
      expect(after?.assets).not.toContain(chunk);
      // Nothing changed since: a start builds nothing.
      expect(await ensureBuilt()).toEqual([]);
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 600_000);

  it('a build is stale when a file of its sources changes its bytes or its name, not its time', () => {
    const dir = mkdtempSync(join(tmpdir(), 'billfold-hash-'));
    try {
      const file = join(dir, 'a.ts');
      writeFileSync(file, 'export const a = 1;\n');
      const hash = sourceHash('server', [dir]);
      utimesSync(file, new Date(2020, 0, 1), new Date(2020, 0, 1));
      expect(sourceHash('server', [dir])).toBe(hash);
      writeFileSync(file, 'export const a = 2;\n');
      const changed = sourceHash('server', [dir]);
      expect(changed).not.toBe(hash);
      rmSync(file);
      writeFileSync(join(dir, 'b.ts'), 'export const a = 2;\n');
      expect(sourceHash('server', [dir])).not.toBe(changed);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
