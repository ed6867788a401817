import { defaultErrorCode, type ErrorCode } from '@billfold/contract/error-codes';

/**
 * An error whose status, code and message may be shown to the client as they are. Without a code it carries its
 * status's general one (contract/error-codes.ts).
 */
export class HttpError extends Error {
  readonly code: ErrorCode;

  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
    code?: ErrorCode,
  ) {
    super(message);
    this.code = code ?? defaultErrorCode(statusCode);
  }
}

export const badRequest = (message: string, code?: ErrorCode) => new HttpError(400, message, {}, code);
export const unauthorized = (message = 'Unauthorized', code?: ErrorCode) => new HttpError(401, message, {}, code);
export const forbidden = (message = 'Forbidden', code?: ErrorCode) => new HttpError(403, message, {}, code);
export const notFound = (message = 'Not found', code?: ErrorCode) => new HttpError(404, message, {}, code);
export const conflict = (message: string, code?: ErrorCode) => new HttpError(409, message, {}, code);
/** 429 with `Retry-After`; the message says when to try again (see `modules/auth/throttle.ts`). */
export const tooManyRequests = (retryAfterSeconds: number, message: string, code?: ErrorCode) =>
  new HttpError(429, message, { 'retry-after': String(retryAfterSeconds) }, code);
