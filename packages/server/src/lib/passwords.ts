import { type Algorithm, hash, verify } from '@node-rs/argon2';

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
export const ARGON2_OPTIONS = {
  algorithm: 2 as Algorithm.Argon2id, // const enum value of Argon2id
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

// Unknown usernames still cost one verification, so response time does not tell which names exist.
const dummyHash = hashPassword('not-a-real-password-Aa1!');
export async function burnVerification(password: string): Promise<void> {
  await verifyPassword(await dummyHash, password);
}
