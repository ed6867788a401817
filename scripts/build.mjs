// The production build of the server and the web app, and the check whether either needs one
// (docs/decisions/0904-compiled-start.md). Plain JavaScript, so that `npm start` can run it without a compiler.
//
// Each target is built into a new directory `packages/<target>/builds/<id>/` and switched to by renaming a
// symlink `packages/<target>/dist` onto it, so a running server never sees a half-written build; the build keeps
// the previous build's web assets (tabs opened before the switch still load their chunks) and a build directory
// a live server started from (its `.in-use-<pid>` marker, packages/server/src/lib/build-dir.ts) is never removed.
//
//   node scripts/build.mjs                 build both (what `npm run build` runs)
//   node scripts/build.mjs --if-changed    build only what is stale (what `npm start` runs first)
//   node scripts/build.mjs --server | --web  one target only
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SELF = fileURLToPath(import.meta.url);
const LOCK = join(ROOT, 'package-lock.json');
const CONTRACT = [join(ROOT, 'packages/contract/src'), join(ROOT, 'packages/contract/package.json')];

/** What each target is made from; a change to any of these files makes its build stale. */
export const TARGETS = {
  server: {
    dir: join(ROOT, 'packages/server'),
    inputs: [join(ROOT, 'packages/server/src'), join(ROOT, 'packages/server/package.json'), ...CONTRACT, LOCK, SELF],
  },
  web: {
    dir: join(ROOT, 'packages/web'),
    inputs: [
      join(ROOT, 'packages/web/src'),
      join(ROOT, 'packages/web/public'),
      join(ROOT, 'packages/web/index.html'),
      join(ROOT, 'packages/web/vite.config.ts'),
      join(ROOT, 'packages/web/package.json'),
      ...CONTRACT,
      LOCK,
      SELF,
    ],
  },
};

/** How many finished builds a target keeps besides the ones live servers use: the current and the one before. */
const KEEP_BUILDS = 2;

function filesUnder(path, out) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return out;
  if (!stat.isDirectory()) {
    out.push(path);
    return out;
  }
  for (const name of readdirSync(path).sort()) {
    if (name === 'node_modules') continue;
    filesUnder(join(path, name), out);
  }
  return out;
}

/** The content hash of a target's inputs: names and bytes of every file, in a fixed order. */
export function sourceHash(target, inputs = TARGETS[target].inputs) {
  const hash = createHash('sha256');
  for (const input of inputs) {
    for (const file of filesUnder(input, [])) {
      hash.update(relative(ROOT, file));
      hash.update('\0');
      hash.update(readFileSync(file));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}

const distOf = (target) => join(TARGETS[target].dir, 'dist');
const buildsOf = (target) => join(TARGETS[target].dir, 'builds');

/** The build `dist` points at, with its record (`build.json`), or null when there is none. */
export function currentBuild(target) {
  let dir;
  try {
    dir = realpathSync(distOf(target));
  } catch {
    return null;
  }
  try {
    return { dir, ...JSON.parse(readFileSync(join(dir, 'build.json'), 'utf8')) };
  } catch {
    return { dir, sourceHash: null, assets: null };
  }
}

/** Whether `dist` holds a build of exactly the target's current sources. */
export function isFresh(target, hash = sourceHash(target)) {
  const current = currentBuild(target);
  if (!current || current.sourceHash !== hash) return false;
  return existsSync(join(current.dir, target === 'web' ? 'index.html' : 'main.js'));
}

/** Runs a command without blocking this process's event loop (a running server may share it); its output is shown only if it fails. */
function run(command, args, options) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) return resolveRun();
      process.stderr.write(output);
      reject(new Error(`${basename(command)} ${args.join(' ')} failed (exit ${code ?? signal})`));
    });
  });
}

/**
 * npm packages the server build leaves to node_modules: native add-ons, and packages that read their own files or
 * start their own threads at run time. Everything else is compiled into the bundle: one file loads in about 60%
 * of the CPU time a thousand files from node_modules take (bench/start.ts).
 */
