// Types of scripts/build.mjs, for the TypeScript tests and helpers that build or start the compiled server.
export type Target = 'server' | 'web';
export const ROOT: string;
export const TARGETS: Record<Target, { dir: string; inputs: string[] }>;
export function sourceHash(target: Target, inputs?: string[]): string;
export function currentBuild(
  target: Target,
): { dir: string; sourceHash: string | null; assets: string[] | null } | null;
export function isFresh(target: Target, hash?: string): boolean;
export function buildTarget(target: Target, hash?: string): Promise<string>;
export function ensureBuilt(options?: {
  force?: boolean;
  targets?: Target[];
  say?: (line: string) => void;
}): Promise<{ target: Target; dir: string }[]>;
