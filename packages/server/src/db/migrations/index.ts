import type { Migration } from 'kysely';
import * as initial from './2026-11-22T00-00_initial.ts';
import * as rollups from './2026-11-23T00-00_rollups.ts';
import * as categorySorts from './2026-11-24T00-00_category_sorts.ts';
import * as dataVersions from './2026-11-25T00-00_data_versions.ts';
import * as sessions from './2026-11-26T13-00_sessions.ts';
import * as mfa from './2026-11-27T00-00_mfa.ts';
import * as partialPayState from './2026-11-27T04-04_partial_pay_state.ts';
import * as imports from './2026-11-28T00-00_imports.ts';
import * as dueDates from './2026-11-29T00-00_due_dates.ts';
import * as schedules from './2026-11-29T01-00_schedules.ts';
import * as entryChanges from './2026-11-29T02-00_entry_changes.ts';
import * as calendarFeedsAndReminders from './2026-11-29T03-00_calendar_feeds_and_reminders.ts';
import * as categories from './2026-11-30T00-00_categories.ts';
import * as verifiedAddresses from './2026-11-30T00-00_verified_addresses.ts';
import * as billNextDue from './2026-11-30T01-00_bill_next_due.ts';
import * as ledgers from './2026-12-01T00-00_ledgers.ts';
import * as ledgerData from './2026-12-02T00-00_ledger_data.ts';
import * as identityAndTokens from './2026-12-03T01-00_identity_and_tokens.ts';
import * as passwordResets from './2026-12-04T08-00_password_resets.ts';
import * as attachments from './2026-12-05T00-00_attachments.ts';
import * as notifications from './2026-12-05T01-00_notifications.ts';
import * as moneyOverTime from './2026-12-05T02-00_money_over_time.ts';
import * as estimates from './2026-12-06T00-00_estimates.ts';
import * as reminderDigestChannel from './2026-12-06T03-00_reminder_digest_channel.ts';
import * as billReadings from './2026-12-07T04-30_bill_readings.ts';
import * as ledgerImports from './2026-12-08T00-00_ledger_imports.ts';
import * as ledgerIndexFiles from './2026-12-09T00-00_ledger_index_files.ts';
import * as ledgerIdOrder from './2026-12-10T00-00_ledger_id_order.ts';
import * as entityVersions from './2026-12-11T00-00_entity_versions.ts';

/** Every migration, by name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '2026-11-22T00-00_initial': initial,
  '2026-11-23T00-00_rollups': rollups,
  '2026-11-24T00-00_category_sorts': categorySorts,
  '2026-11-25T00-00_data_versions': dataVersions,
  '2026-11-26T13-00_sessions': sessions,
  '2026-11-27T00-00_mfa': mfa,
  '2026-11-27T04-04_partial_pay_state': partialPayState,
  '2026-11-28T00-00_imports': imports,
  '2026-11-29T00-00_due_dates': dueDates,
  '2026-11-29T01-00_schedules': schedules,
  '2026-11-29T02-00_entry_changes': entryChanges,
  '2026-11-29T03-00_calendar_feeds_and_reminders': calendarFeedsAndReminders,
  '2026-11-30T00-00_verified_addresses': verifiedAddresses,
  '2026-11-30T01-00_bill_next_due': billNextDue,
  '2026-11-30T00-00_categories': categories,
  '2026-12-01T00-00_ledgers': ledgers,
  '2026-12-02T00-00_ledger_data': ledgerData,
  '2026-12-03T01-00_identity_and_tokens': identityAndTokens,
  '2026-12-04T08-00_password_resets': passwordResets,
  '2026-12-05T00-00_attachments': attachments,
  '2026-12-05T01-00_notifications': notifications,
  '2026-12-05T02-00_money_over_time': moneyOverTime,
  '2026-12-06T00-00_estimates': estimates,
  '2026-12-06T03-00_reminder_digest_channel': reminderDigestChannel,
  '2026-12-07T04-30_bill_readings': billReadings,
  '2026-12-08T00-00_ledger_imports': ledgerImports,
  '2026-12-09T00-00_ledger_index_files': ledgerIndexFiles,
  '2026-12-10T00-00_ledger_id_order': ledgerIdOrder,
  '2026-12-11T00-00_entity_versions': entityVersions,
};
