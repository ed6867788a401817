import type { FastifyInstance } from 'fastify';

export const API_PREFIX = '/api/v1';

/** `METHOD /path` of every route, read from Fastify's own route tree (`printRoutes`), HEAD included. */
export function registeredRoutes(app: FastifyInstance): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const start = line.search(/[^\s│├└─]/u);
    if (start < 0) continue;
    const depth = Math.round(start / 4) - 1;
    const match = /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line.slice(start));
    if (!match?.[1]) continue;
    stack.length = depth;
    const path = `${stack[depth - 1] ?? ''}${match[1]}`;
    stack[depth] = path;
    for (const method of match[2]?.split(', ') ?? []) routes.push(`${method} ${path}`);
  }
  return routes;
}

/** The `/api/v1` routes, HEAD included (Fastify answers HEAD for every GET). */
export function apiRoutes(app: FastifyInstance): string[] {
  return registeredRoutes(app).filter((route) => route.split(' ')[1]?.startsWith(`${API_PREFIX}/`));
}

/** `METHOD /path` of every operation in the app's OpenAPI document, with `{id}` written `:id` as Fastify does. */
export function documentedRoutes(app: FastifyInstance): string[] {
  return Object.entries((app.swagger() as { paths: Record<string, object> }).paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
  );
}
