// Every real contract of ../shared/fixtures: code parses and re-prints, typedefs and schemas build,
// storage and real calls decode, and every entrypoint form, filled, gives data michel-codec accepts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertDataValid } from '@taquito/michel-codec';
import { emptyModel } from '../src/default-model';
import { decodeParameters, entrypointType } from '../src/entrypoints';
import { formatMichelson, formatMichelsonInline } from '../src/format';
import { parametersForExecution } from '../src/form-data';
import { entrypointSchemaOf } from '../src/json-schema';
import type { JsonSchema } from '../src/json-schema';
import type { Micheline } from '../src/micheline';
import {
  expandMicheline,
  isPrim,
  parseMichelsonExpression,
  parseMichelsonScript,
  toMicheline,
  walkMicheline,
} from '../src/micheline';
import { toMiguel } from '../src/miguel';
import { buildTypeTree, entrypointLeaves, scriptSection } from '../src/type-tree';
import { entrypointsDocsOf, typedefOf } from '../src/typedef';
import { hasShared, SHARED } from './golden';

interface Contract {
  id: string;
  dir: string;
  code: Micheline;
  storage?: Micheline;
  /** Real calls; `text` = the same value as Michelson text (roundtrip corpus). */
  calls: { entrypoint: string; value: Micheline; text?: string }[];
}

function load(): Contract[] {
  if (!hasShared) return [];
  const out: Contract[] = [];
  const read = (p: string): unknown => JSON.parse(readFileSync(p, 'utf8'));
  const roots = [
    path.join(SHARED, 'fixtures/contracts'),
    path.join(SHARED, 'fixtures/contracts/by-alias'),
    path.join(SHARED, 'fixtures/michelson/roundtrip'),
  ];
  for (const root of roots) {
    for (const d of readdirSync(root)) {
      const dir = path.join(root, d);
      if (!existsSync(path.join(dir, 'code.json'))) continue;
      const calls: Contract['calls'] = [];
      const callDir = path.join(dir, 'calls');
      if (existsSync(callDir))
        for (const f of readdirSync(callDir))
          calls.push((read(path.join(callDir, f)) as { parameters: Contract['calls'][0] }).parameters);
      const paramDir = path.join(dir, 'parameters');
      if (existsSync(paramDir))
        for (const f of readdirSync(paramDir).filter((x) => x.endsWith('.json'))) {
          const tz = path.join(paramDir, f.replace(/\.json$/, '.tz'));
          calls.push({
            entrypoint: 'default',
            value: toMicheline(read(path.join(paramDir, f))),
            ...(existsSync(tz) ? { text: readFileSync(tz, 'utf8') } : {}),
          });
        }
      const storageFile = path.join(dir, 'storage.json');
      out.push({
        id: `${path.basename(root)}/${d}`,
        dir,
        code: toMicheline(read(path.join(dir, 'code.json'))),
        ...(existsSync(storageFile) ? { storage: toMicheline(read(storageFile)) } : {}),
        calls,
      });
    }
  }
  return out;
}

const SAMPLES: Record<string, string> = {
  address: 'tz1aKTCbAUuea2RV9kxqRVRg3HT7f1RKnp6a',
  contract: 'KT1VZj8kJYcpqr3fAPC8sLjSNuDvYDz5V39Z',
  key_hash: 'tz1aKTCbAUuea2RV9kxqRVRg3HT7f1RKnp6a',
  key: 'edpku976gpuAD2bXyx1XGraeKuCo1gUZ3LAJcHM12W1ecxZwoiu22R',
  signature:
    'sigpWi99kgMJEUxDtF9HykqfASTiKiHhuhuBh1YtszXnuDmSfn8u1uPVyiD4JWDeNCxVS81yxZZwpKHnezaUd8s7snjiEGvq',
  chain_id: 'NetXdQprcVkpaWU',
  bytes: '00',
  string: 'x',
  lambda: '{ DROP ; UNIT ; FAILWITH }',
};

/** Fills an empty model like a user would: a sample in every text field, one item in every list. */
function fillModel(schema: JsonSchema, model: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...model };
  for (const [k, p] of Object.entries(schema.properties ?? {})) {
    if (k === 'schemaKey') continue;
    const v = out[k];
    if (p.oneOf) {
      const key = (v as { schemaKey: string }).schemaKey;
      const branch =
        p.prim === 'option' ? p.oneOf[1]! : p.oneOf.find((b) => b.properties?.schemaKey?.const === key)!;
      const filled = fillModel(branch, emptyModel(branch));
      out[k] = { ...filled, schemaKey: branch.properties!.schemaKey!.const };
    } else if (p.type === 'array') out[k] = [fillModel(p.items!, emptyModel(p.items!))];
    else if (p.type === 'object') out[k] = fillModel(p, (v ?? {}) as Record<string, unknown>);
    else if (p.prim && p.prim in SAMPLES && v === '') out[k] = SAMPLES[p.prim];
  }
  return out;
}

