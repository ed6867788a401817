import { VERIFICATION_LINK_HOURS } from '@billfold/contract/email-verification';
import { escapeHtml } from '../../lib/html.ts';
import type { MailMessage } from '../../lib/mailer.ts';

/** Why the link is being sent: the words around it differ. */
export type LinkReason = 'new' | 'changed' | 'again' | 'reminders';

const OPENING: Record<LinkReason, string> = {
  new: 'Welcome to Billfold. Please confirm that this is your email address.',
  changed: 'Your Billfold account now uses this email address. Please confirm it.',
  again: 'Here is a new link to confirm your email address.',
  reminders:
    'Billfold now sends email only to confirmed addresses, so your daily reminders are paused until you confirm this one.',
};

/**
 * The verification mail: the link (`<app>/verify-email#<token>`: after `#`, the token reaches no server log and
 * no Referer), or, when the server does not know its own address (no `PUBLIC_URL`, in the hourly job), where
 * to ask for one.
 */
export function verificationMail(m: { to: string; username: string; link: string | null; reason: LinkReason }) {
  const how = m.link
    ? [`Confirm it by opening this link within ${VERIFICATION_LINK_HOURS} hours:`, m.link]
    : ['Sign in to Billfold and choose “Send link” next to your email on the Account page.'];
  const text = [
    `Hello ${m.username},`,
    '',
    OPENING[m.reason],
    ...how,
    '',
    'If you did not ask for this, you can ignore this email.',
  ].join('\n');
  const html = [
    `<p>Hello ${escapeHtml(m.username)},</p>`,
    `<p>${escapeHtml(OPENING[m.reason])}</p>`,
    m.link
      ? `<p><a href="${escapeHtml(m.link)}">Confirm my email address</a> (the link works for ${VERIFICATION_LINK_HOURS} hours, once)</p>`
      : `<p>${escapeHtml(how[0] ?? '')}</p>`,
    '<p>If you did not ask for this, you can ignore this email.</p>',
  ].join('\n');
  return { to: m.to, subject: 'Billfold: confirm your email address', text, html } satisfies MailMessage;
}

/**
 * Sent to an account's verified address when someone signs up with it: sign-up answers as if it worked, so the
 * address's owner is the one told (docs/decisions/1131-verified-addresses.md).
 */
export function addressTakenMail(m: { to: string; username: string; appUrl: string }): MailMessage {
  const text = [
    `Hello ${m.username},`,
    '',
    'Someone just tried to create a new Billfold account with this email address. It already belongs to your',
    `account, "${m.username}", so no new account was made.`,
    '',
    `If it was you, sign in instead: ${m.appUrl}/`,
    'If it was not you, you need not do anything.',
  ].join('\n');
  const html = [
    `<p>Hello ${escapeHtml(m.username)},</p>`,
    `<p>Someone just tried to create a new Billfold account with this email address. It already belongs to your account, “${escapeHtml(m.username)}”, so no new account was made.</p>`,
    `<p>If it was you, <a href="${escapeHtml(m.appUrl)}/">sign in</a> instead. If it was not you, you need not do anything.</p>`,
  ].join('\n');
  return { to: m.to, subject: 'Billfold: someone tried to sign up with your address', text, html };
}
