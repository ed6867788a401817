import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

const helmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      // MUI (emotion) injects style elements at run time.
      styleSrc: ["'self'", "'unsafe-inline'"],
      scriptSrc: ["'self'"],
      connectSrc: ["'self'"],
    },
  },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  crossOriginEmbedderPolicy: false,
} satisfies FastifyHelmetOptions;

/** Security headers on every response; API responses are never cached. */
export async function registerSecurity(app: FastifyInstance): Promise<void> {
  await app.register(helmet, helmetOptions);
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
  });
}

type HelmetMiddleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;
// helmet itself, as @fastify/helmet's own dependency: the same headers, set on a raw response.
const helmetFor = createRequire(import.meta.resolve('@fastify/helmet'))('helmet') as (
  options: typeof helmetOptions,
) => HelmetMiddleware;
const rawHelmet = helmetFor(helmetOptions);

/**
 * The same headers for the few replies Fastify sends without running any hook (a malformed or overlong URL,
 * answered from `frameworkErrors` before routing).
 */
export function setSecurityHeaders(req: IncomingMessage, res: ServerResponse): void {
  rawHelmet(req, res, () => {});
  res.setHeader('cache-control', 'no-store');
}
