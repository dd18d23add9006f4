// The chain state as a flat key-value store with copy-on-write forks.
//
// Keys: `a:<tz…>` implicit account, `c:<KT1…>` originated contract (`k:<KT1…>` its code), `b:<id>` big map info,
// `v:<id>:<expr…>` big map entry, `g:<expr…>` global constant, `n:<name>` counters, `x:<address>`
// address-registry index. Values are JSON-safe (numbers as decimal strings) so that a block's
// changes can be logged as-is: each stored block keeps the pre-images (`undo`) and post-images
// (`redo`) of the keys it changed, which gives historic reads and crash recovery for free.
import type { Expr } from '@michelscope/interpreter';

/** A stored value; `null` in undo/redo logs means "absent". */
export type Value = string | number | boolean | object;
export type Changes = Record<string, Value | null>;

const DELETED = Symbol('deleted');

export class Kv {
  private readonly own = new Map<string, Value | typeof DELETED>();

  constructor(private readonly parent?: Kv) {}

  get(key: string): Value | undefined {
    const v = this.own.get(key);
    if (v === DELETED) return undefined;
    if (v !== undefined) return v;
    return this.parent?.get(key);
  }

  set(key: string, value: Value | null | undefined): void {
    if (value === undefined || value === null) {
      if (this.parent) this.own.set(key, DELETED);
      else this.own.delete(key);
    } else this.own.set(key, value);
  }

  /** A child whose writes stay invisible to this store until `commit()`. */
  fork(): Kv {
    return new Kv(this);
  }

  /** Writes this fork's changes into its parent. */
  commit(): void {
    if (!this.parent) throw new Error('cannot commit the root state');
    for (const [k, v] of this.own) this.parent.set(k, v === DELETED ? undefined : v);
    this.own.clear();
  }

  /** This fork's own changes (null = deleted). */
  changes(): Changes {
    const out: Changes = {};
    for (const [k, v] of this.own) out[k] = v === DELETED ? null : v;
    return out;
  }

  /** Every live key starting with `prefix`, parents included. */
  keys(prefix: string): string[] {
    const seen = new Set(this.parent?.keys(prefix) ?? []);
    for (const [k, v] of this.own) {
      if (!k.startsWith(prefix)) continue;
      if (v === DELETED) seen.delete(k);
      else seen.add(k);
    }
    return [...seen];
  }

  /** Root only: the whole store as a plain object. */
  toJSON(): Record<string, Value> {
    const out: Record<string, Value> = {};
    for (const [k, v] of this.own) if (v !== DELETED) out[k] = v;
    return out;
  }

  static fromJSON(data: unknown): Kv {
    if (!data || typeof data !== 'object') throw new Error('state snapshot is not an object');
    const kv = new Kv();
    for (const [k, v] of Object.entries(data as Record<string, Value>)) kv.set(k, v);
    return kv;
  }

  /** A read-only view of `base` with some keys overridden (historic state). */
  static overlay(base: Kv, overrides: Changes): Kv {
    const kv = new Kv(base);
    for (const [k, v] of Object.entries(overrides)) kv.set(k, v);
    return kv;
  }
}

export interface ImplicitRecord {
  balance: string;
  counter: string;
  manager?: string;
  delegate?: string;
}

export interface ContractRecord {
  balance: string;
  code: Expr[];
  storage: Expr;
  delegate?: string;
  /** Bytes used by code + storage + owned big maps, and bytes already paid for. */
  used: string;
  paid: string;
  /** Level of the origination. */
  level: number;
}

export interface BigMapRecord {
  key_type: Expr;
  value_type: Expr;
  total_bytes: string;
}

/** A Sapling state (`s:<id>`): its memo size; no commitments are ever added in the sandbox. */
export interface SaplingStateRecord {
  memo_size: number;
  total_bytes: string;
}

export interface BigMapEntryRecord {
  key: Expr;
  value: Expr;
}

/** The zero implicit account (tz1 of 20 zero bytes), the address registry's entry 0. */
export const ZERO_ADDRESS = 'tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU';

export function isOriginated(address: string): boolean {
  return address.startsWith('KT1');
}

/** Typed accessors over a Kv. */
export class State {
  constructor(readonly kv: Kv) {}

  fork(): State {
    return new State(this.kv.fork());
  }

  commit(): void {
    this.kv.commit();
  }

  implicit(pkh: string): ImplicitRecord | undefined {
    return this.kv.get(`a:${pkh}`) as ImplicitRecord | undefined;
  }

  setImplicit(pkh: string, rec: ImplicitRecord | undefined): void {
    this.kv.set(`a:${pkh}`, rec);
  }

  /** The code lives under its own key (`k:`), written once: calls only rewrite the small `c:` record. */
  contract(address: string): ContractRecord | undefined {
    const rec = this.kv.get(`c:${address}`) as (Omit<ContractRecord, 'code'> & { code?: Expr[] }) | undefined;
    if (!rec) return undefined;
    return { ...rec, code: (this.kv.get(`k:${address}`) as Expr[] | undefined) ?? rec.code ?? [] };
  }

  setContract(address: string, rec: ContractRecord): void {
    const { code, ...rest } = rec;
    this.kv.set(`c:${address}`, rest);
    if (this.kv.get(`k:${address}`) !== code) this.kv.set(`k:${address}`, code);
  }

