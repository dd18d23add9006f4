/** A whole block's operations -> BlockData, plus what must be read from the database before parsing. */
import { globalConstantsOf, toMicheline } from '@michelscope/michelson';
import type { BlockData } from '@michelscope/db/write';
import { BlockBuilder, type ParseContext } from './builder';
import { parseGroup, parseImplicit } from './operations';
import { arr, isObj, obj } from './read';

/** Parses a block's operations, pausing (yield) after each operation group; returns the block's data. */
function* parseSteps(raw: unknown, ctx: ParseContext, where: string): Generator<void, BlockData> {
  const block = obj(raw, where);
  const b = new BlockBuilder(ctx);
  if (isObj(block.metadata) && block.metadata.implicit_operations_results !== undefined)
    parseImplicit(b, block.metadata.implicit_operations_results, `${where} implicit_operations_results`);
  const passes = arr(block.operations, `${where} operations`);
  for (let p = 0; p < passes.length; p++) {
    const groups = arr(passes[p], `${where} operations[${p}]`);
    for (let g = 0; g < groups.length; g++) {
      parseGroup(b, groups[g], `${where} operations[${p}][${g}]`);
      yield;
    }
  }
  return b.data;
}

export function parseBlockOperations(raw: unknown, ctx: ParseContext, where: string): BlockData {
  const steps = parseSteps(raw, ctx, where);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Longest run of parsing between two turns of the event loop. Short, because on PostgreSQL the writer's
 * COPY data (megabytes per batch) leaves through a socket whose buffer drains only when this thread turns:
 * with 3 ms slices PostgreSQL waited for data about a third of the time (dense benchmark, 5,400–5,600
 * operations/s); with 0.5 ms, 6,800 (bench/RESULTS.md). A turn costs a few microseconds.
 */
export const PARSE_SLICE_MS = 0.5;

/**
 * The same parse, handing the thread back to the event loop after every `sliceMs` of work. A dense block
 * takes tens of milliseconds to parse; the indexer writes the previous blocks meanwhile, and each of the
 * writer's statements (and each chunk of its COPY data) needs a turn of this thread to go out: without the
 * pauses, the writer advanced by one statement per parsed block and parsing and writing ran one after the
 * other.
 */
export async function parseBlockOperationsInSlices(
  raw: unknown,
  ctx: ParseContext,
  where: string,
  sliceMs = PARSE_SLICE_MS,
): Promise<BlockData> {
  const steps = parseSteps(raw, ctx, where);
  let sliceStart = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}

export interface BlockReferences {
  /** KT1 addresses the block's operations call or mention as destination. */
  contracts: Set<string>;
  /** Global constants referenced by scripts originated in the block. */
  constants: Set<string>;
  /** Contracts originated by implicit operations (their script is read from the node). */
  implicitOriginations: string[];
}

/** Scans a block (untrusted; malformed parts are ignored here and reported by the parser). */
export function blockReferences(raw: unknown): BlockReferences {
  const refs: BlockReferences = { contracts: new Set(), constants: new Set(), implicitOriginations: [] };
  if (!isObj(raw)) return refs;
  const visit = (o: unknown) => {
    if (!isObj(o)) return;
    const d = o.destination;
    if (typeof d === 'string' && d.startsWith('KT1')) refs.contracts.add(d);
    if (o.kind === 'origination' && isObj(o.script)) {
      try {
        for (const c of globalConstantsOf(toMicheline(o.script.code))) refs.constants.add(c);
      } catch {
        // reported by the parser
      }
    }
  };
  for (const pass of Array.isArray(raw.operations) ? raw.operations : []) {
    for (const group of Array.isArray(pass) ? (pass as unknown[]) : []) {
      if (!isObj(group) || !Array.isArray(group.contents)) continue;
      for (const c of group.contents) {
        visit(c);
        const meta = isObj(c) ? c.metadata : undefined;
        if (!isObj(meta)) continue;
        const internals = meta.internal_operation_results ?? meta.internal_operations;
        if (Array.isArray(internals)) for (const i of internals) visit(i);
      }
    }
  }
  if (isObj(raw.metadata) && Array.isArray(raw.metadata.implicit_operations_results)) {
    for (const r of raw.metadata.implicit_operations_results) {
      if (isObj(r) && r.kind === 'origination' && Array.isArray(r.originated_contracts))
        for (const a of r.originated_contracts) if (typeof a === 'string') refs.implicitOriginations.push(a);
    }
  }
  return refs;
}
