/**
 * Form data (the shape of the JSON schema, bcd-api.md §5.3) -> Micheline, with the validation
 * texts of the workspace spec §5. Also `parametersForExecution` (entrypoint + form data -> the
 * `{entrypoint, value}` of a transaction).
 */
import { b58Encode, PrefixV2, ValidationResult, validateAddress } from '@taquito/utils';
import {
  MichelsonDataError,
  parseMichelsonExpression,
  parseMichelsonScript,
  walkMicheline,
} from './micheline';
import type { Micheline } from './micheline-core';
import { buildTypeTree, entrypointLeaves, SIMPLE_TYPES } from './type-tree';
import type { TypeNode } from './type-tree';
import { preview } from './value';
import { compareValues } from './compare';

/** A field failed validation. `message` is the exact user-facing text; `field` the form key. */
export class FormValidationError extends MichelsonDataError {
  override name = 'FormValidationError';
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

export const FORM_MESSAGES = {
  required: 'Required field',
  notFilled: 'some required fields are not filled',
  natDigits: 'Only digits are allowed',
  natRequired: 'Nat field is required',
  natPositive: 'Nat must be positive',
  natLeadingZero: "Nat can't starts from zero",
  bytesEven: 'The length of the byte string must be even',
  bytesChars: 'Only 0-9 and a-f are allowed',
  bytesHex: 'String must be HEX',
  addressLength: 'The length of the address is 36 characters',
  addressFormat: 'In this field you should write the address',
  contractLength: 'The length of the contract address is 36 characters',
  contractFormat: 'In this field you should write the address of the contract. It begins with KT.',
} as const;

type FormObject = Record<string, unknown>;
const isObject = (x: unknown): x is FormObject => typeof x === 'object' && x !== null && !Array.isArray(x);
const fail = (msg: string, field: string): never => {
  throw new FormValidationError(msg, field);
};

/** Validates a nat/mutez text with the spec's messages; returns the canonical digits. */
export function checkNat(value: string, field = ''): string {
  const s = value.trim();
  if (s === '') fail(FORM_MESSAGES.natRequired, field);
  if (s.startsWith('-') && /^-\d+$/.test(s)) fail(FORM_MESSAGES.natPositive, field);
  if (!/^\d+$/.test(s)) fail(FORM_MESSAGES.natDigits, field);
  if (s.length > 1 && s.startsWith('0')) fail(FORM_MESSAGES.natLeadingZero, field);
  return s;
}

/** Validates hex bytes (optional 0x); returns lower-case hex without prefix. */
export function checkBytes(value: string, field = ''): string {
  const s = value.trim().replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]*$/.test(s)) fail(FORM_MESSAGES.bytesHex, field);
  if (s.length % 2 !== 0) fail(FORM_MESSAGES.bytesEven, field);
  return s.toLowerCase();
}

/** Validates an address (tz1-4, KT1, sr1; checksum checked). */
export function checkAddress(value: string, field = ''): string {
  const s = value.trim();
  if (s === '') fail(FORM_MESSAGES.required, field);
  if (s.length !== 36) fail(FORM_MESSAGES.addressLength, field);
  if (!/^(tz[1-4]|KT1|sr1)/.test(s) || validateAddress(s) !== ValidationResult.VALID)
    fail(FORM_MESSAGES.addressFormat, field);
  return s;
}

/**
 * Validates a `contract T` value: a KT1 address with an optional `%entrypoint`; implicit accounts
 * are also accepted for `contract unit` (they can receive tez).
 */
export function checkContract(value: string, field = '', allowImplicit = false): string {
  const s = value.trim();
  if (s === '') fail(FORM_MESSAGES.required, field);
  const [addr = '', ep] = s.split('%', 2);
  if (addr.length !== 36) fail(FORM_MESSAGES.contractLength, field);
  const prefixOk = addr.startsWith('KT1') || (allowImplicit && /^tz[1-4]/.test(addr));
  if (!prefixOk || validateAddress(addr) !== ValidationResult.VALID)
    fail(FORM_MESSAGES.contractFormat, field);
  if (ep !== undefined && !/^[A-Za-z0-9_.%@]{1,31}$/.test(ep)) fail(FORM_MESSAGES.contractFormat, field);
  return s;
}

function intValue(n: TypeNode, v: unknown): Micheline {
  if (v === null) return { int: null as unknown as string }; // the reference keeps an explicit null
  const s =
    typeof v === 'number'
      ? Number.isInteger(v)
        ? BigInt(v).toString()
        : String(v)
      : typeof v === 'string'
        ? v
        : undefined;
  if (s === undefined) return fail(FORM_MESSAGES.natDigits, n.name);
  if (n.prim === 'int') {
    const t = s.trim();
    if (t === '') fail(FORM_MESSAGES.natRequired.replace('Nat', 'Int'), n.name);
    if (!/^-?\d+$/.test(t)) fail(FORM_MESSAGES.natDigits, n.name);
    return { int: BigInt(t).toString() };
  }
  return { int: checkNat(s, n.name) };
}

