import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The server's own requests to the API (the page renderer's, made with `app.inject` in this process) are not
 * charged to any client's rate limit: the page that caused them paid its page token (issue 34). They are
 * recognised by a header holding a random token made when the process starts: it is never sent over the
 * network (inject does not open a socket) and is removed from the request as soon as it is checked, so no
 * route, log or node pass-through sees it, and a client cannot guess it (256 bits).
 */
export const INTERNAL_CALL_HEADER = 'x-michelscope-internal';

const TOKEN = randomBytes(32).toString('base64url');
const TOKEN_BYTES = Buffer.from(TOKEN);
const internal = new WeakSet<object>();

/** The headers that mark an `app.inject` request of this process as the server's own. */
export function internalCallHeaders(): Record<string, string> {
  return { [INTERNAL_CALL_HEADER]: TOKEN };
}

/** An `onRequest` hook (before the rate limit): recognises the server's own requests, removes the header. */
export function markInternalCall(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  const value = request.headers[INTERNAL_CALL_HEADER];
  if (value !== undefined) {
    delete request.headers[INTERNAL_CALL_HEADER];
    if (typeof value === 'string') {
      const given = Buffer.from(value);
      if (given.length === TOKEN_BYTES.length && timingSafeEqual(given, TOKEN_BYTES))
        internal.add(request.raw);
    }
  }
  done();
}

/** Whether `request` is one of the server's own (see `markInternalCall`). */
export function isInternalCall(request: FastifyRequest): boolean {
  return internal.has(request.raw);
}
