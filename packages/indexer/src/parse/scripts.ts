/** Contract scripts: constants expansion, script row (hash, entrypoints, tags, fail strings…), sections. */
import {
  annotations,
  entrypointNames,
  expandGlobalConstants,
  failStrings,
  globalConstantsOf,
  isPrim,
  isString,
  scriptHash,
  scriptTags,
  tagsMask,
  walkMicheline,
  type Micheline,
} from '@michelscope/michelson';
import type { ScriptRow } from '@michelscope/db/write';
import { InvalidNodeDataError } from '../protocols/validate';

/** What the parser needs to know about a contract it sees called. */
export interface ContractInfo {
  parameter: Micheline;
  storage: Micheline;
  /** Contract tags bit mask. */
  tags: number;
}

const section = (code: Micheline[], name: string): Micheline | undefined => {
  const s = code.find((x) => isPrim(x) && x.prim === name);
  return isPrim(s) ? s.args?.[0] : undefined;
};

const ADDRESS_IN_TEXT = /(?:tz[1-4]|KT1)[1-9A-HJ-NP-Za-km-z]{33}/g;

/** tz/KT1 addresses written in string literals of the code (the reference's `hardcoded`). */
function hardcoded(code: Micheline): string[] {
  const out = new Set<string>();
  walkMicheline(code, (n) => {
    if (isString(n) && n.string.length >= 36)
      for (const m of n.string.matchAll(ADDRESS_IN_TEXT)) out.add(m[0]);
  });
  return [...out];
}

export interface BuiltScript {
  row: ScriptRow;
  info: ContractInfo;
}

/**
 * Builds the script row of an origination: global constants are expanded (repeatedly) first, then the hash
 * is the sha-256 of the compact code JSON. A malformed script is InvalidNodeDataError; a constant registered
 * before the indexed range (unknown here) gives null: the contract is then stored as an account only.
 */
export function buildScript(
  rawCode: Micheline,
  constantOf: (address: string) => Micheline | undefined,
  where: string,
): BuiltScript | null {
  const used = globalConstantsOf(rawCode);
  let code: Micheline = rawCode;
  const usedAll = new Set<string>();
  if (used.length > 0) {
    const table: Record<string, Micheline> = {};
    const pending = [...used];
    while (pending.length > 0) {
      const a = pending.pop()!;
      if (usedAll.has(a)) continue;
      usedAll.add(a);
      const v = constantOf(a);
      if (v === undefined) return null; // registered before the indexed range: the script cannot be expanded
      table[a] = v;
      pending.push(...globalConstantsOf(v));
    }
    try {
      code = expandGlobalConstants(rawCode, table);
    } catch (e) {
      throw new InvalidNodeDataError(`${where}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (!Array.isArray(code)) throw new InvalidNodeDataError(`${where}: script code must be a sequence`);
  const sections = code;
  const parameter = section(sections, 'parameter');
  const storage = section(sections, 'storage');
  const body = section(sections, 'code');
  if (parameter === undefined || storage === undefined || body === undefined)
    throw new InvalidNodeDataError(`${where}: the script lacks a parameter, storage or code section`);
  let tags = 0;
  let entrypoints: string[] = [];
  try {
    tags = tagsMask(scriptTags(code));
    entrypoints = entrypointNames(parameter);
  } catch (e) {
    throw new InvalidNodeDataError(
      `${where}: unusable script types (${e instanceof Error ? e.message : String(e)})`,
    );
  }
  const row: ScriptRow = {
    hash: scriptHash(code),
    code: body,
    parameter,
    storage,
    views: sections.filter((s) => isPrim(s) && s.prim === 'view'),
    entrypoints,
    fail_strings: failStrings(body),
    annotations: annotations([parameter, storage]),
    hardcoded: hardcoded(body),
    constants: [...usedAll],
    tags,
  };
  return { row, info: { parameter, storage, tags } };
}
