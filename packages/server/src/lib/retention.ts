import { DAY, MINUTE } from './time.ts';

/**
 * How long the server keeps what it keeps: read by the module that keeps a row and by the job that removes it,
 * so a job never imports a module to learn how long it may wait (docs/decisions/1101-jobs-and-boundaries.md).
 */

/** Deleted items stay restorable this long (docs/product.md, Recycling and restoring); then the purge job removes them. */
export const RECYCLE_RETENTION = 14 * DAY;

/** A deactivated account is deleted with its data after this long. */
export const DEACTIVATED_ACCOUNT_RETENTION = 30 * DAY;

/** Failed attempts count against their key for this long (the throttle's window); older ones are purged. */
export const THROTTLE_WINDOW = 15 * MINUTE;
