import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { markBuildInUse } from '../lib/build-dir.ts';
import { send } from './errors.ts';

/** A path that names a file (`/assets/x.js`, `/robots.txt`): when missing it is a 404, never the app's HTML. */
const FILE_LIKE = /^\/assets\/|\/[^/]*\.[A-Za-z0-9]{1,8}$/;

/**
 * Serves the built web app. Hashed assets are cached for a year; `index.html` is always revalidated.
 * Returns the fallback that answers deep links such as `/entries/5` with the app, or `null` when there is
 * no build to serve. `webRoot` is resolved once, here: `packages/web/dist` is a link that a build switches to a new
 * directory (scripts/build.mjs), and this process keeps serving the build it started with until its next start
 * (docs/decisions/0904-compiled-start.md); that build is marked in use so no later build removes it meanwhile.
 */
export async function registerWebApp(
  app: FastifyInstance,
  webRoot: string | null,
): Promise<((request: FastifyRequest, reply: FastifyReply) => FastifyReply) | null> {
  if (!webRoot || !existsSync(join(webRoot, 'index.html'))) return null;
  const root = realpathSync(webRoot);
  markBuildInUse(root);
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    setHeaders(reply, path) {
      reply.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const sendApp = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    // A stale page asking for a chunk of an older release must see a failed load, not HTML parsed as script.
    if (FILE_LIKE.test(path)) return reply.code(404).send(send(404, `File ${path} not found`));
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html');
  };
  app.get('/', { schema: { hide: true } }, sendApp);
  return sendApp;
}
