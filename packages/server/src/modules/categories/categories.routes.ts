import {
  categoryItem,
  categoryListResponse,
  createCategoryBody,
  updateCategoryBody,
} from '@billfold/contract/categories';
import { idParams } from '@billfold/contract/primitives';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../plugins/openapi.ts';
import type { CategoriesService } from './categories.service.ts';

const security = [{ bearer: [] }];

export function categoriesRoutes(app: FastifyInstance, service: CategoriesService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/categories',
    {
      schema: {
        tags: ['categories'],
        summary: 'The 21 built-in categories and the caller’s own (retired ones too), Uncategorized first',
        security,
        response: { 200: categoryListResponse, ...errorResponses(401) },
      },
    },
    async (request) => ({ categories: await service.list(request.ledger.id) }),
  );
  r.post(
    '/categories',
    {
      schema: {
        tags: ['categories'],
        summary: 'Add a category of one’s own, for expenses (the default) or income',
        description:
          '409 CATEGORY_NAME_TAKEN when a built-in category or another of the caller’s own has the name (case and ' +
          'spacing aside); 409 TOO_MANY_CATEGORIES at the limit (retired ones count).',
        security,
        body: createCategoryBody,
        response: { 201: categoryItem, ...errorResponses(400, 401, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(request.actor, request.body)),
  );
  r.patch(
    '/categories/:id',
    {
      schema: {
        tags: ['categories'],
        summary: 'Rename (its entities and invoices follow), change the flow, retire or restore a category',
        description:
          'Built-in categories have no id and cannot be changed. 404 for another user’s category; 409 ' +
          'CATEGORY_NAME_TAKEN for a name in use.',
        security,
        params: idParams,
        body: updateCategoryBody,
        response: { 200: categoryItem, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => service.update(request.actor, request.params.id, request.body),
  );
}
