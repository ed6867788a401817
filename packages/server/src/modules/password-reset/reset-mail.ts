import { RESET_LINK_MINUTES } from '@billfold/contract/password-reset';
import { escapeHtml } from '../../lib/html.ts';
import type { MailMessage } from '../../lib/mailer.ts';

/**
 * The password link (`<PUBLIC_URL>/reset-password#<token>`: after `#`, the token reaches no server log and no
 * Referer). Only `PUBLIC_URL` makes it, never the request's Host, so a forged Host cannot point it elsewhere.
 */
export function resetMail(m: { to: string; username: string; link: string }): MailMessage {
  const text = [
    `Hello ${m.username},`,
    '',
    'Someone (we hope you) asked to choose a new password for your Billfold account.',
    `Choose it by opening this link within ${RESET_LINK_MINUTES} minutes:`,
    m.link,
    '',
    'Choosing a new password signs the account out everywhere. If you did not ask for this, ignore this email:',
    'your password stays as it is.',
  ].join('\n');
  const html = [
    `<p>Hello ${escapeHtml(m.username)},</p>`,
    '<p>Someone (we hope you) asked to choose a new password for your Billfold account.</p>',
    `<p><a href="${escapeHtml(m.link)}">Choose a new password</a> (the link works for ${RESET_LINK_MINUTES} minutes, once)</p>`,
    '<p>Choosing a new password signs the account out everywhere. If you did not ask for this, ignore this email: your password stays as it is.</p>',
  ].join('\n');
  return { to: m.to, subject: 'Billfold: choose a new password', text, html };
}
