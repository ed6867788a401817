import type { TestProject } from 'vitest/node';
import { findPgBin, startPgCluster } from './pg-cluster.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the throwaway PostgreSQL cluster, or null when this machine has no PostgreSQL binaries. */
    pgUrl: string | null;
  }
}

/** Starts a throwaway PostgreSQL cluster on 127.0.0.1 for the whole test run and stops it afterwards. */
export default async function setup(project: TestProject) {
  const bin = findPgBin();
  if (!bin) {
    const banner = '!'.repeat(78);
    console.warn(
      `\n${banner}\n!! No PostgreSQL binaries under /usr/lib/postgresql: running the SQLite suite ONLY.\n${banner}\n`,
    );
    project.provide('pgUrl', null);
    return;
  }
  const cluster = await startPgCluster({ settings: { fsync: 'off', max_connections: 300 } });
  project.provide('pgUrl', cluster.url);
  return () => cluster.stop();
}
