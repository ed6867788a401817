import { availableParallelism } from 'node:os';
import { type Algorithm, hash, verify } from '@node-rs/argon2';

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
export const ARGON2_OPTIONS = {
  algorithm: 2 as Algorithm.Argon2id, // const enum value of Argon2id
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * At most one argon2 computation per core at a time: each holds 19 MiB, and more at once than there are
 * cores only interleaves them (the work is all CPU) while the memory adds up (docs/performance.md).
 */
const MAX_CONCURRENT = Math.max(1, availableParallelism());
let running = 0;
const waiting: (() => void)[] = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

export function hashPassword(password: string): Promise<string> {
  return limited(() => hash(password, ARGON2_OPTIONS));
}

export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await limited(() => verify(storedHash, password));
  } catch {
    return false;
  }
}

// Unknown usernames still cost one verification, so response time does not tell which names exist.
const dummyHash = hashPassword('not-a-real-password-Aa1!');
export async function burnVerification(password: string): Promise<void> {
  await verifyPassword(await dummyHash, password);
}
