/**
 * The worker's part of a replay of an indexed call (its inputs: replay-input.ts): the call rewritten in the form
 * the chain held its values (asOnChain), and the replay's result compared with what the chain recorded
 * (compareReplay).
 */
import {
  defaultEnv,
  Interpreter,
  loadScript,
  parseData,
  unparse,
  type ChainContext,
  type LazyStorageDiffItem,
} from '@michelscope/interpreter';
import {
  formatMichelsonInline,
  originatedContractAddress,
  readableValue,
  type Micheline,
} from '@michelscope/michelson';
import { canonical } from './canonical';
import type { DebugCall, DebugRecording } from './record';

/**
 * A replay as the chain ran it: the call's storage and the big-map values it
 * reads in the form the chain holds them, the Optimized unparse of the typed value (addresses as bytes, right
 * combs of four or more as sequences, …), whose size is what decoding and parsing them costs (the index may
 * keep another form of the same value; a node's RPC prints big-map values readable); and the addresses its
 * CREATE_CONTRACTs get from the group's origination nonce. A value that does not parse is left as it is (the
 * run then says why).
 */
export function asOnChain(call: DebugCall, chain: ChainContext): { call: DebugCall; chain: ChainContext } {
  const parse = (e: Micheline, ty: Parameters<typeof parseData>[1]) => {
    const it = new Interpreter({ env: defaultEnv({ chainId: call.chainId }), chain });
    return unparse(parseData(e, ty, { ...it.dataContext(), allowTickets: true }), 'Optimized');
  };
  const seen: ChainContext = { ...chain };
  if (chain.bigMapGet)
    seen.bigMapGet = (id, key, keyHash) => {
      const e = chain.bigMapGet!(id, key, keyHash);
      const t = e === null ? null : chain.bigMapTypes?.(id);
      try {
        return e !== null && t ? parse(e, t.value) : e;
      } catch {
        return e;
      }
    };
  if (call.originations) {
    const { hash, before } = call.originations;
    let next = before;
    seen.originatedAddress = () => originatedContractAddress(hash, next++);
  }
  try {
    const loaded = loadScript(call.script, chain);
    return { call: { ...call, storage: parse(call.storage, loaded.storageTy) }, chain: seen };
  } catch {
    return { call, chain: seen };
  }
}

/** What the chain recorded for a call that is replayed: compared with the replay's result. */
export interface RecordedResult {
  status: string;
  /** storage after the call (applied calls) */
  storage?: Micheline;
  storageType: Micheline;
  /** the receipt's consumed milligas without the fixed costs of a call (the script's share) */
  milligas: number;
  /**
   * The entries of big maps the call wrote (applied calls; `value` null: removed), as the index has them; the
   * temporary big maps it passed on are not among them. Undefined: not compared (more than the index read).
   */
  bigMapDiffs?: { ptr: number; key_hash: string; value: unknown }[];
  /**
   * A call backtracked with `storage_exhausted.operation` (it ran to its end, then its storage growth passed its
   * limit): the bytes its receipt says its contract would have paid for. The replay must run out of storage too.
   */
  storageExhausted?: { contract: string; paid: number };
  /** A failed call's FAILWITH value, as its receipt's script_rejected error has it. */
  failedWith?: Micheline;
}

export interface ReplayComparison {
  recorded: { status: string; consumed_milligas: number; storage?: Micheline };
  equal: boolean;
  /** what differs, in words ('status: recorded applied, replayed failed', …) */
  differences: string[];
}

/** A big-map value written the same way whatever its form (readable or optimized, macros): its canonical text. */
export type ValueText = (ptr: number, value: Micheline) => string;

/**
 * A ValueText that reads values with their big map's value type and writes them as the chain would (Optimized),
 * else as they are.
 */
export function chainValueText(chain: ChainContext, chainId: string): ValueText {
  return (ptr, value) => {
    try {
      const t = chain.bigMapTypes?.(BigInt(ptr));
      if (!t) return canonical(value);
      const it = new Interpreter({ env: defaultEnv({ chainId }), chain });
      return canonical(
        unparse(parseData(value, t.value, { ...it.dataContext(), allowTickets: true }), 'Optimized'),
      );
    } catch {
      return canonical(value);
    }
  };
}

