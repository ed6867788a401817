import { email as emailSchema, type LoginResponse } from '@billfold/contract/auth';
import { toApiTimestamp } from '@billfold/contract/dates';
import type { ErrorCode } from '@billfold/contract/error-codes';
import type { OidcFailure, OidcLink, SignInMethods } from '@billfold/contract/oidc';
import { USERNAME_PATTERN } from '@billfold/contract/validation';
import * as client from 'openid-client';
import type { OidcConfig } from '../../config.ts';
import type { UserRow } from '../../db/schema.ts';
import { conflict, HttpError, notFound, unauthorized } from '../../lib/http-error.ts';
import type { Outbox } from '../../lib/outbox.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { MINUTE } from '../../lib/time.ts';
import { newOpaqueToken, sha256 } from '../../lib/tokens.ts';
import type { AuthRepository } from './auth.repository.ts';
import type { AuthService } from './auth.service.ts';
import { OIDC_STATE_TTL, type OidcState, OidcStateSealer } from './oidc-state.ts';
import { providerSignUpMail } from './provider-notice-mail.ts';
import { checkCurrentPassword, providerNoticeKey, reserveAttempt } from './throttle.ts';

/** How long the one-time ticket of a provider sign-in stays good: the web app exchanges it at once. */
export const SIGN_IN_TICKET_TTL = MINUTE;

export interface OidcOptions {
  config: OidcConfig | null;
  passwordLogin: boolean;
  /** Password links can be mailed (modules/password-reset): the sign-in page offers "Forgot your password?". */
  passwordReset: boolean;
  /** Key text for the state cookie's signature (the JWT secret). */
  secret: string;
  /** Mail in the background (`lib/outbox.ts`): the notice to an address's owner after a refused sign-up. */
  outbox: Outbox;
  now: () => number;
}

/** The claims a sign-in reads: the ID token's, with the UserInfo endpoint's added. */
interface ProviderClaims {
  sub: string;
  email?: unknown;
  email_verified?: unknown;
  preferred_username?: unknown;
  name?: unknown;
}

/**
 * The provider's address as this app would take it at sign-up or an email change (trimmed, at most 254 characters,
 * a valid address, the name rules of docs/decisions/0102-text-characters.md); null when there is none or the rule
 * refuses it: a provider's claim is stored nowhere the contract's email schema would not store it.
 */
function addressOf(claims: ProviderClaims): string | null {
  const parsed = emailSchema.safeParse(claims.email);
  return parsed.success ? parsed.data : null;
}

/** A provider sign-in that cannot end signed in: its code goes to the web app in the address. */
class OidcRefusal extends Error {
  constructor(readonly code: OidcFailure) {
    super(code);
  }
}

const notConfigured = () => new HttpError(404, 'No identity provider is configured.', {}, 'OIDC_NOT_CONFIGURED');

/**
 * Sign-in with an OpenID Connect provider, authorization code flow with PKCE, through `openid-client`
 * (docs/decisions/0722-openid-connect-sign-in.md): the login page's choices, the way out to the provider and back,
 * the one-time ticket the web app exchanges for its usual tokens, and linking an account to the provider.
 */
export class OidcService {
  private discovered: Promise<client.Configuration> | null = null;
  private readonly sealer: OidcStateSealer;

  constructor(
    private readonly repo: AuthRepository,
    private readonly auth: AuthService,
    private readonly options: OidcOptions,
  ) {
    this.sealer = new OidcStateSealer(options.secret);
  }

  private get provider(): OidcConfig {
    if (!this.options.config) throw notConfigured();
    return this.options.config;
  }

  /** Whether the state cookie must be `Secure`: when the app is served over https. */
  get secureCookie(): boolean {
    return this.options.config?.appUrl.startsWith('https:') ?? false;
  }

  methods(): SignInMethods {
    const config = this.options.config;
    return {
      password: this.options.passwordLogin,
      oidc: config ? { name: config.name, signup: config.signup } : null,
      passwordReset: this.options.passwordReset,
    };
  }

