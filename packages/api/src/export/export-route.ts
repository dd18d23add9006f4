/**
 * What the export routes (routes/export.ts) share: the `format` query and its default, the error answers, and
 * the route of an export that takes only `format`.
 */
import { ErrorBody } from '@michelscope/api-types';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static, type TObject } from '@sinclair/typebox';
import {
  exportBody,
  exportDescription,
  FormatParam,
  sendExport,
  type Column,
  type ExportFormat,
} from './writer';

/** The error answers of an export route. */
export const EXPORT_ERRORS = { 400: ErrorBody, 404: ErrorBody };

/** The query of an export that takes only `format`. */
export const FormatQuery = () => Type.Object({ format: FormatParam });

/** The format asked, CSV by default. */
export const formatOf = (f: ExportFormat | undefined): ExportFormat => f ?? 'csv';

/**
 * One export route that takes only `format`: its schema (summary, description with the columns, params, the row
 * schema) and a handler that checks the path (4xx) and names the file and the batches.
 */
export function simpleExport<P extends TObject, R>(
  app: Parameters<FastifyPluginAsyncTypebox>[0],
  path: string,
  spec: {
    summary: string;
    description: string;
    tag: string;
    params: P;
    row: TObject;
    columns: ReadonlyArray<Column<R>>;
    open(
      params: Static<P>,
    ): Promise<{ name: ReadonlyArray<string | number>; batches: AsyncIterable<readonly R[]> }>;
  },
): void {
  app.get(
    path,
    {
      schema: {
        summary: spec.summary,
        description: exportDescription(spec.description, spec.columns),
        tags: [spec.tag],
        params: spec.params,
        querystring: FormatQuery(),
        response: { 200: exportBody(spec.row), ...EXPORT_ERRORS },
      },
    },
    async (request, reply) => {
      const { name, batches } = await spec.open(request.params as Static<P>);
      return sendExport(reply, {
        format: formatOf(request.query.format),
        name,
        columns: spec.columns,
        batches,
      });
    },
  );
}
