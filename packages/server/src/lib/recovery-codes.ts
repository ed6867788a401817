import { randomInt } from 'node:crypto';

export const RECOVERY_CODE_COUNT = 10;
/** Lower-case letters and digits without the look-alikes 0/o, 1/l/i: 31 symbols, 10 of them ≈ 49.5 bits. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const LENGTH = 10;

/** Ten codes written `xxxxx-xxxxx`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let code = '';
    for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** The code as stored (hashed): case, spaces and hyphens do not matter; `null` when it cannot be a recovery code. */
export function normalizeRecoveryCode(input: string): string | null {
  const code = input.toLowerCase().replace(/[\s-]+/g, '');
  return code.length === LENGTH && [...code].every((c) => ALPHABET.includes(c)) ? code : null;
}
