import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Serves the built web app. Hashed assets are cached for a year; `index.html` is always revalidated.
 * Returns the fallback that answers deep links such as `/entries/5` with the app, or `null` when there is
 * no build to serve.
 */
export async function registerWebApp(
  app: FastifyInstance,
  webRoot: string | null,
): Promise<((request: FastifyRequest, reply: FastifyReply) => FastifyReply) | null> {
  if (!webRoot || !existsSync(join(webRoot, 'index.html'))) return null;
  await app.register(fastifyStatic, {
    root: webRoot,
    wildcard: false,
    index: false,
    setHeaders(reply, path) {
      reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const sendApp = (_request: FastifyRequest, reply: FastifyReply) =>
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
  app.get('/', { schema: { hide: true } }, sendApp);
  return sendApp;
}
