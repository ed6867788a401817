import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './pg-cluster.ts';

/**
 * Debian's nginx in front of server processes, as docs/deploy.md tells a user to deploy it: the site
 * configuration is the `nginx` block of that document itself (only the listen address and the upstream ports
 * change), wrapped in a main configuration that runs nginx as a plain process on 127.0.0.1 in a temporary
 * directory. Used by the deployment test and the soak load through nginx.
 */

const NGINX = '/usr/sbin/nginx';
export const DEPLOY_DOC = resolve(import.meta.dirname, '../../../../docs/deploy.md');

export function findNginx(): string | null {
  return existsSync(NGINX) ? NGINX : null;
}

/** Replaces `pattern` in `text`, failing loudly when the document no longer has what the test relies on. */
function replaceOnce(text: string, pattern: RegExp, replacement: string, what: string): string {
  if (!pattern.test(text)) throw new Error(`docs/deploy.md's nginx block has no ${what}`);
  return text.replace(pattern, replacement);
}

/** The nginx block of docs/deploy.md, listening on 127.0.0.1:`port` and balancing over `upstreams` (host:port). */
export function siteConfig(port: number, upstreams: string[]): string {
  const doc = readFileSync(DEPLOY_DOC, 'utf8');
  const blocks = [...doc.matchAll(/```nginx\n([\s\S]*?)```/g)];
  const block = blocks[0]?.[1];
  if (blocks.length !== 1 || !block) throw new Error('docs/deploy.md must hold exactly one nginx block');
  const servers = upstreams.map((address) => `    server ${address};\n`).join('');
  let site = replaceOnce(
    block,
    /^ {4}server 127\.0\.0\.1:\d+;\n(?: {4}server 127\.0\.0\.1:\d+;\n)*/m,
    servers,
    'upstream',
  );
  site = replaceOnce(site, /^ {4}listen 80;$/m, `    listen 127.0.0.1:${port};`, '`listen 80;`');
  return site;
}

export interface RunningNginx {
  url: string;
  /** The configuration nginx runs with, for failure messages. */
  config: string;
  errorLog(): string;
  stop(): Promise<void>;
}

function reachable(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      done(true);
    });
    socket.on('error', () => done(false));
  });
}

export async function startNginx(upstreams: string[]): Promise<RunningNginx> {
  const bin = findNginx();
  if (!bin) throw new Error(`${NGINX} not found (apt-get install nginx)`);
  const dir = mkdtempSync(join(tmpdir(), 'billfold-nginx-'));
  // As root, nginx's workers run as `nobody`: they must reach the temporary paths below.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const config = `worker_processes 2;
worker_rlimit_nofile 8192;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;

${siteConfig(port, upstreams)}
}
`;
  const file = join(dir, 'nginx.conf');
  writeFileSync(file, config);
  const errorFile = join(dir, 'error.log');
  const child: ChildProcess = spawn(bin, ['-p', dir, '-c', file, '-e', errorFile, '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const errorLog = () => {
    try {
      return `${output}${readFileSync(errorFile, 'utf8')}`;
    } catch {
      return output;
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; !(await reachable(port)); i++) {
    if (child.exitCode !== null || i > 100) {
      const log = errorLog();
      await stop();
      throw new Error(`nginx did not start:\n${log}\n${config}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `http://127.0.0.1:${port}`, config, errorLog, stop };
}
