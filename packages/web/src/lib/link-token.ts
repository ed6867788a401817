/**
 * Links mailed or handed out carry their single-use token after `#` (it reaches no server log): a password link,
 * an address's verification link, an identity provider's return. A page reads it during render without changing
 * anything (React may render a page more than once before it shows it, and each render must read the same token),
 * then takes it out of the address bar and the history once the page is shown (`forgetLinkToken`, in an effect).
 */
export function linkToken(): string {
  return window.location.hash.replace(/^#/, '');
}

/** Takes the token out of the address bar and the history: a reload or a shared screen does not show it. */
export function forgetLinkToken(): void {
  if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname);
}