const SERVER_EXTERNAL = new Set([
  'better-sqlite3',
  '@node-rs/argon2',
  'pg-native',
  '@fastify/helmet',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  'pino',
  'pino-pretty',
  'thread-stream',
  // pdf.js loads its own worker module and fonts, @napi-rs/canvas is native, tesseract.js starts its own thread
  // and loads its WebAssembly core (docs/decisions/1147-pdf-first-page.md).
  'pdfjs-dist',
  '@napi-rs/canvas',
  'tesseract.js',
  'tesseract.js-core',
]);

const packageName = (path) =>
  path
    .split('/')
    .slice(0, path.startsWith('@') ? 2 : 1)
    .join('/');

/** The server: one ES module per entry point, with our packages and most npm dependencies compiled in. */
async function buildServer(outDir) {
  const { build } = await import('esbuild');
  const src = join(TARGETS.server.dir, 'src');
  const workers = filesUnder(src, []).filter((file) => file.endsWith('.worker.ts'));
  await build({
    entryPoints: {
      main: join(src, 'main.ts'),
      backup: join(src, 'backup/main.ts'),
      'mfa-reset': join(src, 'cli/mfa-reset.ts'),
      'attachments-check': join(src, 'cli/attachments-check.ts'),
      // Worker threads start from their own compiled file beside main.js (src/lib/worker-url.ts).
      ...Object.fromEntries(workers.map((file) => [basename(file, '.ts'), file])),
    },
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: 'linked',
    logLevel: 'error',
    // CommonJS packages compiled into an ES module still call `require` for Node's own modules.
    banner: {
      js: "import { createRequire as __billfoldRequire } from 'node:module'; const require = __billfoldRequire(import.meta.url);",
    },
    plugins: [
      {
        name: 'external-packages',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('node:') || SERVER_EXTERNAL.has(packageName(args.path))
              ? { path: args.path, external: true }
              : undefined,
          );
        },
      },
    ],
  });
  // The build directory sits in packages/server, whose package.json says "type": "module".
}

