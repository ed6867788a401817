import { STATUS_CODES } from 'node:http';
import { defaultErrorCode, type ErrorCode } from '@billfold/contract/error-codes';
import { ownValue } from '@billfold/contract/own-keys';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { HttpError } from '../lib/http-error.ts';
import { summarize } from '../lib/validation-summary.ts';
import { bodyTooLarge } from './body.ts';
import { setSecurityHeaders } from './security.ts';

/** The one error body: `{statusCode, error, code, message}`; the code defaults to the status's general one. */
export function send(statusCode: number, message: string, code: ErrorCode = defaultErrorCode(statusCode)) {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', code, message };
}

/** Fastify's own client errors by their Fastify code, so a client can branch without reading the message. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
};

const GENERIC_500 = 'Something went wrong on our side. Please try again.';

/**
 * Fastify's `frameworkErrors`: a URL it cannot route (bad percent-escape, overlong path parameter) is refused
 * before any hook runs. It leaves in the contract's error shape with the headers every other response carries.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  setSecurityHeaders(request.raw, reply.raw);
  if (error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply.code(400).send(send(400, 'Malformed URL: a path segment is badly encoded or too long', 'MALFORMED_URL'));
    return;
  }
  request.log.error({ err: error }, 'request failed');
  reply.code(500).send(send(500, GENERIC_500));
}

/** Every error leaves as `{statusCode, error, message}`; a 5xx never carries its cause. */
export function registerErrorHandling(
  app: FastifyInstance,
  sendApp: ((request: FastifyRequest, reply: FastifyReply) => FastifyReply) | null,
): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof HttpError) {
      return reply
        .code(err.statusCode)
        .headers(err.headers)
        .send(send(err.statusCode, err.message, err.code));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      return reply.code(400).send(send(400, summarize(err.validationContext, err.validation), 'VALIDATION_FAILED'));
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, body too large, wrong content type.
      const code = ownValue(FASTIFY_CODES, String(err.code)) ?? defaultErrorCode(status);
      const limit = request.routeOptions.bodyLimit;
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && limit !== undefined)
        return reply.code(413).send(send(413, bodyTooLarge(limit).message, code));
      if (status === 429 && err.message) return reply.code(429).send(send(429, err.message, code));
      return reply.code(status).send(send(status, err.message || (STATUS_CODES[status] ?? 'Error'), code));
    }
    request.log.error({ err }, 'request failed');
    return reply.code(500).send(send(500, GENERIC_500));
  });

  app.setNotFoundHandler((request, reply) => {
    // Deep links into the web app (`/entries/5`) get the app; `/api/*` always answers JSON.
    const isPage = request.method === 'GET' && !request.url.startsWith('/api/') && request.url !== '/api';
    if (sendApp && isPage) return sendApp(request, reply);
    return reply.code(404).send(send(404, `Route ${request.method} ${request.url.split('?')[0]} not found`));
  });
}
