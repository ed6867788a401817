import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../packages/server/test/helpers/pg-cluster.ts';
import { parseArgs } from './lib/args.ts';

/**
 * `npm run bench:start`: how long a start takes when nothing needs building, the way a self-hoster starts it: the
 * time from running `npm start` (npm itself included) to the first 200 of `/api/v1/health`, on a SQLite data
 * directory that a first start (not timed; it builds whatever is stale) already made. Each timed start is stopped
 * with SIGTERM before the next, which must end it with 0. Prints every time, and the median (the figure to quote)
 * and the slowest against the 1.5 s target, with the load average before and after (the machine may be shared), and
 * the CPU time npm start's processes used until the answer: on a busy machine, what the start would take on an idle one.
 */

const HELP = `Usage: npm run bench:start -- [options]

  --runs N   timed starts after the first (default 7)
  --help`;

const TARGET_MS = 1_500;
const ROOT = resolve(import.meta.dirname, '..');
const args = parseArgs(process.argv.slice(2), { runs: 'number', help: 'boolean' });
if (args.help) {
  console.log(HELP);
  process.exit(0);
}

/** CPU seconds the live processes of process group `group` have used (npm, its shell, node), from /proc. */
function groupCpuSeconds(group: number): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // After the name: state ppid pgrp … utime (14th field of the line) stime (15th).
      if (Number(fields[2]) === group) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks / 100;
}

/** One `npm start`: wall and CPU time until health answered; stopped with SIGTERM, which must end it with 0. */
async function start(dataDir: string): Promise<{ wall: number; cpu: number }> {
  const port = await freePort();
  const began = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, stopped as a whole the way a terminal's Ctrl-C stops one: npm does not pass SIGTERM on.
    detached: true,
  });
  let stderr = '';
  const keep = (chunk: Buffer) => {
    stderr += chunk;
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  let elapsed = 0;
  let cpu = 0;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${stderr}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
      if (res.ok) {
        elapsed = performance.now() - began;
        cpu = groupCpuSeconds(child.pid ?? 0);
        break;
      }
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  process.kill(-(child.pid ?? 0), 'SIGTERM');
  const code = await exited;
  // npm ends by the signal; the server itself must have drained and stopped.
  if (code !== 0 && child.signalCode !== 'SIGTERM') throw new Error(`npm start ended with ${code}:\n${stderr}`);
  if (/stopping anyway|shutdown failed/.test(stderr)) throw new Error(`the server did not drain:\n${stderr}`);
  for (;;) {
    try {
      await fetch(`http://127.0.0.1:${port}/api/v1/health`);
      await new Promise((r) => setTimeout(r, 20));
    } catch {
      break;
    }
  }
  return { wall: elapsed, cpu };
}

const dataDir = mkdtempSync(join(tmpdir(), 'billfold-bench-start-'));
try {
  const runs = args.runs ?? 7;
  console.log(`${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(2)} before`);
  const first = await start(dataDir);
  console.log(`first start (builds what is stale, creates the database): ${(first.wall / 1000).toFixed(2)} s`);
  const starts: { wall: number; cpu: number }[] = [];
  for (let i = 0; i < runs; i++) starts.push(await start(dataDir));
  const times = starts.map((s) => s.wall);
  const sorted = [...times].sort((a, b) => a - b);
  const cpuTimes = starts.map((s) => s.cpu).sort((a, b) => a - b);
  console.log(
    `CPU time of npm start's processes until the answer (what an idle machine waits, besides I/O): median ${cpuTimes[Math.floor(cpuTimes.length / 2)]?.toFixed(2)} s`,
  );
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const slowest = sorted.at(-1) ?? 0;
  console.log(`second starts: ${times.map((t) => (t / 1000).toFixed(2)).join(', ')} s`);
  console.log(
    `median ${(median / 1000).toFixed(2)} s, slowest ${(slowest / 1000).toFixed(2)} s; target ${TARGET_MS / 1000} s: ${median <= TARGET_MS ? 'met' : 'MISSED'}`,
  );
  console.log(`load average ${loadavg()[0]?.toFixed(2)} after`);
  if (median > TARGET_MS) process.exitCode = 1;
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