/** The web app through Vite, into `outDir`. */
function buildWeb(outDir) {
  const vite = join(ROOT, 'node_modules/vite/bin/vite.js');
  return run(process.execPath, [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: TARGETS.web.dir,
    // What ships is React's production bundle, whatever NODE_ENV the caller has (vitest sets `test`).
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

function assetsOf(dir) {
  const assets = join(dir, 'assets');
  return existsSync(assets) ? readdirSync(assets).sort() : [];
}

/** Copies the previous build's own assets into the new one, so pages loaded from it still find their chunks. */
function keepPreviousAssets(previous, outDir) {
  if (!previous) return;
  const names = previous.assets ?? assetsOf(previous.dir);
  mkdirSync(join(outDir, 'assets'), { recursive: true });
  for (const name of names) {
    const from = join(previous.dir, 'assets', name);
    const to = join(outDir, 'assets', name);
    if (existsSync(from) && !existsSync(to)) copyFileSync(from, to);
  }
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** Whether a live server started from this build directory (it leaves `.in-use-<pid>` there while it runs). */
function inUse(dir) {
  try {
    return readdirSync(dir).some((name) => {
      const pid = /^\.in-use-(\d+)$/.exec(name)?.[1];
      return pid !== undefined && pidAlive(Number(pid));
    });
  } catch {
    return false;
  }
}

/** Removes builds that are neither among the newest `KEEP_BUILDS` nor used by a live server, and stale temporaries. */
function prune(target) {
  const builds = buildsOf(target);
  const names = readdirSync(builds).sort().reverse();
  const finished = names.filter((name) => /^\d{8}T\d{6}-[0-9a-f]+-[0-9a-f]+$/.test(name));
  for (const name of finished.slice(KEEP_BUILDS)) {
    const dir = join(builds, name);
    if (!inUse(dir)) rmSync(dir, { recursive: true, force: true });
  }
  for (const name of names.filter((n) => n.startsWith('.tmp-'))) {
    const pid = Number(/^\.tmp-(\d+)-/.exec(name)?.[1]);
    if (!pidAlive(pid)) rmSync(join(builds, name), { recursive: true, force: true });
  }
}

/** Points `dist` at `dir` with one rename, so a reader sees either the old build or the new one, never neither. */
function switchTo(target, dir) {
  const dist = distOf(target);
  const stat = lstatSync(dist, { throwIfNoEntry: false });
  if (stat && !stat.isSymbolicLink()) {
    // A `dist` directory from before builds were switched (or written by hand): kept as an old build.
    renameSync(dist, join(buildsOf(target), `00000000T000000-legacy-${process.pid.toString(16)}`));
  }
  const link = `${dist}.next-${process.pid}`;
  rmSync(link, { force: true });
  symlinkSync(relative(dirname(dist), dir), link, 'dir');
  renameSync(link, dist);
}

function stamp(date) {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, '');
}

/** Builds one target into a new directory and switches `dist` to it, under the target's lock. Returns that directory. */
export function buildTarget(target, hash = sourceHash(target)) {
  return withLock(target, () => buildUnlocked(target, hash));
}

async function buildUnlocked(target, hash) {
  const builds = buildsOf(target);
  mkdirSync(builds, { recursive: true });
  const previous = currentBuild(target);
  const tmp = join(builds, `.tmp-${process.pid}-${Date.now().toString(36)}`);
  rmSync(tmp, { recursive: true, force: true });
  try {
    if (target === 'server') await buildServer(tmp);
    else await buildWeb(tmp);
    const assets = assetsOf(tmp);
    if (target === 'web') keepPreviousAssets(previous, tmp);
    const builtAt = new Date();
    writeFileSync(
      join(tmp, 'build.json'),
      `${JSON.stringify({ sourceHash: hash, builtAt: builtAt.toISOString(), assets }, null, 2)}\n`,
    );
    const dir = join(builds, `${stamp(builtAt)}-${hash.slice(0, 12)}-${process.pid.toString(16)}`);
    renameSync(tmp, dir);
    switchTo(target, dir);
    prune(target);
    return dir;
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Holds a target's build lock (the directory `builds/.lock`, made atomically, with its owner's pid) while `work`
 * runs, so two starts on one checkout build one after the other and the second finds the first's build fresh. A lock
 * whose process is gone is taken over.
 */
async function withLock(target, work) {
  const builds = buildsOf(target);
  mkdirSync(builds, { recursive: true });
  const lock = join(builds, '.lock');
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      let owner = 0;
      try {
        owner = Number(readFileSync(join(lock, 'pid'), 'utf8'));
      } catch {
        // just released, or its owner has not written its pid yet
      }
      if (owner && !pidAlive(owner)) rmSync(lock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Builds the targets asked for: every one (`force`), or only those whose sources changed since their build.
 * `say` reports each build in one line; nothing is said when nothing is built.
 */
export async function ensureBuilt({ force = false, targets = ['server', 'web'], say = () => {} } = {}) {
  const built = [];
  for (const target of targets) {
    const hash = sourceHash(target);
    if (!force && isFresh(target, hash)) continue;
    await withLock(target, async () => {
      // Another process may have built it while this one waited.
      if (!force && isFresh(target, hash)) return;
      const started = Date.now();
      say(`Building the ${target === 'web' ? 'web app' : 'server'}${force ? '' : ' (its sources changed)'}…`);
      const dir = await buildUnlocked(target, hash);
      say(`Built the ${target === 'web' ? 'web app' : 'server'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      built.push({ target, dir });
    });
  }
  return built;
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const only = args.find((a) => a === '--server' || a === '--web');
  try {
    await ensureBuilt({
      force: !args.includes('--if-changed'),
      targets: only ? [only.slice(2)] : ['server', 'web'],
      say: (line) => console.log(line),
    });
  } catch (err) {
    console.error(`Build failed: ${err.message}`);
    process.exit(1);
  }
}
