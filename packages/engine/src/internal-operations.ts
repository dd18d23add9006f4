/**
 * The internal operations a contract emits, applied as Octez applies them (apply.ml `apply_internal_operations`):
 * depth first, each operation's own emissions right after it and before its next sibling; the first failure
 * stops the run, the operations not run yet are skipped, and the whole manager operation is backtracked (every
 * result applied before it reads `backtracked`). The sandbox and the what-if both run their calls through
 * `applyInternalOperations`; each gives an `OperationHost` with its own checks, state and result shape.
 */
import type { EmittedOperation, Expr, V } from '@michelscope/interpreter';

/** A transaction a contract emitted, to a contract or an implicit account. */
export interface InternalTransaction {
  source: string;
  destination: string;
  amount: bigint;
  entrypoint: string;
  /** The parameter as Micheline (absent: Unit to %default). */
  parameter?: Expr;
  /** The typed parameter (it may carry tickets). */
  carried?: V;
}

/** An origination by CREATE_CONTRACT, at the address the protocol gave it when the operation was emitted. */
export interface InternalOrigination {
  source: string;
  balance: bigint;
  code: Expr;
  storage: Expr;
  delegate?: string;
  address: string;
}

export interface InternalDelegation {
  source: string;
  /** null: the delegate is withdrawn. */
  delegate: string | null;
}

export interface InternalEvent {
  source: string;
  tag?: string;
  type: Expr;
  payload?: Expr;
}

/**
 * What the sandbox or the what-if does with each kind (gas, checks, state, the result in its entry). A handler
 * that fails throws the host's failure (`isFailure`); any other exception is a bug and goes through.
 */
export interface OperationHost<E> {
  /** The record of an operation when it is emitted, before it runs (it reads `skipped`); depth 1 and on. */
  entry(op: EmittedOperation, depth: number): E;
  /** Applies a transaction; returns the operations the destination contract emitted. */
  transaction(t: InternalTransaction, entry: E): EmittedOperation[];
  origination(o: InternalOrigination, entry: E): void;
  delegation(d: InternalDelegation, entry: E): void;
  event(e: InternalEvent, entry: E): void;
  isFailure(e: unknown): boolean;
}

export interface InternalRun<E> {
  /** Every operation's record: those that ran in the order they ran, then those never run in emission order. */
  entries: E[];
  /** The failure that stopped the run: the host's error and the operation that failed (none: the cap). */
  failure?: { error: unknown; entry?: E };
}

/**
 * Applies the emitted operations and theirs, depth first. `max` caps how many one run may emit (the protocol
 * has none; the what-if stops a cycle of calls there): past it, the run fails with `tooMany()`.
 */
export function applyInternalOperations<E>(
  host: OperationHost<E>,
  emitted: readonly EmittedOperation[],
  limit?: { max: number; tooMany: () => unknown },
): InternalRun<E> {
  const ran: E[] = [];
  /** emitted and not run yet, in emission order */
  const pending: E[] = [];
  const queue: Array<{ op: EmittedOperation; entry: E; depth: number }> = [];
  const enqueue = (ops: readonly EmittedOperation[], depth: number) => {
    if (limit && ran.length + pending.length + ops.length > limit.max) throw limit.tooMany();
    const items = ops.map((op) => ({ op, entry: host.entry(op, depth), depth }));
    pending.push(...items.map((i) => i.entry));
    queue.unshift(...items);
  };
  let current: E | undefined;
  try {
    enqueue(emitted, 1);
    while (queue.length > 0) {
      const { op, entry, depth } = queue.shift()!;
      current = entry;
      ran.push(entry);
      pending.splice(pending.indexOf(entry), 1);
      const next = applyOne(host, op, entry);
      current = undefined;
      enqueue(next, depth + 1);
    }
    return { entries: ran };
  } catch (error) {
    if (!host.isFailure(error)) throw error;
    return {
      entries: [...ran, ...pending],
      failure: current === undefined ? { error } : { error, entry: current },
    };
  }
}

function applyOne<E>(host: OperationHost<E>, op: EmittedOperation, entry: E): EmittedOperation[] {
  const j = op.json;
  switch (j.kind) {
    case 'transaction': {
      const raw = op.raw as Extract<EmittedOperation['raw'], { kind: 'transaction' }>;
      return host.transaction(
        {
          source: j.source,
          destination: j.destination,
          amount: BigInt(j.amount),
          entrypoint: j.parameters?.entrypoint ?? 'default',
          ...(j.parameters ? { parameter: j.parameters.value } : {}),
          ...(raw?.parameter ? { carried: raw.parameter } : {}),
        },
        entry,
      );
    }
    case 'origination': {
      const raw = op.raw as Extract<EmittedOperation['raw'], { kind: 'origination' }>;
      host.origination(
        {
          source: j.source,
          balance: BigInt(j.balance),
          code: j.script.code,
          storage: j.script.storage,
          ...(j.delegate ? { delegate: j.delegate } : {}),
          address: raw.address,
        },
        entry,
      );
      return [];
    }
    case 'delegation':
      host.delegation({ source: j.source, delegate: j.delegate ?? null }, entry);
      return [];
    case 'event':
      host.event(
        {
          source: j.source,
          type: j.type,
          ...(j.tag ? { tag: j.tag } : {}),
          ...(j.payload !== undefined ? { payload: j.payload } : {}),
        },
        entry,
      );
      return [];
  }
}

/**
 * The backtrack rule of a failed manager operation: results applied before the failure read `backtracked`
 * (the failed one keeps `failed`, those never run `skipped`).
 */
export function backtrack<E>(entries: readonly E[], status: (e: E) => { status: string }): void {
  for (const e of entries) {
    const s = status(e);
    if (s.status === 'applied') s.status = 'backtracked';
  }
}
