import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** An error with the HTTP status and the `message` the client sees. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

const MAX_MESSAGE = 500;

/** The response header every answer names its request in (the id a 5xx's log line carries). */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * For the root Fastify's `genReqId`: a random id per request, unique across processes and restarts (Fastify's
 * default counts from 1 in each process). A client's own `x-request-id` is not taken: it would choose what
 * the log says.
 */
export function newRequestId(): string {
  return randomUUID();
}

/** An `onRequest` hook: the answer carries `x-request-id`, error answers included. */
export function requestIdHeader(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  void reply.header(REQUEST_ID_HEADER, request.id);
  done();
}

/** What made a request answer 5xx (set by `errorHandler`), for its log line. */
const causes = new WeakMap<object, unknown>();
/** Requests whose 5xx is logged already (the hook may be added in nested scopes: one line each). */
const logged = new WeakSet<object>();

/**
 * The one error handler of the API: bodies are always `{"message": …}`. Validation and other client errors
 * keep their 4xx status and text; anything else is a 500 "internal server error". A 5xx body also names the
 * request (`request_id`, as the `x-request-id` header does); its cause goes to the log (`logServerErrors`),
 * never to the client.
 */
export function errorHandler(
  error: FastifyError | HttpError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const { status, message } = describeError(error);
  void reply.header(REQUEST_ID_HEADER, request.id);
  if (status >= 500) {
    causes.set(request.raw, error);
    void reply.code(status).type('application/json; charset=utf-8').send({ message, request_id: request.id });
    return;
  }
  void reply.code(status).type('application/json; charset=utf-8').send({ message });
}

/** Default destination of the 5xx lines: stderr, one line each, with the time (as the server's own lines). */
export const logToStderr = (line: string): void => {
  process.stderr.write(`${new Date().toISOString()} ${line}\n`);
};

/**
 * Logs every 5xx answer of `app`'s scope as one line (`serverErrorLine`): status, method, path, request id and
 * cause (the error the handler got, or that the route answered it without one). Added in nested scopes (the
 * API plugin and its host), a request is still logged once.
 */
export function logServerErrors(app: FastifyInstance, log: (line: string) => void = logToStderr): void {
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode >= 500 && !logged.has(request.raw)) {
      logged.add(request.raw);
      try {
        log(serverErrorLine(request, reply.statusCode, causes.get(request.raw)));
      } catch {
        // a log destination that fails must not fail the request
      }
    }
    done();
  });
}

/** Control characters (a newline in a message or a URL would make two lines, or forge one). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
const oneLine = (text: string, max: number) => {
  const flat = text.replace(CONTROL, ' ');
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};

/** `[http] 500 GET /v1/head request_id=…: error: relation "x" does not exist [42P01] (at …)`: one line. */
export function serverErrorLine(request: FastifyRequest, status: number, cause: unknown): string {
  return oneLine(
    `[http] ${status} ${request.method} ${oneLine(request.url, 300)} request_id=${request.id} ip=${request.ip}: ` +
      describeCause(cause),
    2_000,
  );
}

function describeCause(cause: unknown, depth = 0): string {
  if (cause === undefined) return 'answered by its route (no error thrown)';
  if (!(cause instanceof Error)) return `thrown: ${oneLine(thrownText(cause), 500)}`;
  const code = (cause as { code?: unknown }).code;
  const where = cause.stack
    ?.split('\n')
    .find((l) => /^\s+at /.test(l))
    ?.trim();
  const inner = (cause as { cause?: unknown }).cause;
  return (
    `${cause.name}: ${oneLine(cause.message, 500)}` +
    (typeof code === 'string' || typeof code === 'number' ? ` [${code}]` : '') +
    (where ? ` (${where})` : '') +
    (inner !== undefined && depth < 2 ? `; caused by ${describeCause(inner, depth + 1)}` : '')
  );
}

/** A thrown value that is not an Error, as text (JSON for an object, when it has that form). */
function thrownText(value: unknown): string {
  if (typeof value !== 'object' || value === null) return String(value);
  try {
    return JSON.stringify(value) ?? Object.prototype.toString.call(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

function describeError(error: FastifyError | HttpError | Error): { status: number; message: string } {
  if (error instanceof HttpError) return { status: error.statusCode, message: error.message };
  const fe = error as Partial<FastifyError>;
  if (fe.validation) return { status: 400, message: clip(error.message) };
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) return { status, message: clip(error.message || 'bad request') };
  return { status: 500, message: 'internal server error' };
}

function clip(text: string): string {
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;
}

/**
 * For the root Fastify's `frameworkErrors` option: malformed URLs (bad percent-encoding, over-long
 * parameters) answer 400/414 `{"message": …}` like every other error instead of Fastify's default body.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status =
    typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500
      ? error.statusCode
      : 400;
  void reply
    .code(status)
    .header(REQUEST_ID_HEADER, request.id)
    .type('application/json; charset=utf-8')
    .send({ message: clip(error.message) });
}
