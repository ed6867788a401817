/**
 * A real SMTP server on a free loopback port (no TLS, no sign-in, as a local relay) that keeps every message it
 * accepts, for a spec's own server started with `SMTP_URL` (support/server.ts).
 */
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope's recipients. */
  to: string[];
  subject: string;
  text: string;
}

export interface Mailbox {
  url: string;
  received: ReceivedMail[];
  close: () => Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      simpleParser(stream)
        .then((mail) => {
          const to = session.envelope.rcptTo.map((address) => address.address);
          received.push({ to, subject: mail.subject ?? '', text: mail.text ?? '' });
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The mails to `address` (any letter case) with `subject`, waiting until there are at least `count`. */
export async function waitForMail(
  mailbox: Mailbox,
  address: string,
  subject: string,
  count = 1,
  timeoutMs = 10_000,
): Promise<ReceivedMail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = mailbox.received.filter(
      (m) => m.subject === subject && m.to.some((to) => to.toLowerCase() === address.toLowerCase()),
    );
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`no mail "${subject}" to ${address} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const VERIFICATION_SUBJECT = 'Billfold: confirm your email address';

/** The verification link (`…/verify-email#<token>`) of a mail. */
export function verificationLink(mail: ReceivedMail): string {
  const link = /https?:\/\/\S+\/verify-email#[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no verification link in "${mail.subject}"`);
  return link;
}
