import { MAX_CHANNELS } from '@billfold/contract/notifications';
import { conflict } from '../../lib/http-error.ts';

/** The refusal of a channel past the account's `MAX_CHANNELS` (a new channel, or reminders turned on). */
export const tooManyChannels = () =>
  conflict(`An account may have at most ${MAX_CHANNELS} notification channels.`, 'TOO_MANY_CHANNELS');
