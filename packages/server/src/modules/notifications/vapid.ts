import webpush from 'web-push';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { NotificationsRepository } from './notifications.repository.ts';

/** Why web push fails on a server whose key pair was sealed under another `MFA_KEY`: in its log and delivery log. */
export const VAPID_SEALED_ELSEWHERE = 'the web push keys do not decrypt: MFA_KEY is not the key they were sealed with';

/** The owner id the VAPID private key is sealed for: the server's own, no user's. */
const SERVER_OWNER = 0;

/**
 * The server's VAPID key pair for web push, made once by whichever process asks first and kept in the database
 * (the private key sealed), so every process signs with the same key and subscriptions survive restarts.
 */
export function vapidKeys(repo: NotificationsRepository, box: SecretBox, now: () => number) {
  let cached: Promise<{ publicKey: string; privateKey: string }> | null = null;
  return () => {
    cached ??= repo
      .keyPair(
        'vapid',
        () => {
          const pair = webpush.generateVAPIDKeys();
          return { publicKey: pair.publicKey, privateKey: box.seal(pair.privateKey, SERVER_OWNER) };
        },
        now(),
      )
      .then((row) => {
        try {
          return { publicKey: row.public_key, privateKey: box.open(row.private_key, SERVER_OWNER) };
        } catch {
          throw new Error(VAPID_SEALED_ELSEWHERE);
        }
      })
      .catch((err: unknown) => {
        cached = null;
        throw err;
      });
    return cached;
  };
}
