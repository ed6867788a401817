import type { DueGroup } from '@billfold/contract/due';
import type { Entry } from '@billfold/contract/entries';
import { formatUsd } from '@billfold/contract/money';
import { escapeHtml } from '../../lib/html.ts';
import type { MailMessage } from '../../lib/mailer.ts';

/** An invoice of a digest, with its ledger's name when the user is a member of more than one ledger. */
export type DigestEntry = Entry & { ledger?: string };

export interface DigestGroup extends Omit<DueGroup, 'scheduled' | 'entries'> {
  title: string;
  entries: DigestEntry[];
}

export interface Digest {
  username: string;
  overdue: DigestGroup;
  upcoming: DigestGroup;
  /** The app's address for links, when the server knows it (`PUBLIC_URL`). */
  appUrl: string | null;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function owed(g: DigestGroup): string {
  const parts = [];
  if (g.toPay > 0) parts.push(`${formatUsd(g.toPay)} to pay`);
  if (g.toCollect > 0) parts.push(`${formatUsd(g.toCollect)} to collect`);
  return parts.join(', ');
}

function line(e: DigestEntry): string {
  const side = e.flow === 'INCOMING' ? 'to collect' : 'to pay';
  const where = e.ledger === undefined ? '' : ` (${e.ledger})`;
  return `#${e.invoiceId} ${e.name}${where}: ${formatUsd(e.balance.totalBalance)} ${side}, due ${e.dueDate}`;
}

/**
 * The daily digest's subject, plain text and HTML: each group's count, what is owed, and its first invoices. It
 * goes to the email channel's address when sent (modules/notifications/deliver.ts).
 */
export function digestMail(d: Digest): Omit<MailMessage, 'to'> {
  const groups = [d.overdue, d.upcoming].filter((g) => g.count > 0);
  const subject = `Billfold: ${groups.map((g) => `${plural(g.count, 'invoice')} ${g.title.toLowerCase()}`).join(', ')}`;
  const link = (e: Entry) => (d.appUrl ? `${d.appUrl}/entries/${e.entryId}` : null);
  const text = [
    `Hello ${d.username},`,
    '',
    ...groups.flatMap((g) => [
      `${g.title}: ${plural(g.count, 'invoice')} (${owed(g)})`,
      ...g.entries.map((e) => `  ${line(e)}${link(e) ? `\n    ${link(e)}` : ''}`),
      ...(g.count > g.entries.length ? [`  and ${g.count - g.entries.length} more`] : []),
      '',
    ]),
    ...(d.appUrl ? [`Open Billfold: ${d.appUrl}/home`, ''] : []),
    'You get this email because reminders are on in your Billfold account. Turn them off on the Account page.',
  ].join('\n');
  const html = [
    `<p>Hello ${escapeHtml(d.username)},</p>`,
    ...groups.map(
      (g) =>
        `<h3>${escapeHtml(g.title)}: ${plural(g.count, 'invoice')} (${escapeHtml(owed(g))})</h3><ul>${g.entries
          .map((e) => {
            const href = link(e);
            const text = escapeHtml(line(e));
            return `<li>${href ? `<a href="${escapeHtml(href)}">${text}</a>` : text}</li>`;
          })
          .join('')}${g.count > g.entries.length ? `<li>and ${g.count - g.entries.length} more</li>` : ''}</ul>`,
    ),
    ...(d.appUrl ? [`<p><a href="${escapeHtml(`${d.appUrl}/home`)}">Open Billfold</a></p>`] : []),
    '<p>You get this email because reminders are on in your Billfold account. Turn them off on the Account page.</p>',
  ].join('\n');
  return { subject, text, html };
}
