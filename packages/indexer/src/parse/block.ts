/** A whole block's operations -> BlockData, plus what must be read from the database before parsing. */
import { globalConstantsOf, toMicheline } from '@michelscope/michelson';
import type { BlockData } from '@michelscope/db/write';
import { BlockBuilder, type ParseContext } from './builder';
import { parseGroup, parseImplicit } from './operations';
import { arr, isObj, obj } from './read';

export function parseBlockOperations(raw: unknown, ctx: ParseContext, where: string): BlockData {
  const block = obj(raw, where);
  const b = new BlockBuilder(ctx);
  if (isObj(block.metadata) && block.metadata.implicit_operations_results !== undefined)
    parseImplicit(b, block.metadata.implicit_operations_results, `${where} implicit_operations_results`);
  arr(block.operations, `${where} operations`).forEach((pass, p) => {
    arr(pass, `${where} operations[${p}]`).forEach((group, g) => parseGroup(b, group, `${where} operations[${p}][${g}]`));
  });
  return b.data;
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
        const meta = isObj(c) ? (c).metadata : undefined;
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
