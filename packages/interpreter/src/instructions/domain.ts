/** Blockchain-domain instructions: environment, addresses and contracts, emitted operations. */
import { originatedContractAddress } from '@michelscope/michelson';
import { addressToHex, chainIdToHex } from '../encoding';
import { staticError } from '../errors';
import type { Handler, Interpreter } from '../interpreter';
import { pop, register } from '../interpreter';
import type { Expr, ExprPrim, Ty } from '../types';
import {
  NOT_PASSABLE,
  NOT_STORABLE,
  T,
  assertTyEq,
  entrypointPath,
  hasForbidden,
  isPrim,
  showTy,
  toTy,
  tyEq,
  tyToExpr,
} from '../types';
import type { Operation, V } from '../values';
import { asKind, mutez, nat, none, some, timestamp } from '../values';

function address(a: string, ep = ''): V {
  return { k: 'address', t: T.address, hex: addressToHex(a), str: a, ep };
}
function contract(a: string, ep: string, param: Ty): V {
  return { k: 'contract', t: { prim: 'contract', args: [param] }, hex: addressToHex(a), str: a, ep };
}
function op(it: Interpreter, o: Operation): V {
  return { k: 'operation', t: T.operation, op: o };
}
function fieldAnnot(ins: ExprPrim): string | null {
  const a = ins.annots?.find((x) => x.startsWith('%'));
  if (a === undefined) return null;
  const name = a.slice(1);
  if (name.length > 31) throw staticError('invalid_entrypoint', 'entrypoint name too long');
  return name;
}

/** The zero operation hash (32 zero bytes): Octez's script RPCs initialise their origination nonce with it. */
const ZERO_OPERATION_HASH = 'oneDGhZacw99EEFaYDTtWfz5QEhUW3PPVFsHa7GShnLPuDn7gSd';

/**
 * Fresh KT1 address for CREATE_CONTRACT: the chain may decide; else, as Octez's run_code without `self`
 * (lib_plugin/RPC.ml `originate_dummy_contract`: the nonce of the zero operation hash, whose index 0 is the dummy
 * SELF), the run's originations take indexes 1, 2, … (KT1Mjjcb6tmSsLm7Cb3DSQszePjfchPM4Uxm first).
 */
function freshAddress(it: Interpreter, nonce: number): string {
  const fromChain = it.chain.originatedAddress?.(nonce);
  if (fromChain) return fromChain;
  return originatedContractAddress(ZERO_OPERATION_HASH, ++it.originations);
}

function implicitAccepts(t: Ty): boolean {
  return t.prim === 'unit' || t.prim === 'ticket';
}

