import { calendarFeed, calendarFeedBody, calendarFileParams } from '@billfold/contract/due';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../plugins/openapi.ts';
import type { CalendarService } from './calendar.service.ts';

const security = [{ bearer: [] }];

/** Where the request was addressed, behind a trusted proxy as its client saw it (`TRUST_PROXY`). */
const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

export function calendarRoutes(app: FastifyInstance, service: CalendarService, publicUrl: string | null): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const origin = (request: FastifyRequest) => publicUrl ?? originOf(request);
  r.get(
    '/account/calendar-feed',
    {
      schema: {
        tags: ['calendar'],
        summary: 'Whether the private calendar feed is on, and since when',
        security,
        response: { 200: calendarFeed, ...errorResponses(401) },
      },
    },
    async (request) => service.status(request.userId),
  );
  r.put(
    '/account/calendar-feed',
    {
      schema: {
        tags: ['calendar'],
        summary: 'Turn the private calendar feed on with a new address (the old one stops working), or off',
        description:
          'Turning it on needs the current `password` (403 when wrong, 429 with `Retry-After` after too many wrong ones, counted with failed sign-ins). The answer to `enabled: true` carries `url`, the feed’s address. Only a hash of its token is stored, so it is shown this once. A password change or deactivation ends the feed.',
        security,
        body: calendarFeedBody,
        response: { 200: calendarFeed, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) =>
      service.set(
        { userId: request.userId, password: request.body.password, ip: request.ip },
        request.body.enabled,
        origin(request),
      ),
  );
}

/** The feed's file, authorised by the token in its address alone (the open route group). */
export function calendarFileRoutes(app: FastifyInstance, service: CalendarService, publicUrl: string | null): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const origin = (request: FastifyRequest) => publicUrl ?? originOf(request);
  r.get(
    '/calendar/:file',
    {
      schema: {
        tags: ['calendar'],
        summary: 'The private calendar feed (iCalendar): unpaid invoices with due dates as all-day events',
        description:
          'Authorised by the token in the address alone (`<token>.ics`), for calendar apps that subscribe to a URL. 404 once the feed is off or regenerated.',
        params: calendarFileParams,
        response: { 200: z.string().describe('text/calendar; charset=utf-8'), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const text = await service.feed(request.params.file, origin(request));
      return reply
        .type('text/calendar; charset=utf-8')
        .header('cache-control', 'private, max-age=300')
        .header('content-disposition', 'inline; filename="billfold-due.ics"')
        .send(text);
    },
  );
}
