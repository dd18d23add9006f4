/**
 * Contract tags and interfaces (bcd-api.md §6.11), with the reference's quirks fixed where §11
 * documents them (multisig never firing, upgradable only at the root). Rules:
 *
 * - CREATE_CONTRACT / SET_DELEGATE / CHAIN_ID / CHECK_SIGNATURE: the primitive appears in the code
 *   (CHAIN_ID also as the `chain_id` type there).
 * - sapling: `sapling_state` or `sapling_transaction` in the code.
 * - fa1, fa1-2, fa2: the parameter's entrypoint types include every type of the interface
 *   (type-only, annotations ignored; an FA1.2 is also fa1).
 * - view_address / view_balance_of / view_nat: the whole parameter is exactly that callback type.
 * - upgradable: some entrypoint takes a lambda structurally equal to a lambda held in the storage
 *   (the reference only compared the two roots).
 * - multisig: an entrypoint takes `pair (pair nat <action>) (list (option signature))` (counter,
 *   action, signatures), the storage starts with `pair nat (pair nat (list key))` (counter,
 *   threshold, keys) and the code checks signatures — the generic and legacy Tezos multisigs.
 * - delegator: the Babylon "manager.tz" shape: parameter `or (lambda %do unit (list operation)) (unit %default)`
 *   and a `key_hash` storage.
 * - ledger: a `%ledger` annotation whose storage node is `big_map address nat`, `big_map nat address`
 *   or `big_map (pair address nat) nat`.
 */
import { isPrim, walkMicheline } from './micheline-core';
import type { Micheline } from './micheline-core';
import { isTypeEqualShape } from './type-equal';
import { buildTypeTree, entrypointLeaves, scriptSection, walkType } from './type-tree';
import type { TypeNode } from './type-tree';
import { parseMichelsonExpression } from './micheline';

/** Tag names in the reference's bit order (bit = 1 << index). */
export const TAG_BITS = [
  'CREATE_CONTRACT',
  'SET_DELEGATE',
  'delegator',
  'CHAIN_ID',
  'CHECK_SIGNATURE',
  'sapling',
  'fa1',
  'fa1-2',
  'fa2',
  'upgradable',
  'multisig',
  'view_address',
  'view_balance_of',
  'view_nat',
  'ledger',
  'implicit_operation',
] as const;
export type Tag = (typeof TAG_BITS)[number];

const T = (s: string): TypeNode => buildTypeTree(parseMichelsonExpression(s));

const INTERFACES: Record<'fa1' | 'fa1-2' | 'fa2', TypeNode[]> = {
  fa1: [
    T('pair address (pair address nat)'),
    T('pair address (contract nat)'),
    T('pair unit (contract nat)'),
  ],
  'fa1-2': [
    T('pair address (pair address nat)'),
    T('pair address (contract nat)'),
    T('pair unit (contract nat)'),
    T('pair address nat'),
    T('pair (pair address address) (contract nat)'),
  ],
  fa2: [
    T('list (pair address (list (pair address (pair nat nat))))'),
    T('pair (list (pair address nat)) (contract (list (pair (pair address nat) nat)))'),
    T('list (or (pair address (pair address nat)) (pair address (pair address nat)))'),
  ],
};
const VIEWS: Record<'view_address' | 'view_balance_of' | 'view_nat', TypeNode> = {
  view_address: T('address'),
  view_balance_of: T('list (pair (pair address nat) nat)'),
  view_nat: T('nat'),
};
const LEDGERS = [T('big_map address nat'), T('big_map nat address'), T('big_map (pair address nat) nat')];
const MULTISIG_STORAGE = T('pair nat (pair nat (list key))');

export type InterfaceName = keyof typeof INTERFACES | keyof typeof VIEWS;

/** True when the parameter type implements the named interface (`FindContractInterface`). */
export function hasInterface(parameter: TypeNode, name: InterfaceName): boolean {
  if (name in VIEWS) return isTypeEqualShape(parameter, VIEWS[name as keyof typeof VIEWS]);
  const leaves = entrypointLeaves(parameter).map((l) => l.node);
  return INTERFACES[name as keyof typeof INTERFACES].every((want) =>
    leaves.some((l) => isTypeEqualShape(l, want)),
  );
}

