import { reminderSettings, reminderSettingsBody } from '@billfold/contract/due';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/openapi.ts';
import type { RemindersService } from './reminders.service.ts';

const security = [{ bearer: [] }];

export function remindersRoutes(app: FastifyInstance, service: RemindersService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/account/reminders',
    {
      schema: {
        tags: ['reminders'],
        summary:
          'The daily email digest of what is overdue and due soon: whether the server can send it, and the choice',
        security,
        response: { 200: reminderSettings, ...errorResponses(401) },
      },
    },
    async (request) => service.settings(request.userId),
  );
  r.put(
    '/account/reminders',
    {
      schema: {
        tags: ['reminders'],
        summary: 'Turn the daily email digest on (with how many days ahead it looks) or off',
        description: '409 when turning it on while the server has no mail settings (SMTP_URL and MAIL_FROM).',
        security,
        body: reminderSettingsBody,
        response: { 200: reminderSettings, ...errorResponses(400, 401, 409) },
      },
    },
    async (request) => service.update(request.userId, request.body),
  );
}
