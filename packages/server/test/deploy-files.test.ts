import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The container recipe and the systemd units of deploy/ (docs/deploy.md). Where this machine has a container engine
 * with a daemon, the image is built and run, and must become healthy and stop with 0; where it has
 * `systemd-analyze`, the units are verified by it. Either way the files are read for what they must hold.
 */

const root = resolve(import.meta.dirname, '../../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const containerfile = read('deploy/Containerfile');

/** A unit file's `Key=value` lines of one section, every value of a repeated key. */
function unitKeys(text: string, section: string): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#') || line === '') continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      current = header[1] ?? '';
      continue;
    }
    const eq = line.indexOf('=');
    if (current !== section || eq < 0) continue;
    const key = line.slice(0, eq);
    keys.set(key, [...(keys.get(key) ?? []), line.slice(eq + 1)]);
  }
  return keys;
}

/** The instructions of the Containerfile's last stage (the image that runs). */
function finalStage(): string[] {
  const stages = containerfile.split(/^FROM /m);
  return (stages.at(-1) ?? '').split('\n').map((l) => l.trim());
}

function engine(): string | null {
  for (const bin of ['docker', 'podman']) {
    const info = spawnSync(bin, ['info'], { stdio: 'ignore' });
    if (info.status === 0) return bin;
  }
  return null;
}

describe('deploy/Containerfile', () => {
  it('builds in stages and runs the compiled server as an unprivileged user with its data in a volume and a health check', () => {
    expect(containerfile.match(/^FROM .+ AS \S+$/gm)?.length).toBeGreaterThanOrEqual(2);
    const last = finalStage();
    const user = last.find((l) => l.startsWith('USER '));
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^USER (root|0)(:|$)/);
    expect(last).toContain('VOLUME ["/data"]');
    expect(containerfile).toMatch(/DATA_DIR=\/data\b/);
    expect(last.some((l) => l.startsWith('HEALTHCHECK ') && containerfile.includes('/api/v1/health'))).toBe(true);
    expect(last).toContain('CMD ["node", "packages/server/dist/main.js"]');
    expect(last).toContain('STOPSIGNAL SIGTERM');
    // No compiler, npm cache or sources in the image: only what the build stages hand over.
    expect(last.filter((l) => l.startsWith('COPY ')).every((l) => l.startsWith('COPY --from='))).toBe(true);
  });

  it('copies every workspace manifest before `npm ci`, and every path it copies exists', () => {
    const workspaces = JSON.parse(read('package.json')).workspaces as string[];
    for (const workspace of workspaces) {
      expect(containerfile, workspace).toContain(`COPY ${workspace}/package.json ${workspace}/`);
    }
    const sources = [...containerfile.matchAll(/^COPY (?!--from)(\S+) /gm)].map((m) => m[1] ?? '');
    for (const source of sources.filter((s) => s !== '.')) expect(existsSync(join(root, source)), source).toBe(true);
    // The build context leaves out installed packages, builds and data of the checkout.
    const ignored = read('.dockerignore');
    for (const entry of ['**/node_modules', '**/builds', '**/dist', 'data', '.git']) expect(ignored).toContain(entry);
  });

  const bin = engine();
  if (!bin) {
    console.warn(
      '\n!! deploy/Containerfile is NOT built here: no container engine with a running daemon (docker or podman).\n',
    );
  }
  it.skipIf(!bin)(
    'builds, becomes healthy, keeps its data in the volume and stops with 0',
    async () => {
      const tag = `billfold-test:${process.pid}`;
      const name = `billfold-test-${process.pid}`;
      const volume = `billfold-test-data-${process.pid}`;
      const run = (...args: string[]) => execFileSync(bin as string, args, { cwd: root, encoding: 'utf8' }).trim();
      run('build', '-f', 'deploy/Containerfile', '-t', tag, '.');
      try {
        run('run', '-d', '--name', name, '-v', `${volume}:/data`, tag);
        let health = '';
        for (let i = 0; i < 120 && health !== 'healthy'; i++) {
          await new Promise((r) => setTimeout(r, 1000));
          health = run('inspect', '--format', '{{.State.Health.Status}}', name);
        }
        expect(health).toBe('healthy');
        expect(run('exec', name, 'id', '-u')).not.toBe('0');
        expect(run('exec', name, 'ls', '/data')).toContain('billfold.db');
        run('stop', '-t', '30', name);
        expect(run('inspect', '--format', '{{.State.ExitCode}}', name)).toBe('0');
      } finally {
        spawnSync(bin as string, ['rm', '-f', name]);
        spawnSync(bin as string, ['volume', 'rm', '-f', volume]);
        spawnSync(bin as string, ['rmi', '-f', tag]);
      }
    },
    1_800_000,
  );
});

