import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseConfig } from '../../src/config.ts';
import { createDatabase, type Db } from '../../src/db/database.ts';
import { createTestDatabase, type Dialect } from './app.ts';
import { STRONG_PASSWORD } from './factories.ts';
import { login, type ServerProcess, startServer } from './server-process.ts';

/**
 * A place for the compiled server to run, stop and start again, as the crash tests use it: a data directory and a
 * database (a file in it, or a throwaway PostgreSQL database), the environment naming both (plus `env`), a user
 * signed up once over HTTP, and the clean-up. `server` is the process started last; `dispose` stops it.
 */
export interface ServerDeployment {
  env: Record<string, string>;
  database: DatabaseConfig;
  user: { username: string; email: string; password: string };
  server: ServerProcess | null;
  /** Starts the compiled server (the one before it must be stopped or killed) and answers it. */
  start(): Promise<ServerProcess>;
  /** Signs the user up over HTTP on the running server (once) and answers an access token. */
  signUp(): Promise<string>;
  /** Signs the user in over HTTP on the running server. */
  login(): Promise<string>;
  /** Reads the database directly (the server may be down) and closes the connection. */
  read<T>(work: (db: Db) => Promise<T>): Promise<T>;
  /** Stops the running server (if any; SIGTERM, then SIGKILL), drops the database and removes the data directory. */
  dispose(): Promise<void>;
}

export async function serverDeployment(
  dialect: Dialect,
  name: string,
  env: Record<string, string> = {},
): Promise<ServerDeployment> {
  const dataDir = mkdtempSync(join(tmpdir(), `billfold-${name}-`));
  const pgDatabase = dialect === 'postgres' ? await createTestDatabase('postgres') : null;
  const database: DatabaseConfig = pgDatabase?.config ?? { dialect: 'sqlite', file: join(dataDir, 'billfold.db') };
  const deployment: ServerDeployment = {
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: database.dialect === 'postgres' ? database.url : `sqlite:${database.file}`,
      JWT_SECRET: `${name}-secret-${name}-secret-0123456789abcdef`,
      ...env,
    },
    database,
    user: { username: `${name}_${dialect}`, email: `${name}_${dialect}@example.com`, password: STRONG_PASSWORD },
    server: null,
    async start() {
      deployment.server = await startServer(deployment.env);
      return deployment.server;
    },
    async signUp() {
      const created = await fetch(`${running().url}/api/v1/auth/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(deployment.user),
      });
      if (created.status !== 201) throw new Error(`sign-up failed: ${created.status} ${await created.text()}`);
      return deployment.login();
    },
    login: () => login(running().url, deployment.user),
    async read(work) {
      const db = createDatabase(database);
      try {
        return await work(db);
      } finally {
        await db.destroy();
      }
    },
    async dispose() {
      await deployment.server?.stop();
      deployment.server = null;
      await pgDatabase?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  const running = () => {
    if (!deployment.server) throw new Error('the server is not running');
    return deployment.server;
  };
  return deployment;
}

/** Asks `check` every 50 ms until it holds; past `ms`, fails naming `what` (a server process works on its own time). */
export async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