function timestampValue(n: TypeNode, v: unknown): Micheline {
  if (v === null) return { int: null as unknown as string };
  if (typeof v === 'number' && Number.isInteger(v)) return { int: String(v) };
  if (typeof v === 'string') {
    const t = v.trim();
    if (/^-?\d+$/.test(t)) return { int: t };
    const ms = Date.parse(t);
    if (/^\d{4}-\d{2}-\d{2}T/.test(t) && !Number.isNaN(ms)) return { int: String(Math.floor(ms / 1000)) };
  }
  return fail(`invalid timestamp (RFC 3339 or unix seconds expected): ${preview(v)}`, n.name);
}

function lambdaValue(n: TypeNode, v: unknown): Micheline {
  if (typeof v !== 'string' || v.trim() === '') return fail(FORM_MESSAGES.required, n.name);
  const t = v.trim();
  try {
    // a braced block is one item of the lambda's sequence (as the reference's translator returns it)
    if (t.startsWith('{') && t.endsWith('}')) return [parseMichelsonExpression(t, { expandMacros: true })];
    return parseMichelsonScript(t, { expandMacros: true });
  } catch (e) {
    return fail(e instanceof Error ? e.message : String(e), n.name);
  }
}

/** Key of a leaf in the form data: its name, or (as the reference accepts for lambdas) its type annotation. */
function leafKey(n: TypeNode, data: FormObject): string | undefined {
  if (n.name in data) return n.name;
  if (n.typeName !== undefined && n.typeName in data) return n.typeName;
  return undefined;
}

function leafValue(n: TypeNode, data: FormObject): Micheline {
  const key = leafKey(n, data);
  if (key === undefined) return fail(FORM_MESSAGES.notFilled, n.name);
  const v = data[key];
  switch (n.prim) {
    case 'int':
    case 'nat':
    case 'mutez':
      return intValue(n, v);
    case 'timestamp':
      return timestampValue(n, v);
    case 'bool':
      if (v === null || v === false || v === 'false') return { prim: 'False' };
      if (v === true || v === 'true') return { prim: 'True' };
      return fail(`bool expected: ${preview(v)}`, n.name);
    case 'lambda':
      return lambdaValue(n, v);
    case 'never':
      return fail('a value of type never cannot be built', n.name);
    default:
      break;
  }
  if (v === null || v === undefined) return fail(FORM_MESSAGES.required, n.name);
  if (typeof v !== 'string') return fail(`string expected: ${preview(v)}`, n.name);
  switch (n.prim) {
    case 'bytes':
    case 'sapling_transaction':
    case 'sapling_transaction_deprecated':
    case 'chest':
    case 'chest_key':
    case 'bls12_381_g1':
    case 'bls12_381_g2':
      return { bytes: checkBytes(v, n.name) };
    case 'bls12_381_fr':
      return /^-?\d+$/.test(v.trim()) ? { int: v.trim() } : { bytes: checkBytes(v, n.name) };
    case 'address':
      return { string: checkAddress(v, n.name) };
    case 'contract': {
      const p = n.args[0]!;
      return { string: checkContract(v, n.name, p.prim === 'unit') };
    }
    case 'signature':
      // a hex signature is accepted and written in base58, like the reference
      if (/^[0-9a-fA-F]{128}$/.test(v.trim()))
        return { string: b58Encode(v.trim(), PrefixV2.GenericSignature) };
      return { string: v.trim() };
    case 'sapling_state':
      return /^\d+$/.test(v.trim()) ? { int: v.trim() } : fail(FORM_MESSAGES.natDigits, n.name);
    default:
      return { string: v };
  }
}

function orValue(n: TypeNode, data: FormObject): Micheline {
  const obj = data[n.name];
  if (!isObject(obj) || typeof obj.schemaKey !== 'string') return fail(FORM_MESSAGES.notFilled, n.name);
  const path = obj.schemaKey;
  if (!/^[LR]+$/.test(path)) return fail(`unknown branch ${preview(path)}`, n.name);
  let node = n;
  for (let i = 0; i < path.length; i++) {
    if (node.prim !== 'or') return fail(`unknown branch ${path}`, n.name);
    node = node.args[path[i] === 'L' ? 0 : 1]!;
  }
  if (node.prim === 'or') return fail(`unknown branch ${path}`, n.name);
  let v = fromForm(node, obj);
  for (let i = path.length - 1; i >= 0; i--) v = { prim: path[i] === 'L' ? 'Left' : 'Right', args: [v] };
  return v;
}

