import type { FastifyBaseLogger } from 'fastify';
import type { Mailer, MailMessage } from './mailer.ts';

/**
 * Mail a request causes (a verification link, a notice to an address's owner) goes out in the background: the
 * request never waits for SMTP, so neither its answer nor its timing shows whether a mail was sent (sign-up
 * must not reveal that an address is taken, docs/decisions/1131-verified-addresses.md). A failed send is logged;
 * the user can ask again. `settled` waits for what is in flight (closing the app, tests).
 */
export class Outbox {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly mailer: Mailer | null,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The server can send mail (`SMTP_URL` and `MAIL_FROM` are set). */
  get configured(): boolean {
    return this.mailer !== null;
  }

  post(message: MailMessage, what: string): void {
    if (!this.mailer) return;
    const sending: Promise<void> = this.mailer
      .send(message)
      .catch((err: unknown) => this.log.error({ err, what }, 'mail failed'))
      .finally(() => this.inFlight.delete(sending));
    this.inFlight.add(sending);
  }

  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }
}
