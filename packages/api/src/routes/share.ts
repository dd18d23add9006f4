/**
 * Shared simulations (issue 20, capability 6). A link carries a simulation's input compressed in its fragment;
 * one too long for a link is stored here: POST /v1/shares validates it (the SharedSimulation schema, at most
 * SHARE_MAX_BYTES of JSON, a configured network) and stores it under the SHA-256 of its canonical JSON (keys
 * sorted), so the same state always gets the same id and storing it again changes nothing. GET /v1/shares/{id}
 * gives it back; GET /v1/shares lists every stored one, newest first: they never expire.
 */
import { createHash } from 'node:crypto';
import {
  ErrorBody,
  NetworkName,
  SHARE_MAX_BYTES,
  ShareCreated,
  ShareId,
  ShareListItem,
  SharedSimulation,
  StoredShare,
} from '@michelscope/api-types';
import { getShare, listShares, storeShare } from '@michelscope/db/shares';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { configure } from 'safe-stable-stringify';
import type { ApiContext } from '../context';
import { HttpError } from '../errors';
import { formatTime } from '../time';
import { requireNetwork } from '../validate';

const tags = ['share'];
/** Keys sorted: one state, one text, one id (whatever order a client wrote its keys in). */
const canonical = configure({ deterministic: true, bigint: false, circularValue: Error });
/** The default bound of all stored states together (ApiOptions.sharesMaxBytes). */
export const SHARES_MAX_TOTAL_BYTES = 1024 ** 3;
/** The most shares one page lists. */
const LIST_MAX = 100;

/** The id of a state: 22 base64url characters (132 bits) of the SHA-256 of its canonical JSON. */
export function shareId(json: string): string {
  return createHash('sha256').update(json).digest('base64url').slice(0, 22);
}

/** The contract and entrypoint (or view) a state is listed under; the deploy page has neither. */
function listed(state: SharedSimulation): { address: string; entrypoint: string } {
  if (!('kind' in state)) return { address: state.address, entrypoint: state.entrypoint };
  if (state.kind === 'view') return { address: state.address, entrypoint: state.view.name };
  return { address: '', entrypoint: '' };
}

export const shareRoutes: FastifyPluginAsyncTypebox<{ ctx: ApiContext }> = async (app, { ctx }) => {
  app.post(
    '/shares',
    {
      // a little over the state's bound, so that a huge body is refused before it is parsed
      bodyLimit: SHARE_MAX_BYTES * 2,
      schema: {
        summary: 'Store a simulation to share (a link too long for its fragment)',
        description:
          `Validates the state (the SharedSimulation schema; at most ${SHARE_MAX_BYTES} bytes of JSON, else ` +
          '413) and stores it under a content-addressed id: the SHA-256 of its JSON with sorted keys, so the ' +
          'same state always answers the same id and storing it again changes nothing. Stored states never ' +
          'expire; all of them together are bounded (1 GiB by default): past it a new state gets 507. The web opens ' +
          'a call at `/{network}/{address}/interact/{entrypoint}#share={id}`, a view at ' +
          '`/{network}/{address}/views/{name}#share={id}`, the deploy page at `/deploy#share={id}`.',
        tags,
        body: SharedSimulation,
        response: { 200: ShareCreated, 400: ErrorBody, 413: ErrorBody, 507: ErrorBody },
      },
    },
    async (request) => {
      const state = request.body;
      requireNetwork(ctx, state.network);
      const json = canonical(state);
      if (typeof json !== 'string') throw new HttpError(400, 'the state is not JSON');
      const bytes = Buffer.byteLength(json);
      if (bytes > SHARE_MAX_BYTES)
        throw new HttpError(413, `the state takes ${bytes} bytes, more than ${SHARE_MAX_BYTES}`);
      const max = ctx.options.sharesMaxBytes ?? SHARES_MAX_TOTAL_BYTES;
      const row = await storeShare(
        ctx.db,
        {
          id: shareId(json),
          network: state.network,
          ...listed(state),
          bytes,
          json,
        },
        max,
      );
      if (!row)
        throw new HttpError(
          507,
          `the store of shared simulations is full (${max} bytes): this one cannot be stored; a shorter ` +
            'simulation fits in the link itself',
        );
      return { id: row.id, created_at: formatTime(row.created_at), bytes: row.bytes };
    },
  );

  app.get(
    '/shares/:id',
    {
      schema: {
        summary: 'A stored simulation',
        description: 'The state stored by POST /v1/shares under this id (404 when none is).',
        tags,
        params: Type.Object({ id: ShareId }),
        response: { 200: StoredShare, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const row = await getShare(ctx.db, request.params.id);
      if (!row) throw new HttpError(404, `no stored simulation ${request.params.id}`);
      return {
        id: request.params.id,
        created_at: formatTime(row.created_at),
        state: row.state as SharedSimulation,
      };
    },
  );

  app.get(
    '/shares',
    {
      schema: {
        summary: 'Every stored simulation, newest first',
        description: `Stored simulations never expire: this lists them all, ${LIST_MAX} at most per page.`,
        tags,
        querystring: Type.Object({
          network: Type.Optional(NetworkName),
          offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
          size: Type.Optional(Type.Integer({ minimum: 1, maximum: LIST_MAX })),
        }),
        response: { 200: Type.Array(ShareListItem), 400: ErrorBody },
      },
    },
    async (request) => {
      const { network, offset = 0, size = 20 } = request.query;
      if (network) requireNetwork(ctx, network);
      const rows = await listShares(ctx.db, { network, offset, size });
      return rows.map((r) => ({ ...r, created_at: formatTime(r.created_at) }));
    },
  );
};
