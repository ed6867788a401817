import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app implements it: SHA-1, 6 digits, 30-second steps. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Codes of the step before and after the current one are accepted too (clock drift of up to 30 s). */
export const TOTP_DRIFT_STEPS = 1;
export const ISSUER = 'Billfold';

function totp(secretBase32: string, label = '') {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A new random secret of 160 bits (RFC 4226's recommended length), base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` URI an authenticator app reads from the QR code. */
export function otpauthUri(secretBase32: string, accountName: string): string {
  return totp(secretBase32, accountName).toString();
}

/** The code of the step that holds `at` (milliseconds); for tests and the operator's checks. */
export function totpCode(secretBase32: string, at: number): string {
  return totp(secretBase32).generate({ timestamp: at });
}

export function timeStep(at: number): number {
  return Math.floor(at / 1000 / TOTP_PERIOD_SECONDS);
}

/** The time step whose code `code` is, within the drift window around `at`; `null` when it matches none. */
export function matchTotp(secretBase32: string, code: string, at: number): number | null {
  const token = code.replace(/\s+/g, '');
  if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(token)) return null;
  const delta = totp(secretBase32).validate({ token, timestamp: at, window: TOTP_DRIFT_STEPS });
  return delta === null ? null : timeStep(at) + delta;
}
