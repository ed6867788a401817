import { idParams, messageResponse } from '@billfold/contract/primitives';
import { schedule, scheduleBody, scheduleList, schedulePreview } from '@billfold/contract/schedules';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/openapi.ts';
import type { SchedulesService } from './schedules.service.ts';

const security = [{ bearer: [] }];
const tags = ['schedules'];

/** Recurring invoices of an entity (docs/api/schedules.md). */
export function schedulesRoutes(app: FastifyInstance, service: SchedulesService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/bills/:id/schedules',
    {
      schema: {
        tags,
        summary: "An entity's schedules (also of an archived one), oldest first, each with its next occurrence",
        security,
        params: idParams,
        response: { 200: scheduleList, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ({ schedules: await service.list(request.ledger.id, request.params.id) }),
  );
  r.post(
    '/bills/:id/schedules',
    {
      schema: {
        tags,
        summary:
          'Create a schedule; the invoices of occurrences up to today are created at once (409 SCHEDULE_DUPLICATES when one would stand beside an existing invoice of the same date and amount and `duplicates` is not given)',
        security,
        params: idParams,
        body: scheduleBody,
        response: { 201: schedule, ...errorResponses(400, 401, 404, 409, 413) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.create(request.actor, request.params.id, request.body)),
  );
  r.post(
    '/bills/:id/schedules/preview',
    {
      schema: {
        tags,
        summary:
          'What creating this schedule would create at once (dated up to today): due dates, automatic payments, and the existing invoices of the same date and amount beside them. Changes nothing',
        security,
        params: idParams,
        body: scheduleBody,
        response: { 200: schedulePreview, ...errorResponses(400, 401, 404, 409, 413) },
      },
    },
    async (request) => service.previewNew(request.ledger.id, request.params.id, request.body),
  );
  r.post(
    '/schedules/:id/preview',
    {
      schema: {
        tags,
        summary:
          'What replacing the schedule with this body would create at once (at most today’s invoice). Changes nothing',
        security,
        params: idParams,
        body: scheduleBody,
        response: { 200: schedulePreview, ...errorResponses(400, 401, 404, 409, 413) },
      },
    },
    async (request) => service.previewReplace(request.ledger.id, request.params.id, request.body),
  );
  r.get(
    '/schedules/:id',
    {
      schema: {
        tags,
        summary: 'One schedule',
        security,
        params: idParams,
        response: { 200: schedule, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.get(request.ledger.id, request.params.id),
  );
  r.put(
    '/schedules/:id',
    {
      schema: {
        tags,
        summary: 'Replace a schedule; invoices already created stay, occurrences from today on follow the new rule',
        security,
        params: idParams,
        body: scheduleBody,
        response: { 200: schedule, ...errorResponses(400, 401, 404, 409, 413) },
      },
    },
    async (request) => service.replace(request.actor, request.params.id, request.body),
  );
  r.post(
    '/schedules/:id/pause',
    {
      schema: {
        tags,
        summary: 'Pause: no invoices and no automatic payments until resumed',
        security,
        params: idParams,
        response: { 200: schedule, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => service.pause(request.actor, request.params.id),
  );
  r.post(
    '/schedules/:id/resume',
    {
      schema: {
        tags,
        summary: 'Resume from today; occurrences that fell due while paused are passed over',
        security,
        params: idParams,
        response: { 200: schedule, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => service.resume(request.actor, request.params.id),
  );
  r.delete(
    '/schedules/:id',
    {
      schema: {
        tags,
        summary: 'Delete a schedule for good; the invoices it created stay',
        security,
        params: idParams,
        response: { 200: messageResponse, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => {
      await service.remove(request.actor, request.params.id);
      return { message: 'Schedule deleted.' };
    },
  );
}