describe('deploy/billfold.service and the backup units', () => {
  const service = read('deploy/billfold.service');
  const units = ['billfold.service', 'billfold-backup.service', 'billfold-backup.timer'];

  it('runs the compiled server as its own user, with the data directory the only place it can write', () => {
    const keys = unitKeys(service, 'Service');
    const one = (key: string) => keys.get(key)?.[0];
    expect(one('User')).toBe('billfold');
    expect(one('ExecStart')).toBe('/usr/bin/node /opt/billfold/packages/server/dist/main.js');
    const dataDir = /DATA_DIR=(\S+)/.exec(one('Environment') ?? '')?.[1];
    expect(dataDir).toBe('/var/lib/billfold');
    expect(one('ReadWritePaths')).toBe(dataDir);
    expect(one('StateDirectory')).toBe('billfold');
    expect(one('KillSignal')).toBe('SIGTERM');
    expect(Number(one('TimeoutStopSec'))).toBeGreaterThan(25);
    for (const [key, value] of Object.entries({
      NoNewPrivileges: 'yes',
      ProtectSystem: 'strict',
      ProtectHome: 'yes',
      PrivateTmp: 'yes',
      PrivateDevices: 'yes',
      ProtectKernelTunables: 'yes',
      ProtectKernelModules: 'yes',
      ProtectControlGroups: 'yes',
      RestrictSUIDSGID: 'yes',
      LockPersonality: 'yes',
      CapabilityBoundingSet: '',
    })) {
      expect(one(key), key).toBe(value);
    }
    // Node's JIT writes code and then runs it: this option would stop the server at start.
    expect(keys.has('MemoryDenyWriteExecute')).toBe(false);
    expect(unitKeys(service, 'Install').get('WantedBy')).toEqual(['multi-user.target']);

    const backup = unitKeys(read('deploy/billfold-backup.service'), 'Service');
    expect(backup.get('ExecStart')).toEqual(['/usr/bin/node /opt/billfold/packages/server/dist/backup.js']);
    expect(backup.get('ProtectSystem')).toEqual(['strict']);
    expect(backup.get('ReadWritePaths')).toEqual([dataDir]);
    expect(unitKeys(read('deploy/billfold-backup.timer'), 'Timer').get('OnCalendar')).toEqual(['daily']);
  });

  const analyze = spawnSync('systemd-analyze', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!analyze) console.warn('\n!! The systemd units are NOT verified here: systemd-analyze is missing.\n');
  it.skipIf(!analyze)('pass systemd-analyze verify', () => {
    // Verified as installed, with this machine's node where the units expect /usr/bin/node.
    const dir = mkdtempSync(join(tmpdir(), 'billfold-units-'));
    try {
      for (const unit of units) {
        copyFileSync(join(root, 'deploy', unit), join(dir, unit));
        writeFileSync(
          join(dir, unit),
          readFileSync(join(dir, unit), 'utf8').replaceAll('/usr/bin/node', process.execPath),
        );
      }
      const result = spawnSync('systemd-analyze', ['verify', ...units.map((u) => join(dir, u))], { encoding: 'utf8' });
      expect(`${result.stdout}${result.stderr}`.trim()).toBe('');
      expect(result.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
