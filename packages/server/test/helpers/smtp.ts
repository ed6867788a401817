import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type { ParsedMail };

/** A real SMTP server on 127.0.0.1 that keeps every message it accepts (or refuses them while `refusing`). */
export async function startSmtp() {
  const received: ParsedMail[] = [];
  const state = { refusing: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(_address, _session, done) {
      done(state.refusing ? Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }) : undefined);
    },
    onData(stream, _session, done) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    received,
    state,
    url: `smtp://127.0.0.1:${port}`,
    /** The messages that went to `address` (any letter case). */
    to: (address: string) =>
      received.filter((m) => m.to && 'text' in m.to && m.to.text.toLowerCase() === address.toLowerCase()),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export type Smtp = Awaited<ReturnType<typeof startSmtp>>;

/** The token of the latest verification link in `mails` (`/verify-email#<token>`). */
export function verificationToken(mails: ParsedMail[]): string {
  const links = mails.flatMap((m) => [...(m.text ?? '').matchAll(/\/verify-email#([A-Za-z0-9_-]+)/g)].map((x) => x[1]));
  const token = links.at(-1);
  if (!token) throw new Error('no verification link was mailed');
  return token;
}
