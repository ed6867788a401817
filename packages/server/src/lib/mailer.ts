import nodemailer from 'nodemailer';

export interface MailConfig {
  /** `smtp://user:pass@host:587` or `smtps://…:465` (nodemailer's connection URL). */
  smtpUrl: string;
  /** The sender, `Billfold <billfold@example.com>` or a bare address. */
  from: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Mail over SMTP with nodemailer; one pooled transport per process. */
export function createMailer(config: MailConfig): Mailer {
  const transport = nodemailer.createTransport(config.smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from: config.from, ...message });
    },
    close: () => transport.close(),
  };
}
