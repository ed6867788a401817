import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

/** True in the compiled server (scripts/build.mjs bundles this module into `dist/main.js`), false from source. */
const COMPILED = import.meta.url.endsWith('.js');

/**
 * Where a worker thread starts, for the worker module `moduleUrl` (`new URL('./x.worker.ts', import.meta.url)`).
 * From TypeScript source (tests, `npm run dev`) it starts at lib/worker-entry.mjs, which loads tsx and then the
 * module named in `workerData.entry`; in the compiled server the build puts every `*.worker.ts` beside `main.js`
 * as `<name>.worker.js`, and the worker starts there.
 */
export function workerStart(moduleUrl: URL): { entry: URL; workerData: { entry?: string } } {
  if (!COMPILED)
    return { entry: new URL('./worker-entry.mjs', import.meta.url), workerData: { entry: moduleUrl.href } };
  const name = basename(fileURLToPath(moduleUrl)).replace(/\.ts$/, '.js');
  return { entry: new URL(`./${name}`, import.meta.url), workerData: {} };
}
