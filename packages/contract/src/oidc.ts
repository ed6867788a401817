/**
 * Sign-in with an OpenID Connect provider (docs/decisions/0722-openid-connect-sign-in.md): what the login page
 * offers, the one-time ticket the provider's callback ends in, and linking an account to the provider.
 */
import { z } from 'zod';
import { password } from './auth.ts';
import { timestamp } from './primitives.ts';

/** `GET /auth/methods`: which ways of signing in the server offers, for the login page. */
export const signInMethods = z.object({
  /** Username (or email) and password; false when the admin turned it off (`PASSWORD_LOGIN=false`). */
  password: z.boolean(),
  /** The OpenID provider, when one is configured. */
  oidc: z.object({ name: z.string(), signup: z.boolean() }).nullable(),
  /** A forgotten password can be replaced by a link sent by mail (docs/decisions/0723-password-reset.md). */
  passwordReset: z.boolean(),
});

/** `POST /auth/oidc/exchange`: the one-time ticket the callback put in the web app's address. */
export const oidcExchangeBody = z.object({ ticket: z.string().min(1).max(512) });

/** `GET /account/oidc`: the provider and whether this account is linked to it. */
export const oidcLink = z.object({
  /** The provider's name; null when none is configured. */
  provider: z.string().nullable(),
  linked: z.boolean(),
  linkedAt: timestamp.nullable(),
  /** The address the provider gave when the link was made. */
  email: z.string().nullable(),
  /** Whether the account can still sign in with a password after unlinking (it has one, and it is allowed). */
  canUnlink: z.boolean(),
});

/** `POST /account/oidc/link` (and `/unlink`): the current password confirms it. */
export const oidcLinkBody = z.object({ password });
/** Where the browser goes next to finish linking at the provider. */
export const oidcLinkStart = z.object({ url: z.string() });

/**
 * The codes the callback puts in the web app's address (`#error=…`) when the provider sign-in cannot end signed in.
 * None tells that an address has an account: a sign-up whose address is taken ends as `OIDC_FAILED`
 * (docs/decisions/0722-openid-connect-sign-in.md).
 */
export const OIDC_FAILURES = [
  'OIDC_FAILED',
  'OIDC_NOT_LINKED',
  'OIDC_ALREADY_LINKED',
  'OIDC_EMAIL_INVALID',
  'ACCOUNT_DEACTIVATED',
] as const;
export type OidcFailure = (typeof OIDC_FAILURES)[number];

export type SignInMethods = z.infer<typeof signInMethods>;
export type OidcLink = z.infer<typeof oidcLink>;
