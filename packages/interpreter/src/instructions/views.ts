/** On-chain views: VIEW "name" T runs another contract's view with that contract as SELF_ADDRESS. */
import { staticError } from '../errors';
import type { Handler } from '../interpreter';
import { pop, register } from '../interpreter';
import { hasForbidden, isPrim, toTy, tyEq } from '../types';
import { asKind, none, pair, some } from '../values';

const table: Record<string, Handler> = {
  VIEW(it, ins, s) {
    const nameE = ins.args?.[0];
    if (!nameE || Array.isArray(nameE) || !('string' in nameE))
      throw staticError('invalid_arity', 'VIEW needs a name');
    const name = nameE.string;
    const rt = it.tyArg(ins, 1);
    if (hasForbidden(rt, new Set(['operation', 'big_map', 'ticket', 'sapling_state']))) {
      throw staticError('unexpected_type', 'invalid VIEW result type');
    }
    const arg = pop(s);
    const a = asKind(pop(s), 'address');
    const info = a.ep === '' ? it.chain.contract?.(a.str) : null;
    const view = info?.views?.[name];
    if (!info || !view || info.storageType === undefined || info.storage === undefined) {
      s.push(none(rt));
      return;
    }
    if (!tyEq(toTy(view.input), arg.t) || !tyEq(toTy(view.output), rt)) {
      s.push(none(rt));
      return;
    }
    const storage = it.parseValue(info.storage, toTy(info.storageType));
    const code = view.code;
    if (!Array.isArray(code) && !isPrim(code))
      throw staticError('invalid_view', 'view code must be a sequence');
    // Run the view on its own stack; a continuation restores the caller's stack and environment.
    const savedEnv = it.env;
    const savedView = it.inView;
    const savedStack = s.splice(0, s.length);
    it.env = {
      ...savedEnv,
      self: a.str,
      sender: savedEnv.self,
      amount: 0n,
      balance: info.balance ?? 0n,
      selfParameter: info.parameter,
    };
    it.inView = true;
    s.push(pair(arg, storage));
    it.then(ins, (st) => {
      it.env = savedEnv;
      it.inView = savedView;
      const r = st.pop();
      if (st.length !== 0 || r === undefined || !tyEq(r.t, rt)) {
        throw staticError('bad_view_result', `view ${name} returned a bad stack`);
      }
      for (const v of savedStack) st.push(v);
      st.push(some(r));
    });
    it.schedule(Array.isArray(code) ? code : [code]);
  },
};

register(table);