function itemsOf(n: TypeNode, data: FormObject): FormObject[] {
  const arr = data[n.name];
  if (arr === null || arr === undefined) return [];
  if (!Array.isArray(arr)) return fail(`array expected: ${preview(arr)}`, n.name);
  return arr.map((x) => (isObject(x) ? x : fail(`object expected: ${preview(x)}`, n.name)));
}

/** Michelson requires sorted map keys and set elements: sort what the user typed in any order. */
function sortedBy<T>(keyType: TypeNode, items: T[], key: (x: T) => Micheline): T[] {
  try {
    return [...items].sort((a, b) => compareValues(keyType, key(a), key(b)));
  } catch {
    return items; // incomparable input (e.g. an empty number): left for validation to report
  }
}

function hasNullInt(v: Micheline): boolean {
  let found = false;
  walkMicheline(v, (n) => {
    if (typeof n === 'object' && n !== null && 'int' in n && (n as { int: unknown }).int === null)
      found = true;
  });
  return found;
}

/** Converts the form data of one node to Micheline. */
export function fromForm(n: TypeNode, data: FormObject): Micheline {
  switch (n.prim) {
    case 'pair': {
      const own = data[n.name];
      const sub = isObject(own) ? own : data;
      return { prim: 'Pair', args: [fromForm(n.args[0]!, sub), fromForm(n.args[1]!, sub)] };
    }
    case 'or':
      return orValue(n, data);
    case 'option': {
      const obj = data[n.name];
      if (obj === undefined || obj === null) return { prim: 'None' };
      if (!isObject(obj)) return fail(`object expected: ${preview(obj)}`, n.name);
      if (obj.schemaKey === 'None') return { prim: 'None' };
      if (obj.schemaKey !== 'Some') return fail(FORM_MESSAGES.notFilled, n.name);
      return { prim: 'Some', args: [fromForm(n.args[0]!, obj)] };
    }
    case 'list':
      return itemsOf(n, data).map((it) => fromForm(n.args[0]!, it));
    case 'set':
      return sortedBy(
        n.args[0]!,
        itemsOf(n, data).map((it) => fromForm(n.args[0]!, it)),
        (x) => x,
      );
    case 'map':
    case 'big_map': {
      const elts = itemsOf(n, data).map((it) => ({
        prim: 'Elt',
        args: [fromForm(n.args[0]!, it), fromForm(n.args[1]!, it)],
      }));
      return sortedBy(n.args[0]!, elts, (e) => e.args[0]!);
    }
    case 'unit':
      return { prim: 'Unit' };
    case 'ticket':
      return fromForm(n.ticketPair!, data);
    default:
      if (
        SIMPLE_TYPES.has(n.prim) ||
        n.prim === 'contract' ||
        n.prim === 'lambda' ||
        n.prim.startsWith('sapling')
      )
        return leafValue(n, data);
      return fail(`unsupported type ${n.prim}`, n.name);
  }
}

/** Form data -> Micheline for a whole type (`FromJSONSchema` + `ToParameters("")`). */
export function formToMicheline(type: Micheline | TypeNode, data: unknown): Micheline {
  const tree = 'id' in (type as object) ? (type as TypeNode) : buildTypeTree(type);
  if (!isObject(data)) throw new FormValidationError('form data must be an object', '');
  return fromForm(tree, data);
}

/**
 * Parameters of a call from the entrypoint form (`ParametersForExecution`): an unnamed branch
 * (`entrypoint_<n>`) is wrapped in Left/Right and sent to `default`; a named pair entrypoint gets
 * its fields at the top level of `data`.
 */
export function parametersForExecution(
  parameterType: Micheline | TypeNode,
  entrypoint: string,
  data: unknown,
): { entrypoint: string; value: Micheline } {
  const tree = 'id' in (parameterType as object) ? (parameterType as TypeNode) : buildTypeTree(parameterType);
  if (!isObject(data)) throw new FormValidationError('form data must be an object', '');
  const leaf =
    entrypointLeaves(tree).find((l) => l.name === entrypoint) ??
    (tree.fieldName === entrypoint ? { name: entrypoint, node: tree, path: '' } : undefined);
  if (!leaf) throw new MichelsonDataError(`unknown entrypoint: ${entrypoint}`);
  const input =
    leaf.node.prim === 'pair' && leaf.node.fieldName !== undefined && !(leaf.node.name in data)
      ? { [leaf.node.name]: data }
      : data;
  let value = fromForm(leaf.node, input);
  // the reference forwards `{"int": null}` (an empty number field) to the node, which rejects it
  if (hasNullInt(value)) throw new FormValidationError(FORM_MESSAGES.notFilled, entrypoint);
  if (leaf.node.fieldName !== undefined || tree.prim !== 'or') return { entrypoint, value };
  for (let i = leaf.path.length - 1; i >= 0; i--)
    value = { prim: leaf.path[i] === 'L' ? 'Left' : 'Right', args: [value] };
  return { entrypoint: 'default', value };
}
