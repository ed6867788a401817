import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/** A 32-byte key for one purpose, derived from the configured MFA key text (HKDF-SHA256). */
function subkey(keyText: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', keyText, '', `billfold ${purpose}`, 32));
}

/**
 * Authenticated encryption (AES-256-GCM) of small secrets stored in the database. The owner's id is bound in
 * as associated data, so a ciphertext copied onto another account's row does not decrypt there.
 */
export class SecretBox {
  private readonly key: Buffer;
  private readonly macKey: Buffer;

  constructor(keyText: string) {
    this.key = subkey(keyText, 'mfa secret');
    this.macKey = subkey(keyText, 'recovery code');
  }

  seal(plain: string, ownerId: number): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(String(ownerId)));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}:${iv.toString('base64url')}:${body.toString('base64url')}`;
  }

  /** Throws when the text was not sealed with this key for this owner (wrong or changed key, tampering). */
  open(sealed: string, ownerId: number): string {
    const [version, ivText, bodyText] = sealed.split(':');
    if (version !== VERSION || !ivText || !bodyText) throw new Error('MFA secret: unknown format');
    const body = Buffer.from(bodyText, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(ivText, 'base64url'));
    decipher.setAAD(Buffer.from(String(ownerId)));
    decipher.setAuthTag(body.subarray(body.length - 16));
    try {
      return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('MFA secret does not decrypt: MFA_KEY (or DATA_DIR/mfa-key) is not the key it was stored with');
    }
  }

  /** A keyed hash (HMAC-SHA256): someone holding the database but not the key cannot test guesses offline. */
  digest(value: string): string {
    return createHmac('sha256', this.macKey).update(value).digest('hex');
  }
}
