/**
 * A real OpenID Connect provider (`oidc-provider`) on 127.0.0.1 for the sign-in tests, and a browser that walks its
 * pages with `fetch` (manual redirects, a cookie jar) the way a person's browser does. Its login and consent pages
 * are answered by `interactionFinished` as whoever `signInAs` named: the provider's own code issues the code, the
 * ID token and UserInfo, and checks PKCE and the client secret.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface ProviderAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
  name?: string;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who signs in at the provider's login page from now on; `refuse` answers access_denied instead. */
  signInAs(account: ProviderAccount | 'refuse'): void;
  close(): Promise<void>;
}

export const OIDC_CLIENT_ID = 'billfold-test';
export const OIDC_CLIENT_SECRET = 'billfold-test-client-secret-0123456789';

export async function startProvider(redirectUri: string): Promise<TestProvider> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, ProviderAccount>();
  let next: ProviderAccount | 'refuse' = 'refuse';

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT_ID,
        client_secret: OIDC_CLIENT_SECRET,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    findAccount: async (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      return account ? { accountId: sub, claims: async () => ({ ...account }) } : undefined;
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
    pkce: { required: () => true },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['billfold-test-provider-cookie-key'] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, AuthorizationCode: 60, IdToken: 600 },
  } as ConstructorParameters<typeof Provider>[1]);
  const callback = provider.callback();

  const interaction = async (req: IncomingMessage, res: ServerResponse) => {
    const details = await provider.interactionDetails(req, res);
    let result: Record<string, unknown>;
    if (next === 'refuse') {
      result = { error: 'access_denied', error_description: 'The person declined.' };
    } else if (details.prompt.name === 'login') {
      accounts.set(next.sub, next);
      result = { login: { accountId: next.sub } };
    } else {
      const grant = new provider.Grant({
        accountId: String(details.session?.accountId),
        clientId: String(details.params.client_id),
      });
      grant.addOIDCScope('openid email profile');
      result = { consent: { grantId: await grant.save() } };
    }
    await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  };

  server.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interaction(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    callback(req, res);
  });

  return {
    issuer,
    clientId: OIDC_CLIENT_ID,
    clientSecret: OIDC_CLIENT_SECRET,
    signInAs: (account) => {
      next = account;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A person's browser at the provider: from the authorization address, follows every redirect with `fetch`
 * (manual redirects, the provider's cookies kept) until the provider sends it to `returnTo`; answers that address.
 */
export async function signInAtProvider(authorizationUrl: string, returnTo: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 20; hop++) {
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const [name = '', ...value] = pair.split('=');
      if (/expires=Thu, 01 Jan 1970/i.test(cookie)) jar.delete(name);
      else jar.set(name, value.join('='));
    }
    const location = response.headers.get('location');
    await response.arrayBuffer();
    if (!location) throw new Error(`the provider answered ${response.status} at ${url} without a redirect`);
    const target = new URL(location, url);
    if (target.href.startsWith(returnTo)) return target;
    url = target.href;
  }
  throw new Error('the provider redirected more than 20 times');
}
