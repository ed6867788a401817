/**
 * A real OpenID Connect provider (`oidc-provider`) on a loopback port for the browser tests of sign-in with an
 * identity provider. Its login and consent steps are answered at once as whoever `signInAs` named (the person at
 * the provider's own page, which is not ours to test); everything else, the redirects, cookies, code, PKCE check
 * and tokens, is the provider's own, and the browser walks it for real.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Provider from 'oidc-provider';

export interface ProviderPerson {
  sub: string;
  email: string;
  email_verified: boolean;
  preferred_username?: string;
}

export interface IdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  signInAs(person: ProviderPerson): void;
  close(): Promise<void>;
}

export async function startIdentityProvider(redirectUri: string, port: number): Promise<IdentityProvider> {
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'billfold-e2e';
  const clientSecret = 'billfold-e2e-client-secret-0123456789';
  const people = new Map<string, ProviderPerson>();
  let next: ProviderPerson | null = null;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    findAccount: async (_ctx: unknown, sub: string) => {
      const person = people.get(sub);
      return person ? { accountId: sub, claims: async () => ({ ...person }) } : undefined;
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['preferred_username'] },
    pkce: { required: () => true },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['billfold-e2e-provider-cookie-key'] },
  } as ConstructorParameters<typeof Provider>[1]);
  const callback = provider.callback();

  const interaction = async (req: IncomingMessage, res: ServerResponse) => {
    const details = await provider.interactionDetails(req, res);
    let result: Record<string, unknown>;
    if (!next) result = { error: 'access_denied' };
    else if (details.prompt.name === 'login') {
      people.set(next.sub, next);
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

  const server = createServer((req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      interaction(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
      return;
    }
    callback(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    issuer,
    clientId,
    clientSecret,
    signInAs: (person) => {
      next = person;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