  /** The provider's discovery document, read once; a failed read is tried again by the next sign-in. */
  private configuration(): Promise<client.Configuration> {
    const provider = this.provider;
    if (!this.discovered) {
      const insecure = new URL(provider.issuer).protocol === 'http:';
      this.discovered = client
        .discovery(
          new URL(provider.issuer),
          provider.clientId,
          undefined,
          client.ClientSecretBasic(provider.clientSecret),
          // http is allowed only for an issuer on this machine (config.ts, issuerProblem).
          insecure ? { execute: [client.allowInsecureRequests] } : undefined,
        )
        .catch((error: unknown) => {
          this.discovered = null;
          throw error;
        });
    }
    return this.discovered;
  }

  /** Where the browser goes to sign in at the provider, and the cookie that remembers this sign-in. */
  async start(intent: { login: true } | { linkUserId: number }): Promise<{ url: string; cookie: string }> {
    const provider = this.provider;
    const configuration = await this.configuration();
    const state: OidcState = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
      intent: 'login' in intent ? 'login' : 'link',
      ...('linkUserId' in intent ? { userId: intent.linkUserId } : {}),
      expiresAt: this.options.now() + OIDC_STATE_TTL,
    };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: provider.redirectUri,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(state.verifier),
      code_challenge_method: 'S256',
      state: state.state,
      nonce: state.nonce,
    });
    return { url: url.href, cookie: this.sealer.cookie(state, this.secureCookie) };
  }

  /** The cookie header that forgets a sign-in in progress. */
  clearCookie(): string {
    return this.sealer.cookie(null, this.secureCookie);
  }

  /**
   * The provider sent the browser back: check its answer against the state cookie, then sign in or link. Always
   * answers where the browser goes next in the web app: the login page with a one-time ticket or an error code,
   * or the Account page after a link.
   */
  async callback(callbackUrl: URL, cookie: string | undefined): Promise<string> {
    const provider = this.provider;
    const state = this.sealer.open(cookie, this.options.now());
    const loginPage = (fragment: string) => `${provider.appUrl}/login/oidc#${fragment}`;
    const accountPage = (fragment: string) => `${provider.appUrl}/account#${fragment}`;
    if (!state) return loginPage('error=OIDC_FAILED');
    const back = state.intent === 'link' ? accountPage : loginPage;
    try {
      const claims = await this.claimsOf(callbackUrl, state);
      if (state.intent === 'link') {
        await this.link(state.userId ?? 0, claims);
        return accountPage('oidc=linked');
      }
      const user = await this.accountFor(claims);
      const ticket = newOpaqueToken();
      await this.repo.insertSignInTicket({
        user_id: user.id,
        token_hash: sha256(ticket),
        expires_at: this.options.now() + SIGN_IN_TICKET_TTL,
      });
      return loginPage(`ticket=${ticket}`);
    } catch (error) {
      const code: OidcFailure = error instanceof OidcRefusal ? error.code : 'OIDC_FAILED';
      return back(state.intent === 'link' ? `oidc=${code}` : `error=${code}`);
    }
  }

  /** The code exchanged (with the PKCE verifier), the ID token checked (issuer, audience, nonce), UserInfo added. */
  private async claimsOf(callbackUrl: URL, state: OidcState): Promise<ProviderClaims> {
    const configuration = await this.configuration();
    // The callback address as registered at the provider, with the query the provider sent.
    const current = new URL(this.provider.redirectUri);
    current.search = callbackUrl.search;
    const tokens = await client.authorizationCodeGrant(configuration, current, {
      pkceCodeVerifier: state.verifier,
      expectedState: state.state,
      expectedNonce: state.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims?.sub) throw new OidcRefusal('OIDC_FAILED');
    let info: client.UserInfoResponse | null = null;
    if (configuration.serverMetadata().userinfo_endpoint) {
      info = await client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
    }
    return { ...info, ...idClaims, sub: idClaims.sub } as ProviderClaims;
  }

  /**
   * The account of a provider sign-in: the linked one; else, only when the admin allows it and the provider
   * marks the address verified, the account of that address (then linked); else a new account when sign-up
   * through the provider is on. An unverified address never reaches an account: anyone can type any address
   * into some providers, and matching it would hand them the account (docs/security.md). A sign-up with an
   * address that has an account ends as `OIDC_FAILED`, never with a code that names the address.
   */
  private async accountFor(claims: ProviderClaims): Promise<UserRow> {
    const { issuer, matchEmail, signup } = this.provider;
    const now = this.options.now();
    const identity = await this.repo.findIdentity(issuer, claims.sub);
    if (identity) {
      const user = await this.repo.findUserById(identity.user_id);
      if (!user) throw new OidcRefusal('OIDC_NOT_LINKED');
      await this.repo.touchIdentity(identity.id, now);
      return user;
    }
    const email = addressOf(claims);
    const verified = claims.email_verified === true;
    if (matchEmail && verified && email) {
      const user = await this.repo.findUserByEmail(email.toLowerCase());
      if (user) {
        if (await this.repo.findIdentityOfUser(user.id, issuer)) throw new OidcRefusal('OIDC_ALREADY_LINKED');
        await this.insertIdentity(user.id, claims.sub, email, now);
        return user;
      }
    }
    if (!signup) throw new OidcRefusal('OIDC_NOT_LINKED');
    return this.signUp(claims, email, verified, now);
  }

  /** A new account for a provider sign-in: no password of its own, its address verified if the provider says so. */
  private async signUp(claims: ProviderClaims, email: string | null, verified: boolean, now: number): Promise<UserRow> {
    // An account needs an address; one the rule refuses is never stored (docs/decisions/0722-openid-connect-sign-in.md).
    if (!email) throw new OidcRefusal(typeof claims.email === 'string' ? 'OIDC_EMAIL_INVALID' : 'OIDC_FAILED');
    const emailKey = email.toLowerCase();
    const owner = await this.repo.findUserByEmail(emailKey);
    if (owner) {
      // Answered as any provider sign-in that did not complete: naming the address would tell whoever holds this
      // provider account that a Billfold account has it. Its owner is told instead, with the way to link.
      await this.tellOwner(owner, now);
      throw new OidcRefusal('OIDC_FAILED');
    }
    const username = await this.freeUsername(claims, email);
    // A password nobody knows: the account signs in through the provider only (`has_password` 0).
    const passwordHash = await hashPassword(newOpaqueToken());
    return this.repo.transaction(async (repo) => {
      const user = await repo.insertUser({
        username,
        username_key: username.toLowerCase(),
        email,
        email_key: emailKey,
        password_hash: passwordHash,
        has_password: 0,
        email_verified_at: verified ? now : null,
        created_at: now,
      });
      await repo.insertIdentity({
        user_id: user.id,
        issuer: this.provider.issuer,
        subject: claims.sub,
        email,
        linked_at: now,
        last_used_at: now,
      });
      return user;
    });
  }

  /**
   * Mails the owner of an address a refused sign-up used, if that address is verified here (notifications go to
   * verified addresses only, docs/decisions/1131-verified-addresses.md), a few times per 15 minutes at most.
   */
  private async tellOwner(owner: UserRow, now: number): Promise<void> {
    const { outbox, passwordLogin } = this.options;
    if (!outbox.configured || owner.email_verified_at === null) return;
    try {
      await reserveAttempt(this.repo, [providerNoticeKey(owner.email_key)], now, 'Too many notices.');
    } catch (error) {
      // Over the limit: the owner has been told already, and the answer stays the same.
      if (error instanceof HttpError) return;
      throw error;
    }
    const { name, appUrl } = this.provider;
    outbox.post(
      providerSignUpMail({ to: owner.email, username: owner.username, provider: name, appUrl, passwordLogin }),
      'provider sign-up notice',
    );
  }

  /** The provider's username (or the address's local part), cut to the username rule, numbered when taken. */
  private async freeUsername(claims: ProviderClaims, email: string): Promise<string> {
    const wanted = typeof claims.preferred_username === 'string' ? claims.preferred_username : email.split('@')[0];
    let base = (wanted ?? '').replace(/[^A-Za-z0-9._-]/g, '').slice(0, 40);
    if (base.length < 3) base = `user${base}`;
    const candidates = [base, ...Array.from({ length: 8 }, (_, i) => `${base}-${i + 2}`)];
    for (const name of candidates) {
      if (USERNAME_PATTERN.test(name) && !(await this.repo.usernameTaken(name.toLowerCase()))) return name;
    }
    return `${base}-${newOpaqueToken()
      .slice(0, 6)
      .replace(/[^A-Za-z0-9]/g, 'x')}`;
  }

  private async insertIdentity(userId: number, subject: string, email: string | null, now: number) {
    try {
      await this.repo.insertIdentity({
        user_id: userId,
        issuer: this.provider.issuer,
        subject,
        email,
        linked_at: now,
        last_used_at: now,
      });
    } catch {
      // A unique constraint: the provider account, or this account, was linked meanwhile.
      throw new OidcRefusal('OIDC_ALREADY_LINKED');
    }
  }

  private async link(userId: number, claims: ProviderClaims): Promise<void> {
    const user = await this.repo.findUserById(userId);
    if (!user || user.deactivated_at !== null) throw new OidcRefusal('ACCOUNT_DEACTIVATED');
    const existing = await this.repo.findIdentity(this.provider.issuer, claims.sub);
    if (existing) {
      if (existing.user_id === userId) return;
      throw new OidcRefusal('OIDC_ALREADY_LINKED');
    }
    if (await this.repo.findIdentityOfUser(userId, this.provider.issuer)) throw new OidcRefusal('OIDC_ALREADY_LINKED');
    await this.insertIdentity(userId, claims.sub, addressOf(claims), this.options.now());
  }

  /** The web app's half: the one-time ticket from the callback, for the usual tokens (or MFA's code step). */
  async exchange(ticket: string): Promise<LoginResponse> {
    const userId = await this.repo.spendSignInTicket(sha256(ticket), this.options.now());
    const user = userId === null ? undefined : await this.repo.findUserById(userId);
    if (!user)
      throw unauthorized('Unauthorized: this sign-in link expired or was used already', 'SIGN_IN_TICKET_INVALID');
    return this.auth.completeProviderLogin(user);
  }

  // ---- the Account page ----

  async linkStatus(userId: number): Promise<OidcLink> {
    const user = await this.repo.findUserById(userId);
    if (!user) throw unauthorized('Unauthorized: account not active');
    const config = this.options.config;
    const identity = config ? await this.repo.findIdentityOfUser(userId, config.issuer) : undefined;
    return {
      provider: config?.name ?? null,
      linked: identity !== undefined,
      linkedAt: identity ? toApiTimestamp(new Date(Number(identity.linked_at))) : null,
      email: identity?.email ?? null,
      canUnlink: this.canSignInByPassword(user),
    };
  }

  private canSignInByPassword(user: UserRow): boolean {
    return this.options.passwordLogin && user.has_password === 1;
  }

  /** Linking starts with the current password: a stolen session alone must not add a way in. */
  async startLink(userId: number, password: string, ip: string): Promise<{ url: string; cookie: string }> {
    const provider = this.provider;
    const user = await this.repo.findUserById(userId);
    if (!user) throw unauthorized('Unauthorized: account not active');
    await checkCurrentPassword(this.repo, user, password, ip, this.options.now());
    if (await this.repo.findIdentityOfUser(userId, provider.issuer))
      throw conflict(`This account is already linked to ${provider.name}.`, 'OIDC_ALREADY_LINKED');
    return this.start({ linkUserId: userId });
  }

  /** Unlinking needs the current password, and is refused while it would leave no way to sign in. */
  async unlink(userId: number, password: string, ip: string): Promise<OidcLink> {
    const provider = this.provider;
    const user = await this.repo.findUserById(userId);
    if (!user) throw unauthorized('Unauthorized: account not active');
    if (!(await this.repo.findIdentityOfUser(userId, provider.issuer)))
      throw notFound(`This account is not linked to ${provider.name}.`);
    if (!this.canSignInByPassword(user)) {
      const why: ErrorCode = 'OIDC_LAST_SIGN_IN';
      throw conflict(
        user.has_password === 1
          ? 'Password sign-in is turned off on this server, so this link is your only way to sign in.'
          : `This account has no password, so ${provider.name} is your only way to sign in.`,
        why,
      );
    }
    await checkCurrentPassword(this.repo, user, password, ip, this.options.now());
    await this.repo.deleteIdentity(userId, provider.issuer);
    return this.linkStatus(userId);
  }
}
