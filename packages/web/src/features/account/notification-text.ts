import type { ChannelKind, DeliveryStatus, NotificationEvent } from '@billfold/contract/notifications';

export const KIND_LABELS: Record<ChannelKind, string> = {
  email: 'Email',
  webhook: 'Webhook',
  ntfy: 'ntfy',
  gotify: 'Gotify',
  webpush: 'This browser (push)',
};

export const EVENT_LABELS: Record<NotificationEvent, string> = {
  due_soon: 'Invoice due soon',
  overdue: 'Invoice overdue',
  schedule_invoice: 'A schedule created an invoice',
  autopay: 'An automatic payment was recorded',
  import_finished: 'An import finished',
  member_joined: 'Someone joined a ledger',
  price_increase: 'A recurring bill went up',
  digest: 'Daily reminder digest',
};

export const STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: 'Pending',
  sent: 'Sent',
  failed: 'Failed, will retry',
  gave_up: 'Gave up',
};

/** `Invoice due soon (3 days), Invoice overdue`, or `No events`. */
export function eventsSummary(events: NotificationEvent[], daysAhead: number): string {
  if (events.length === 0) return 'No events chosen';
  return events
    .map((e) =>
      e === 'due_soon' || e === 'digest'
        ? `${EVENT_LABELS[e]} (${daysAhead} ${daysAhead === 1 ? 'day' : 'days'})`
        : EVENT_LABELS[e],
    )
    .join(', ');
}