  contracts(): string[] {
    return this.kv.keys('c:').map((k) => k.slice(2));
  }

  /** Balance of any address (0 for an unknown one). */
  balance(address: string): bigint {
    const rec = isOriginated(address) ? this.contract(address) : this.implicit(address);
    return BigInt(rec?.balance ?? '0');
  }

  /** Adds `amount` (may be negative) to a balance; creates an implicit account on first credit. */
  credit(address: string, amount: bigint): void {
    if (isOriginated(address)) {
      const c = this.contract(address);
      if (!c) throw new Error(`unknown contract ${address}`);
      this.setContract(address, { ...c, balance: String(BigInt(c.balance) + amount) });
      return;
    }
    const a = this.implicit(address);
    this.setImplicit(
      address,
      a ? { ...a, balance: String(BigInt(a.balance) + amount) } : { balance: String(amount), counter: '0' },
    );
  }

  bigMap(id: string): BigMapRecord | undefined {
    return this.kv.get(`b:${id}`) as BigMapRecord | undefined;
  }

  setBigMap(id: string, rec: BigMapRecord | undefined): void {
    this.kv.set(`b:${id}`, rec);
  }

  /** Deletes the temporary big maps and Sapling states (negative ids), and the big maps' entries. */
  dropTemporaryBigMaps(): void {
    for (const key of this.kv.keys('b:-')) {
      const id = key.slice(2);
      for (const h of this.bigMapKeyHashes(id)) this.setBigMapEntry(id, h, undefined);
      this.setBigMap(id, undefined);
    }
    for (const key of this.kv.keys('s:-')) this.kv.set(key, undefined);
  }

  saplingState(id: string): SaplingStateRecord | undefined {
    return this.kv.get(`s:${id}`) as SaplingStateRecord | undefined;
  }

  setSaplingState(id: string, rec: SaplingStateRecord | undefined): void {
    this.kv.set(`s:${id}`, rec);
  }

  /** Next fresh Sapling state id: a counter of its own, as Octez's Storage.Sapling.Next (from 0). */
  nextSaplingId(): bigint {
    const n = BigInt((this.kv.get('n:sapling') as string | undefined) ?? '0');
    this.kv.set('n:sapling', String(n + 1n));
    return n;
  }

  bigMapEntry(id: string, keyHash: string): BigMapEntryRecord | undefined {
    return this.kv.get(`v:${id}:${keyHash}`) as BigMapEntryRecord | undefined;
  }

  setBigMapEntry(id: string, keyHash: string, rec: BigMapEntryRecord | undefined): void {
    this.kv.set(`v:${id}:${keyHash}`, rec);
  }

  bigMapKeyHashes(id: string): string[] {
    const prefix = `v:${id}:`;
    return this.kv
      .keys(prefix)
      .map((k) => k.slice(prefix.length))
      .sort();
  }

  /** Next fresh big-map id (ids start at 0, like the node's). */
  nextBigMapId(): bigint {
    const n = BigInt((this.kv.get('n:big_map') as string | undefined) ?? '0');
    this.kv.set('n:big_map', String(n + 1n));
    return n;
  }

  constant(hash: string): Expr | undefined {
    return this.kv.get(`g:${hash}`) as Expr | undefined;
  }

  setConstant(hash: string, value: Expr): void {
    this.kv.set(`g:${hash}`, value);
  }

  /** Octez' ticket-balance table: tickets of an owner (implicit or contract) by token (`t:<owner>:<token JSON>`). */
  ticketBalance(owner: string, token: object): bigint {
    const rec = this.kv.get(`t:${owner}:${JSON.stringify(token)}`) as { amount: string } | undefined;
    return BigInt(rec?.amount ?? '0');
  }

  setTicketBalance(owner: string, token: object, amount: bigint): void {
    this.kv.set(
      `t:${owner}:${JSON.stringify(token)}`,
      amount === 0n ? undefined : { token, amount: String(amount) },
    );
  }

  ticketsOf(owner: string): Array<{ token: object; amount: string }> {
    return this.kv.keys(`t:${owner}:`).map((k) => this.kv.get(k) as { token: object; amount: string });
  }

  /**
   * Tallinn's address registry (INDEX_ADDRESS). As Octez's address_registry_storage.ml `init`, the zero implicit
   * account holds index 0, so the first address indexed gets 1 (a chain that indexed before this rule keeps its
   * own numbering: its counter is already stored).
   */
  addressIndex(address: string, create: boolean): bigint | null {
    const found = this.kv.get(`x:${address}`) as string | undefined;
    if (found !== undefined) return BigInt(found);
    const next = this.kv.get('n:address_index') as string | undefined;
    if (next === undefined && address === ZERO_ADDRESS) return 0n;
    if (!create) return null;
    if (next === undefined) this.kv.set(`x:${ZERO_ADDRESS}`, '0');
    const n = next === undefined ? 1n : BigInt(next);
    this.kv.set('n:address_index', String(n + 1n));
    this.kv.set(`x:${address}`, String(n));
    return n;
  }

  /** Delegate of an implicit account or contract, if any. */
  delegate(address: string): string | undefined {
    return (isOriginated(address) ? this.contract(address) : this.implicit(address))?.delegate;
  }

  /** Registered delegates (implicit accounts delegating to themselves). */
  isDelegate(pkh: string): boolean {
    return this.implicit(pkh)?.delegate === pkh;
  }
}
