import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

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

/**
 * The one error handler of the API: bodies are always `{"message": …}`. Validation and other client errors
 * keep their 4xx status and text; anything else is a 500 "internal server error", logged once.
 */
export function errorHandler(
  error: FastifyError | HttpError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const { status, message } = describeError(error);
  if (status >= 500 && !(error instanceof HttpError)) request.log.error({ err: error }, 'request failed');
  void reply.code(status).type('application/json; charset=utf-8').send({ message });
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
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status =
    typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500
      ? error.statusCode
      : 400;
  void reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ message: clip(error.message) });
}