/** The entries a run wrote in big maps that outlive it (ids ≥ 0), `ptr key_hash` → value (null: removed). */
function writtenEntries(diff: readonly LazyStorageDiffItem[], text: ValueText): Map<string, string> {
  const out = new Map<string, string>();
  for (const item of diff) {
    if (item.kind !== 'big_map' || !/^\d+$/.test(item.id) || !('updates' in item.diff)) continue;
    for (const u of item.diff.updates)
      out.set(`${item.id} ${u.key_hash}`, u.value === undefined ? 'null' : text(Number(item.id), u.value));
  }
  return out;
}

/**
 * The replay's status, storage, gas and big-map writes (`lazy`: its lazy-storage diff) against the recorded
 * ones.
 */
export function compareReplay(
  rec: RecordedResult,
  out: DebugRecording,
  lazy: readonly LazyStorageDiffItem[] = [],
  text: ValueText = (_ptr, v) => canonical(v),
): ReplayComparison {
  const differences: string[] = [];
  const exhausted = rec.storageExhausted;
  if (exhausted) {
    // backtracked for its storage: the replay ran the whole script, then its storage check failed
    const f = out.failure;
    if (f?.kind !== 'storage_exhausted' || !f.storage)
      differences.push(
        `status: recorded ${rec.status} (storage exhausted), replayed ${out.status}${f ? ` (${f.kind})` : ''}`,
      );
    else {
      const paid =
        f.storage.contracts.find((c) => c.address === exhausted.contract)?.paid_storage_size_diff ?? 0;
      if (paid !== exhausted.paid)
        differences.push(`storage growth: recorded ${exhausted.paid} bytes, replayed ${paid} bytes`);
      if (rec.milligas !== out.consumed_milligas)
        differences.push(`gas: recorded ${rec.milligas / 1000}, replayed ${out.consumed_milligas / 1000}`);
    }
  } else if (rec.status === 'backtracked' ? out.status !== 'applied' : rec.status !== out.status)
    // a backtracked call ran to its end (its group failed after it): its replay applies
    differences.push(`status: recorded ${rec.status}, replayed ${out.status}`);
  else if (rec.status === 'failed' && rec.failedWith !== undefined && out.failure?.with !== undefined) {
    const text = (v: Micheline) => formatMichelsonInline(v).slice(0, 200);
    if (canonical(rec.failedWith) !== canonical(out.failure.with))
      differences.push(`failed with: recorded ${text(rec.failedWith)}, replayed ${text(out.failure.with)}`);
  }
  // what a call that ran to its end left: compared when the replay ran to its end too
  const ran =
    (rec.status === 'applied' || (rec.status === 'backtracked' && !exhausted)) && out.status === 'applied';
  if (ran && rec.storage !== undefined) {
    const norm = (v: Micheline) => canonical(readableValue(rec.storageType, v));
    if (out.storage === undefined || norm(rec.storage) !== norm(out.storage))
      differences.push('storage after the call differs from the recorded one');
  }
  if (ran && rec.milligas !== out.consumed_milligas)
    differences.push(`gas: recorded ${rec.milligas / 1000}, replayed ${out.consumed_milligas / 1000}`);
  if (ran && rec.bigMapDiffs) {
    const recorded = new Map(
      rec.bigMapDiffs.map((d) => [
        `${d.ptr} ${d.key_hash}`,
        d.value == null ? 'null' : text(d.ptr, d.value as Micheline),
      ]),
    );
    const replayed = writtenEntries(lazy, text);
    const differ = [...new Set([...recorded.keys(), ...replayed.keys()])].filter(
      (k) => recorded.get(k) !== replayed.get(k),
    );
    if (differ.length > 0) {
      const [ptr, keyHash] = differ[0]!.split(' ');
      differences.push(
        `big-map diff: ${differ.length} of ${Math.max(recorded.size, replayed.size)} entries differ ` +
          `(recorded ${recorded.size}, replayed ${replayed.size}; first: big map ${ptr}, key ${keyHash})`,
      );
    }
  }
  return {
    recorded: {
      status: rec.status,
      consumed_milligas: rec.milligas,
      ...(rec.storage !== undefined ? { storage: rec.storage } : {}),
    },
    equal: differences.length === 0,
    differences,
  };
}