const table: Record<string, Handler> = {
  AMOUNT(it, _ins, s) {
    s.push(mutez(it.env.amount));
  },
  BALANCE(it, _ins, s) {
    s.push(mutez(it.env.balance));
  },
  NOW(it, _ins, s) {
    s.push(timestamp(it.env.now));
  },
  LEVEL(it, _ins, s) {
    s.push(nat(it.env.level));
  },
  MIN_BLOCK_TIME(it, _ins, s) {
    s.push(nat(it.env.minBlockTime ?? 6n));
  },
  CHAIN_ID(it, _ins, s) {
    s.push({ k: 'chain_id', t: T.chain_id, hex: chainIdToHex(it.env.chainId), str: it.env.chainId });
  },
  SELF_ADDRESS(it, _ins, s) {
    s.push(address(it.env.self));
  },
  SENDER(it, _ins, s) {
    s.push(address(it.env.sender));
  },
  SOURCE(it, _ins, s) {
    s.push(address(it.env.source));
  },
  SELF(it, ins, s) {
    if (it.inView) throw staticError('self_in_lambda', 'SELF is forbidden in views');
    const param = it.env.selfParameter;
    if (!param) throw staticError('self_in_lambda', 'SELF needs the contract parameter type');
    const ep = fieldAnnot(ins) ?? 'default';
    const t = entrypointPath(param, ep)?.ty;
    if (!t) throw staticError('no_such_entrypoint', `no entrypoint ${ep}`);
    s.push(contract(it.env.self, ep === 'default' ? '' : ep, t));
  },
  ADDRESS(_it, _ins, s) {
    const c = asKind(pop(s), 'contract');
    s.push({ k: 'address', t: T.address, hex: c.hex, str: c.str, ep: c.ep });
  },
  CONTRACT(it, ins, s) {
    const t = it.tyArg(ins);
    if (hasForbidden(t, NOT_PASSABLE)) throw staticError('unexpected_type', `CONTRACT of ${showTy(t)}`);
    const a = asKind(pop(s), 'address');
    const annot = fieldAnnot(ins);
    let ep = a.ep;
    if (annot !== null && annot !== 'default') {
      if (ep !== '') {
        s.push(none({ prim: 'contract', args: [t] }));
        return;
      }
      ep = annot;
    }
    const epName = ep === '' ? 'default' : ep;
    let pt: Ty | null;
    if (a.hex.startsWith('00')) pt = epName === 'default' && implicitAccepts(t) ? t : null;
    else pt = it.contractParamType(a.str, epName);
    s.push(pt && tyEq(pt, t) ? some(contract(a.str, ep, t)) : none({ prim: 'contract', args: [t] }));
  },
  IMPLICIT_ACCOUNT(_it, _ins, s) {
    const k = asKind(pop(s), 'key_hash');
    s.push(contract(k.str, '', T.unit));
  },
  IS_IMPLICIT_ACCOUNT(_it, _ins, s) {
    const a = asKind(pop(s), 'address');
    if (!a.hex.startsWith('00')) s.push(none(T.key_hash));
    else s.push(some({ k: 'key_hash', t: T.key_hash, hex: a.hex.slice(2), str: a.str }));
  },
  TRANSFER_TOKENS(it, _ins, s) {
    const param = pop(s);
    const amount = asKind(pop(s), 'num');
    const c = asKind(pop(s), 'contract');
    assertTyEq(param.t, c.t.args[0] as Ty, 'TRANSFER_TOKENS parameter');
    if (hasForbidden(param.t, NOT_PASSABLE))
      throw staticError('unexpected_type', 'operations cannot be passed');
    const nonce = it.nonce++;
    s.push(
      op(it, {
        kind: 'transaction',
        source: it.env.self,
        destination: c.str,
        entrypoint: c.ep || 'default',
        amount: amount.v,
        parameter: param,
        nonce,
      }),
    );
  },
  SET_DELEGATE(it, _ins, s) {
    const d = asKind(pop(s), 'option');
    const delegate = d.v === null ? null : asKind(d.v, 'key_hash').str;
    s.push(op(it, { kind: 'delegation', source: it.env.self, delegate, nonce: it.nonce++ }));
  },
  CREATE_CONTRACT(it, ins, s) {
    const script = it.codeArg(ins, 0);
    const section = (name: string): Expr => {
      const sec = script.find((x) => isPrim(x) && x.prim === name);
      if (!sec || !isPrim(sec) || !sec.args?.[0])
        throw staticError('missing_field', `CREATE_CONTRACT without ${name}`);
      return sec.args[0];
    };
    const storageT = it.cached(script, () => toTy(section('storage')));
    section('parameter');
    section('code');
    const delegate = asKind(pop(s), 'option');
    const amount = asKind(pop(s), 'num');
    const storage = pop(s);
    assertTyEq(storage.t, storageT, 'CREATE_CONTRACT storage');
    if (hasForbidden(storageT, NOT_STORABLE))
      throw staticError('unexpected_type', `storage type ${showTy(storageT)}`);
    const nonce = it.nonce++;
    const addr = freshAddress(it, nonce);
    s.push(address(addr));
    s.push(
      op(it, {
        kind: 'origination',
        source: it.env.self,
        delegate: delegate.v === null ? null : asKind(delegate.v, 'key_hash').str,
        amount: amount.v,
        code: script,
        storage,
        address: addr,
        nonce,
      }),
    );
  },
  EMIT(it, ins, s) {
    const v = pop(s);
    const tag = fieldAnnot(ins) ?? '';
    let type: Expr = tyToExpr(v.t);
    if (ins.args?.[0]) {
      assertTyEq(v.t, it.tyArg(ins, 0), 'EMIT');
      type = ins.args[0];
    }
    if (hasForbidden(v.t, new Set(['operation', 'big_map', 'ticket', 'sapling_state', 'contract']))) {
      throw staticError('unexpected_type', `EMIT of ${showTy(v.t)}`);
    }
    s.push(op(it, { kind: 'event', source: it.env.self, tag, type, payload: v, nonce: it.nonce++ }));
  },
  VOTING_POWER(it, _ins, s) {
    const k = asKind(pop(s), 'key_hash');
    s.push(nat(it.chain.votingPower?.(k.str) ?? 0n));
  },
  TOTAL_VOTING_POWER(it, _ins, s) {
    s.push(nat(it.chain.totalVotingPower?.() ?? 0n));
  },
  INDEX_ADDRESS(it, _ins, s) {
    const a = asKind(pop(s), 'address');
    s.push(nat(it.addressIndex(a.str, true) as bigint));
  },
  GET_ADDRESS_INDEX(it, _ins, s) {
    const a = asKind(pop(s), 'address');
    const i = it.addressIndex(a.str, false);
    s.push(i === null ? none(T.nat) : some(nat(i)));
  },
};

register(table);
