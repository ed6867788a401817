import {
  channelList,
  createChannelBody,
  createdChannel,
  deliveryList,
  deliveryQuery,
  notificationChannel,
  notificationDelivery,
  updateChannelBody,
} from '@billfold/contract/notifications';
import { idParams, messageResponse } from '@billfold/contract/primitives';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/openapi.ts';
import type { NotificationsService } from './notifications.service.ts';

/**
 * The signed-in user's notification channels and delivery log (docs/api/notifications.md). A session only: a
 * channel holds secrets, which no API token manages (as with tokens themselves).
 */
export function notificationsRoutes(app: FastifyInstance, service: NotificationsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const common = { config: { sessionOnly: true } } as const;
  const tags = ['notifications'];
  const security = [{ bearer: [] }];
  r.get(
    '/notification-channels',
    {
      ...common,
      schema: {
        tags,
        security,
        summary: 'Your notification channels (never their secrets), whether email can be sent, the web push key',
        response: { 200: channelList, ...errorResponses(401, 403) },
      },
    },
    async (request) => service.list(request.userId),
  );
  r.post(
    '/notification-channels',
    {
      ...common,
      schema: {
        tags,
        security,
        summary: 'Add a channel: email, webhook, ntfy, Gotify or web push; a webhook answers its signing secret once',
        description:
          '400 `CHANNEL_ADDRESS_REFUSED` for an address on a private, loopback or link-local network (unless the server allows them); 409 `EMAIL_NOT_CONFIGURED` for email without mail settings; 409 `TOO_MANY_CHANNELS` past 20.',
        body: createChannelBody,
        response: { 201: createdChannel, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(request.userId, request.body)),
  );
  r.patch(
    '/notification-channels/:id',
    {
      ...common,
      schema: {
        tags,
        security,
        summary: 'Change a channel’s name, events or days ahead, or resume it (`paused: false`)',
        params: idParams,
        body: updateChannelBody,
        response: { 200: notificationChannel, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => service.update(request.userId, request.params.id, request.body),
  );
  r.delete(
    '/notification-channels/:id',
    {
      ...common,
      schema: {
        tags,
        security,
        summary: 'Delete a channel and its delivery log',
        params: idParams,
        response: { 200: messageResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await service.remove(request.userId, request.params.id);
      return { message: 'Channel deleted.' };
    },
  );
  r.post(
    '/notification-channels/:id/test',
    {
      ...common,
      schema: {
        tags,
        security,
        summary: 'Send a test message to the channel now; answers its delivery (sent, or gave up with the error)',
        params: idParams,
        response: { 200: notificationDelivery, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => service.test(request.userId, request.params.id),
  );
  r.get(
    '/notification-deliveries',
    {
      ...common,
      schema: {
        tags,
        security,
        summary: 'The delivery log: each message, its channel, status, attempts, last error and next try, newest first',
        querystring: deliveryQuery,
        response: { 200: deliveryList, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      deliveries: await service.deliveries(request.userId, request.query.limit, request.query.channelId),
    }),
  );
  r.post(
    '/notification-deliveries/:id/send-again',
    {
      ...common,
      schema: {
        tags,
        security,
        summary: 'Try a failed or given-up delivery again now',
        params: idParams,
        response: { 200: notificationDelivery, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => service.sendAgain(request.userId, request.params.id),
  );
}