/**
 * michel-codec rejects `contract T` literals and some field annotations (§1.8): validate contracts as
 * addresses, without annotations.
 */
function forValidation(t: Micheline): Micheline {
  if (Array.isArray(t)) return t.map(forValidation);
  if (!isPrim(t)) return t;
  if (t.prim === 'contract') return { prim: 'address' };
  return t.args ? { prim: t.prim, args: t.args.map(forValidation) } : { prim: t.prim };
}

// lambdas: the sample body always fails, which michel-codec refuses as data
const UNFILLABLE = new Set([
  'lambda',
  'ticket',
  'sapling_state',
  'sapling_transaction',
  'never',
  'operation',
  'bls12_381_fr',
  'bls12_381_g1',
  'bls12_381_g2',
  'chest',
  'chest_key',
  'big_map',
]);
const usesUnfillable = (t: Micheline): boolean => {
  let found = false;
  walkMicheline(t, (n) => void (isPrim(n) && UNFILLABLE.has(n.prim) && (found = true)));
  return found;
};

const contracts = load();

/** Michelson sources (.tz) of contracts with tickets, views, events, lambdas, timelock. */
function loadSources(): { id: string; text: string }[] {
  if (!hasShared) return [];
  const root = path.join(SHARED, 'fixtures/contracts/source-tz');
  const out: { id: string; text: string }[] = [];
  for (const d of readdirSync(root)) {
    const dir = path.join(root, d);
    if (!existsSync(dir) || d.endsWith('.json')) continue;
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.tz')))
      out.push({ id: `${d}/${f}`, text: readFileSync(path.join(dir, f), 'utf8') });
  }
  return out;
}
const sources = loadSources();

describe.skipIf(!hasShared)(`corpus: ${sources.length} Michelson sources`, () => {
  it.each(sources.map((s) => [s.id, s] as const))('%s', (_id, s) => {
    const code = parseMichelsonScript(s.text);
    expect(parseMichelsonScript(formatMichelson(code))).toEqual(code);
    const param = buildTypeTree(scriptSection(code, 'parameter')!);
    const storage = buildTypeTree(scriptSection(code, 'storage')!);
    expect(typedefOf(param)!.length).toBeGreaterThan(0);
    expect(typedefOf(storage)!.length).toBeGreaterThan(0);
    for (const leaf of entrypointLeaves(param))
      expect(entrypointSchemaOf(param, leaf.name)!.type).toBe('object');
  });
});

describe.skipIf(!hasShared)(`corpus: ${contracts.length} real contracts`, () => {
  it.each(contracts.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    // code parses (michel-codec validates the JSON) and its Michelson text re-parses to the same Micheline
    expect(() => expandMicheline(c.code, { expandMacros: false })).not.toThrow();
    const text = formatMichelson(c.code);
    expect(parseMichelsonScript(text)).toEqual(c.code);

    const param = buildTypeTree(scriptSection(c.code, 'parameter')!);
    const storageType = buildTypeTree(scriptSection(c.code, 'storage')!);
    expect(typedefOf(param)!.length).toBeGreaterThan(0);
    expect(typedefOf(storageType)!.length).toBeGreaterThan(0);
    expect(entrypointsDocsOf(param).length).toBe(entrypointLeaves(param).length);

    if (c.storage !== undefined) expect(toMiguel(storageType, c.storage)[0]!.prim).toBe(storageType.prim);

    for (const leaf of entrypointLeaves(param)) {
      const epType = entrypointType(param, leaf.name)!;
      if (usesUnfillable(epType)) continue;
      const schema = entrypointSchemaOf(param, leaf.name)!;
      const data = fillModel(schema, emptyModel(schema));
      const { entrypoint, value } = parametersForExecution(param, leaf.name, data);
      const type =
        entrypoint === 'default' && leaf.node.fieldName === undefined
          ? scriptSection(c.code, 'parameter')!
          : epType;
      expect(
        () => assertDataValid(value as never, forValidation(type) as never),
        `${leaf.name}: ${JSON.stringify(value)}`,
      ).not.toThrow();
    }

    for (const call of c.calls) {
      const [node] = decodeParameters(param, call);
      expect(node!.name).toBeTruthy();
      if (call.text !== undefined) {
        // Michelson text -> Micheline gives the node's JSON, and our inline rendering re-parses to it
        expect(parseMichelsonExpression(call.text)).toEqual(call.value);
        expect(parseMichelsonExpression(formatMichelsonInline(call.value))).toEqual(call.value);
      }
    }
  });
});
