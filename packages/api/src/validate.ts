/**
 * Path/query schemas and checks shared by the routes (reference §1.3, §1.6). Patterns are anchored
 * (the reference's unanchored regexes accept any text containing an address: deliberately not copied).
 */
import { NetworkName } from '@michelscope/api-types';
import {
  ADDRESS_PATTERN,
  CONTRACT_PATTERN,
  OPERATION_HASH_PATTERN,
  SCRIPT_EXPR_PATTERN,
  SMART_ROLLUP_PATTERN,
} from '@michelscope/michelson';
import { Type } from '@sinclair/typebox';
import type { ApiContext } from './context';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors';

/**
 * The shapes of the product's address and hash kinds (@michelscope/michelson src/address.ts: an address is
 * tz1–tz4, KT1, txr1 or sr1), anchored: prefix, alphabet and length, not the checksum.
 */
export const ADDRESS_RE = ADDRESS_PATTERN;
export const CONTRACT_RE = CONTRACT_PATTERN;
export const ROLLUP_RE = SMART_ROLLUP_PATTERN;
export const OPG_RE = OPERATION_HASH_PATTERN;
export const EXPR_RE = SCRIPT_EXPR_PATTERN;

/** The page size limit of list routes (`api.page_size`). */
export const PAGE_SIZE = 10;

export const NetworkParams = Type.Object({ network: NetworkName });
export const AddressParams = Type.Object({ network: NetworkName, address: Type.String({ maxLength: 64 }) });

/** `offset`/`size` query fields (fresh schema objects per route: Fastify compiles each in place). */
export const Paging = {
  get offset() {
    return Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 }));
  },
  get size() {
    return Type.Optional(Type.Integer({ minimum: 0, maximum: PAGE_SIZE }));
  },
};

/** size 0 or absent → the page size. */
export function pageSize(size: number | undefined, max = PAGE_SIZE): number {
  return !size || size <= 0 ? PAGE_SIZE : Math.min(size, max);
}

/** The configured network or a 400 `{"message"}`. */
export function requireNetwork(ctx: ApiContext, network: string): void {
  if (!ctx.networks.get(network)) throw new HttpError(400, `unknown network: ${network}`);
}

/** Checks a path address; contract routes answer 404 on a bad address (reference §11.2). */
export function requireAddress(value: string, re: RegExp, what: string, status = 400): void {
  if (!re.test(value)) throw new HttpError(status, `invalid ${what}: ${value.slice(0, 64)}`);
}

/** The path of a contract route: network 400, then contract address 404 (reference §11.2). */
export function requireContractPath(ctx: ApiContext, p: { network: string; address: string }): void {
  requireNetwork(ctx, p.network);
  requireAddress(p.address, CONTRACT_RE, 'contract address', 404);
}

/** Answers a JSON string (Michelson text routes): Fastify would send a bare string as text. */
export function jsonString(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(text));
}

/**
 * Answers a JSON text already in the route's response shape (built by PostgreSQL for hot reads): sent as it
 * is, without the response schema's serialiser.
 */
export function rawJson(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

const INTEGER_TEXT = /^-?\d{1,16}$/;

/**
 * preValidation hook of the API: an integer path or query parameter must be written as a safe decimal
 * integer. The validator alone would coerce "1e309" or "Infinity" to Infinity (which passes its integer and
 * maximum checks) and "0x10" to 16; those answer 400 `{"message"}` instead of reaching the database.
 */
export async function checkIntegerParams(request: FastifyRequest): Promise<void> {
  const schema = request.routeOptions.schema as
    | Partial<Record<'params' | 'querystring', { properties?: Record<string, { type?: unknown }> }>>
    | undefined;
  for (const [part, values] of [
    ['params', request.params],
    ['querystring', request.query],
  ] as const) {
    const properties = schema?.[part]?.properties;
    if (!properties || !values || typeof values !== 'object') continue;
    for (const [name, property] of Object.entries(properties)) {
      const raw = (values as Record<string, unknown>)[name];
      if (property.type !== 'integer' || typeof raw !== 'string') continue;
      if (!INTEGER_TEXT.test(raw) || !Number.isSafeInteger(Number(raw)))
        throw new HttpError(
          400,
          `${part}/${name} must be a safe integer, got ${JSON.stringify(raw.slice(0, 40))}`,
        );
    }
  }
}