/** Interfaces of a parameter type, most specific first (`FindContractInterfaces`: fa1-2 before fa1). */
export function contractInterfaces(parameter: TypeNode): InterfaceName[] {
  const order: InterfaceName[] = ['fa2', 'fa1-2', 'fa1'];
  return order.filter((n) => hasInterface(parameter, n));
}

function isMultisig(parameter: TypeNode, storage: TypeNode, codePrims: Set<string>): boolean {
  if (!codePrims.has('CHECK_SIGNATURE')) return false;
  const head = storage.prim === 'pair' ? storage : undefined;
  if (!head || !isTypeEqualShape(head, MULTISIG_STORAGE)) {
    // storage may carry more fields after the keys: compare the first three
    const s = storage;
    const ok =
      s.prim === 'pair' &&
      s.args[0]!.prim === 'nat' &&
      s.args[1]!.prim === 'pair' &&
      s.args[1]!.args[0]!.prim === 'nat' &&
      s.args[1]!.args[1]!.prim === 'list' &&
      s.args[1]!.args[1]!.args[0]!.prim === 'key';
    if (!ok) return false;
  }
  const candidates = [parameter, ...entrypointLeaves(parameter).map((l) => l.node)];
  return candidates.some(
    (n) =>
      n.prim === 'pair' &&
      n.args[0]!.prim === 'pair' &&
      n.args[0]!.args[0]!.prim === 'nat' &&
      n.args[1]!.prim === 'list' &&
      n.args[1]!.args[0]!.prim === 'option' &&
      n.args[1]!.args[0]!.args[0]!.prim === 'signature',
  );
}

/** Contract-level tags of a script (array of parameter / storage / code sections), in bit order. */
export function scriptTags(script: Micheline): Tag[] {
  const paramM = scriptSection(script, 'parameter');
  const storageM = scriptSection(script, 'storage');
  const code = scriptSection(script, 'code');
  const prims = new Set<string>();
  if (code !== undefined)
    walkMicheline(
      code,
      (n) => void (isPrim(n) && prims.add(n.prim.toUpperCase() === n.prim ? n.prim : n.prim.toLowerCase())),
    );
  const tags = new Set<Tag>();
  if (prims.has('CREATE_CONTRACT')) tags.add('CREATE_CONTRACT');
  if (prims.has('SET_DELEGATE')) tags.add('SET_DELEGATE');
  if (prims.has('CHAIN_ID') || prims.has('chain_id')) tags.add('CHAIN_ID');
  if (prims.has('CHECK_SIGNATURE')) tags.add('CHECK_SIGNATURE');
  if (prims.has('sapling_state') || prims.has('sapling_transaction')) tags.add('sapling');
  if (paramM !== undefined && storageM !== undefined) {
    const parameter = buildTypeTree(paramM);
    const storage = buildTypeTree(storageM);
    if (
      isTypeEqualShape(parameter, T('or (lambda unit (list operation)) unit')) &&
      parameter.args[0]!.fieldName === 'do' &&
      storage.prim === 'key_hash'
    )
      tags.add('delegator');
    for (const i of contractInterfaces(parameter)) tags.add(i);
    const lambdas: TypeNode[] = [];
    walkType(storage, (n) => void (n.prim === 'lambda' && lambdas.push(n)));
    const leaves = [parameter, ...entrypointLeaves(parameter).map((l) => l.node)];
    if (
      lambdas.length > 0 &&
      leaves.some((l) => l.prim === 'lambda' && lambdas.some((s) => isTypeEqualShape(l, s)))
    )
      tags.add('upgradable');
    if (isMultisig(parameter, storage, prims)) tags.add('multisig');
    for (const v of ['view_address', 'view_balance_of', 'view_nat'] as const)
      if (hasInterface(parameter, v)) tags.add(v);
    let ledger = false;
    walkType(storage, (n) => {
      if (n.fieldName === 'ledger' && LEDGERS.some((l) => isTypeEqualShape(n, l))) ledger = true;
    });
    if (ledger) tags.add('ledger');
  }
  return TAG_BITS.filter((t) => tags.has(t));
}

/** Bitmask of tags (as the reference stores them). */
export function tagsMask(tags: readonly Tag[]): number {
  return tags.reduce((m, t) => m | (1 << TAG_BITS.indexOf(t)), 0);
}

/** Tag names of a bitmask. */
export function tagsFromMask(mask: number): Tag[] {
  return TAG_BITS.filter((_t, i) => (mask & (1 << i)) !== 0);
}
