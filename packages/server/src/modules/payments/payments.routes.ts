import {
  createPaymentBody,
  payment,
  paymentGetQuery,
  paymentListResponse,
  paymentsQuery,
  updatePaymentBody,
} from '@billfold/contract/payments';
import { idParams } from '@billfold/contract/primitives';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { runIntent } from '../../lib/intents.ts';
import { errorResponses } from '../../plugins/openapi.ts';
import type { PaymentsService } from './payments.service.ts';

const security = [{ bearer: [] }];

export function paymentsRoutes(app: FastifyInstance, service: PaymentsService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/payments',
    {
      schema: {
        tags: ['payments'],
        summary: "An invoice's live payments, newest first",
        security,
        querystring: paymentsQuery,
        response: { 200: paymentListResponse, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ({ paymentDTOList: await service.list(request.ledger.id, request.query.entryId) }),
  );
  r.get(
    '/payments/:id',
    {
      schema: {
        tags: ['payments'],
        summary: 'One payment, recycled ones included',
        security,
        params: idParams,
        querystring: paymentGetQuery,
        response: { 200: payment, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => service.get(request.ledger.id, request.params.id),
  );
  r.post(
    '/payments',
    {
      schema: {
        tags: ['payments'],
        summary: 'Add a payment to an invoice',
        security,
        body: createPaymentBody,
        response: { 201: payment, ...errorResponses(400, 401, 404, 409, 413) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(request.actor, request.body)),
  );
  r.put(
    '/payments',
    {
      schema: {
        tags: ['payments'],
        summary: 'Edit, delete (recycle true) or restore (recycle false) a payment',
        security,
        querystring: paymentGetQuery,
        body: updatePaymentBody,
        response: { 200: payment, ...errorResponses(400, 401, 404, 409, 413) },
      },
    },
    async (request) => runIntent(service, request.actor, request.body),
  );
}
