/** Durations (docs/product.md, Timings and limits), in milliseconds. */
export const NOTICE_MS = {
  /** `You have been logged out` and `Account created! Please log in.` */
  signInFlag: 2000,
  /** `Your session has ended. Please log in again.`: unexpected, so it stays long enough to read. */
  sessionEnded: 5000,
  loginError: 3000,
  /** Alerts and snackbars in general (top centre for 2 s; docs/product.md, Messages). */
  default: 2000,
  account: 3000,
  recycle: 4000,
} as const;

/** Delay before navigating away after a successful save. */
export const REDIRECT_DELAY_MS = 1200;
/** Delay between account deactivation and logout. */
export const DEACTIVATION_LOGOUT_MS = 1500;
/** Filter inputs wait this long before querying. */
export const FILTER_DEBOUNCE_MS = 500;
