import { escapeHtml } from '../../lib/html.ts';
import type { MailMessage } from '../../lib/mailer.ts';

/**
 * Sent to an account's verified address when someone tries to make a new account with it through the identity
 * provider: the callback answers as any failed provider sign-in does and never names the address, so the
 * address's owner is the one told, with the way to link the provider (docs/decisions/0722-openid-connect-sign-in.md).
 * Without password sign-in (`PASSWORD_LOGIN=false`) the owner cannot sign in to link, so the mail says to ask the
 * server's admin instead.
 */
export function providerSignUpMail(m: {
  to: string;
  username: string;
  provider: string;
  appUrl: string;
  passwordLogin: boolean;
}): MailMessage {
  const how = m.passwordLogin
    ? [
        `If it was you: sign in with your password at ${m.appUrl}/ , then choose "Link ${m.provider}" on the Account`,
        `page (${m.appUrl}/account). From then on "Sign in with ${m.provider}" opens this account.`,
      ]
    : [`If it was you: ask the server's admin to link your ${m.provider} account to this one.`];
  const text = [
    `Hello ${m.username},`,
    '',
    `Someone just tried to create a new Billfold account through ${m.provider} with this email address. It`,
    `already belongs to your account, "${m.username}", so no new account was made.`,
    '',
    ...how,
    `If it was not you, you need not do anything here; a ${m.provider} account other than yours may be using your`,
    'address, which the admin of that provider can look into.',
  ].join('\n');
  const htmlHow = m.passwordLogin
    ? `<p>If it was you: <a href="${escapeHtml(m.appUrl)}/">sign in with your password</a>, then choose “Link ${escapeHtml(m.provider)}” on the <a href="${escapeHtml(m.appUrl)}/account">Account page</a>. From then on “Sign in with ${escapeHtml(m.provider)}” opens this account.</p>`
    : `<p>If it was you: ask the server’s admin to link your ${escapeHtml(m.provider)} account to this one.</p>`;
  const html = [
    `<p>Hello ${escapeHtml(m.username)},</p>`,
    `<p>Someone just tried to create a new Billfold account through ${escapeHtml(m.provider)} with this email address. It already belongs to your account, “${escapeHtml(m.username)}”, so no new account was made.</p>`,
    htmlHow,
    `<p>If it was not you, you need not do anything here; a ${escapeHtml(m.provider)} account other than yours may be using your address, which the admin of that provider can look into.</p>`,
  ].join('\n');
  return {
    to: m.to,
    subject: `Billfold: someone tried to sign up with your address through ${m.provider}`,
    text,
    html,
  };
}
