import { describe, expect, it } from 'vitest';
import { newRecoveryCodes, normalizeRecoveryCode, RECOVERY_CODE_COUNT } from '../src/lib/recovery-codes.ts';
import { SecretBox } from '../src/lib/secret-box.ts';
import { matchTotp, newTotpSecret, otpauthUri, timeStep, totpCode } from '../src/lib/totp.ts';

/** RFC 6238 Appendix B, SHA-1 rows: the seed is the ASCII text "12345678901234567890". */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'; // base32 of "12345678901234567890"
const RFC_VECTORS: [seconds: number, eightDigits: string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238)', () => {
  // Truncation is the HOTP value modulo 10^digits, so a 6-digit code is the last six digits of the 8-digit one.
  it.each(RFC_VECTORS)('at %i s the code is the RFC value %s (its last six digits)', (seconds, eight) => {
    expect(totpCode(RFC_SECRET, seconds * 1000)).toBe(eight.slice(2));
    expect(matchTotp(RFC_SECRET, eight.slice(2), seconds * 1000)).toBe(Math.floor(seconds / 30));
  });

  it('tolerates one step of clock drift either way, not two', () => {
    const at = 1234567890 * 1000;
    const code = totpCode(RFC_SECRET, at);
    expect(matchTotp(RFC_SECRET, code, at + 30_000)).toBe(timeStep(at));
    expect(matchTotp(RFC_SECRET, code, at - 30_000)).toBe(timeStep(at));
    expect(matchTotp(RFC_SECRET, code, at + 60_000)).toBeNull();
    expect(matchTotp(RFC_SECRET, code, at - 60_000)).toBeNull();
  });

  it('accepts spaces inside the code and refuses anything but six digits', () => {
    const at = 59_000;
    expect(matchTotp(RFC_SECRET, '287 082', at)).toBe(1);
    for (const bad of ['28708', '2870822', '94287082', 'abcdef', '', '287-082']) {
      expect(matchTotp(RFC_SECRET, bad, at)).toBeNull();
    }
  });

  it('makes 160-bit secrets and an otpauth URI an authenticator app reads', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const uri = new URL(otpauthUri(secret, 'alice'));
    expect(`${uri.protocol}//${uri.host}`).toBe('otpauth://totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Billfold:alice');
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({
      secret,
      issuer: 'Billfold',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});

describe('secret box', () => {
  const box = new SecretBox('k'.repeat(32));

  it('round-trips, never stores the plain text, and differs every time', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 7);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP', 7)).not.toBe(sealed);
    expect(box.open(sealed, 7)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('refuses another owner, another key and a changed byte', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 7);
    expect(() => box.open(sealed, 8)).toThrow(/does not decrypt/);
    expect(() => new SecretBox('j'.repeat(32)).open(sealed, 7)).toThrow(/does not decrypt/);
    // The body's first character: every bit of it is data (the last one of base64 also holds padding bits, so
    // changing it may change no byte at all).
    const at = sealed.lastIndexOf(':') + 1;
    const changed = sealed[at] === 'A' ? 'B' : 'A';
    expect(() => box.open(`${sealed.slice(0, at)}${changed}${sealed.slice(at + 1)}`, 7)).toThrow();
  });

  it('hashes with the key: the same text under another key gives another digest', () => {
    expect(box.digest('abcde')).toBe(box.digest('abcde'));
    expect(new SecretBox('j'.repeat(32)).digest('abcde')).not.toBe(box.digest('abcde'));
  });
});

describe('recovery codes', () => {
  it('are ten distinct codes written xxxxx-xxxxx', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  });

  it('match in any case, with or without the hyphen and spaces; other text is not a code', () => {
    expect(normalizeRecoveryCode('ABCDE-FGHJK')).toBe('abcdefghjk');
    expect(normalizeRecoveryCode(' abcde fghjk ')).toBe('abcdefghjk');
    for (const bad of ['abcde-fghj', 'abcde-fghjkk', 'abcde-fghj0', '123456']) {
      expect(normalizeRecoveryCode(bad)).toBeNull();
    }
  });
});
