// `npm start`: builds what is stale (scripts/build.mjs: nothing, and not a word, when the sources have not changed
// since the last build), then runs the compiled server in this process, so signals reach it directly.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt, ROOT } from './build.mjs';

try {
  await ensureBuilt({ say: (line) => console.error(line) });
} catch (err) {
  console.error(`Build failed: ${err.message}`);
  process.exit(1);
}
await import(pathToFileURL(join(ROOT, 'packages/server/dist/main.js')).href);
