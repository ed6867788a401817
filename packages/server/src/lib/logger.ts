import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import PinoPretty from 'pino-pretty';

/**
 * The server's log lines (docs/decisions/0905-logs.md): readable lines on a terminal, JSON for machines; one line
 * per request; the request's id on every line written while it runs; nothing of a query string, a header or a body.
 */

/** `LOG_FORMAT`: `auto` is `pretty` when standard output is a terminal, `json` otherwise. */
export type LogFormat = 'auto' | 'json' | 'pretty';

export function resolveLogFormat(format: LogFormat, stream: NodeJS.WritableStream): 'json' | 'pretty' {
  if (format !== 'auto') return format;
  return 'isTTY' in stream && stream.isTTY === true ? 'pretty' : 'json';
}

/** The id of the request whose work is running (set by `registerRequestLogging`), for lines of shared loggers. */
const currentRequest = new AsyncLocalStorage<string>();

/** A request id a proxy may hand us in `X-Request-Id` (nginx: `$request_id`): short and of plain characters only. */
const FORWARDED_ID = /^[A-Za-z0-9._:-]{1,64}$/;

type UrlMask = (path: string) => string;

/** Random bytes for 512 request ids, drawn in one call: a call per request cost 2.5 % of a busy process's time. */
const ID_BYTES = 6;
let idPool = Buffer.alloc(0);
let idAt = 0;

/** 8 random URL-safe characters (48 bits). */
function newRequestId(): string {
  if (idAt + ID_BYTES > idPool.length) {
    idPool = randomBytes(ID_BYTES * 512);
    idAt = 0;
  }
  idAt += ID_BYTES;
  return idPool.toString('base64url', idAt - ID_BYTES, idAt);
}

/**
 * Fastify's `logger` options and request ids. `maskPath` hides secrets that live in a path (the calendar feed's
 * address); query strings are never logged (they may carry tokens).
 */
export function loggerOptions(options: {
  level: string;
  format: 'json' | 'pretty';
  stream?: NodeJS.WritableStream;
  maskPath: UrlMask;
  /** Routes whose successful requests are logged at debug level (health checks). */
  quietRoutes?: string[];
}): Pick<FastifyServerOptions, 'logger' | 'genReqId' | 'logController'> {
  const stream =
    options.format === 'pretty'
      ? PinoPretty({
          destination: options.stream ?? 1,
          sync: true,
          colorize: options.stream ? false : PinoPretty.isColorSupported,
          translateTime: 'SYS:HH:MM:ss.l',
          // What the message already says (the request line, the start line) is not repeated after it.
          ignore: 'pid,hostname,reqId,req,res,responseTime,address,database,startSeconds',
          messageFormat: '{if reqId}[{reqId}] {end}{msg}',
          singleLine: true,
        })
      : options.stream;
  return {
    logController: new OneLinePerRequest(options.maskPath, new Set(options.quietRoutes)),
    genReqId: (req) => {
      const forwarded = req.headers['x-request-id'];
      return typeof forwarded === 'string' && FORWARDED_ID.test(forwarded) ? forwarded : newRequestId();
    },
    logger: {
      level: options.level,
      ...(stream ? { stream } : {}),
      serializers: {
        // Only the path is logged: query strings may carry tokens.
        req: (req: { method: string; url: string; ip?: string }) => ({
          method: req.method,
          url: options.maskPath(req.url.split('?')[0] ?? ''),
          ip: req.ip,
        }),
      },
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      hooks: { logMethod: dropListenLines },
      // Lines of loggers shared across requests (services, repositories) get the id of the request they serve.
      mixin(_object: object, _level: number, logger: { bindings: () => Record<string, unknown> }) {
        const id = currentRequest.getStore();
        return id === undefined || logger.bindings().reqId !== undefined ? {} : { reqId: id };
      },
    },
  };
}

/** The path of a request as logged: no query string, secrets in the path masked. */
function loggedPath(request: FastifyRequest, maskPath: UrlMask): string {
  return maskPath(request.url.split('?')[0] ?? '');
}

/**
 * Fastify's request lines, one per request when it ends (`GET /api/v1/health 200 1.2 ms`) instead of one when it
 * comes and one when it ends; a 404 says so in that line, not in one more. Routes asked every few seconds by
 * machines (`quietRoutes`: the health check) log their successes at debug level only.
 */
class OneLinePerRequest extends LogController {
  constructor(
    private readonly maskPath: UrlMask,
    private readonly quietRoutes: Set<string>,
  ) {
    super({ requestIdLogLabel: 'reqId' });
  }

  override incomingRequest(): void {}

  override routeNotFound(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const ms = reply.elapsedTime;
    const status = reply.statusCode;
    const fields = {
      req: request,
      res: { statusCode: status },
      responseTime: Math.round(ms * 10) / 10,
      ...(error ? { err: error } : {}),
    };
    const text = `${request.method} ${loggedPath(request, this.maskPath)} ${status} ${ms.toFixed(1)} ms`;
    if (error || status >= 500) request.log.error(fields, text);
    else if (status < 400 && this.quietRoutes.has(request.routeOptions.url ?? '')) request.log.debug(fields, text);
    else request.log.info(fields, text);
  }
}

/**
 * The request id is sent back as `X-Request-Id`, and the request's work runs with its id known to every logger;
 * a request the client gave up on before its answer gets its line too.
 */
export function registerRequestLogging(app: FastifyInstance, maskPath: UrlMask): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    currentRequest.run(request.id, done);
  });
  app.addHook('onRequestAbort', async (request) => {
    request.log.info({ req: request }, `${request.method} ${loggedPath(request, maskPath)} aborted by the client`);
  });
}

/** Marks Fastify's own "Server listening at" lines, which `listeningLine` replaces with one. */
const LISTEN_MARK = '\u0000listening ';

/** Fastify's listen text resolver: marks each address so the logger drops it (see `dropListenLines`). */
export const markListenText = (address: string) => `${LISTEN_MARK}${address}`;

/** A pino `hooks.logMethod` that drops the lines `markListenText` marked. */
export function dropListenLines(
  this: unknown,
  args: unknown[],
  method: (...args: unknown[]) => void,
  _level: number,
): void {
  if (typeof args[0] === 'string' && args[0].startsWith(LISTEN_MARK)) return;
  method.apply(this, args);
}
