/**
 * Throughput figures: instructions per second on a tight loop, and complete FA1.2 / FA2 transfers per
 * second with a 10,000-entry ledger big map served by an in-memory chain context.
 * Run: npx tsx bench/interpreter.ts
 */
import type { ChainContext, Expr } from '../packages/interpreter/src/index';
import { runContract, scriptExprHash, parseData, toTy } from '../packages/interpreter/src/index';

function time(label: string, n: number, f: () => void): number {
  f(); // warm-up (script cache, JIT)
  const t0 = performance.now();
  for (let i = 0; i < n; i++) f();
  const ms = performance.now() - t0;
  const perSec = (n * 1000) / ms;
  console.log(`${label}: ${perSec.toFixed(0)}/s (${(ms / n).toFixed(3)} ms each)`);
  return perSec;
}

// 1. Tight loop: 100,000 iterations of { PUSH int 1; SWAP; SUB; DUP; GT } (5 instr + LOOP per iteration).
const loop = `parameter unit; storage int; code { DROP; PUSH int 100000; DUP; GT; LOOP { PUSH int 1; SWAP; SUB; DUP; GT }; NIL operation; PAIR }`;
let steps = 0;
const t0 = performance.now();
const r = runContract({ script: loop, storage: { int: '0' }, parameter: { prim: 'Unit' } });
const ms = performance.now() - t0;
steps = 100000 * 6 + 6;
console.log(
  `tight loop: ${r.ok ? 'ok' : r.error.message}, ${((steps * 1000) / ms / 1e6).toFixed(2)} M instructions/s (${ms.toFixed(0)} ms)`,
);

// 2. FA1.2-style ledger with 10,000 holders in a big map.
const fa12 = `parameter (or (pair %transfer address (pair address nat)) (unit %noop));
storage (big_map address nat);
code { UNPAIR;
  IF_LEFT
    { UNPAIR; DUP; SENDER; COMPARE; EQ; IF {} { PUSH string "NotOwner"; FAILWITH };
      DIP { UNPAIR }; DIG 3;
      DUP; DUP 3; GET; IF_NONE { PUSH string "NoBalance"; FAILWITH } {};
      DUP 5; SWAP; SUB; ISNAT; IF_NONE { PUSH string "LowBalance"; FAILWITH } {}; SOME; DIG 2; UPDATE;
      DUP; DUP 3; GET; IF_NONE { PUSH nat 0 } {}; DIG 3; ADD; SOME; DIG 2; UPDATE }
    { DROP };
  NIL operation; PAIR }`;
const addrT = toTy({ prim: 'address' });
const keys = Array.from({ length: 10_000 }, (_, i) => {
  const hex = '0000' + i.toString(16).padStart(40, '0');
  return (parseData({ bytes: hex }, addrT) as { str: string }).str;
});
const store = new Map<string, Expr>(
  keys.map((k) => [scriptExprHash(parseData({ string: k }, addrT)), { int: '1000000' }]),
);
const chain: ChainContext = {
  bigMapTypes: () => ({ key: addrT, value: toTy({ prim: 'nat' }) }),
  bigMapGet: (_id, _key, hash) => store.get(hash) ?? null,
};
let i = 0;
time('FA1.2 transfers (10,000-entry big map)', 2000, () => {
  const from = keys[i % keys.length] as string;
  const to = keys[(i * 7 + 1) % keys.length] as string;
  i++;
  const res = runContract({
    script: fa12,
    storage: { int: '7' },
    entrypoint: 'transfer',
    sender: from,
    chain,
    parameter: {
      prim: 'Pair',
      args: [{ string: from }, { prim: 'Pair', args: [{ string: to }, { int: '1' }] }],
    },
  });
  if (!res.ok) throw new Error(res.error.message);
});

// 3. FA2-style multi-token ledger (big_map (pair address nat) nat) with 10,000 entries.
const fa2 = `parameter (list %transfer (pair address (list (pair address (pair nat nat)))));
storage (big_map (pair address nat) nat);
code { UNPAIR;
  ITER { UNPAIR; DUP; SENDER; COMPARE; EQ; IF {} { PUSH string "FA2_NOT_OPERATOR"; FAILWITH }; SWAP;
         ITER { UNPAIR; DIP { UNPAIR }; DUP 2; DUP 5; PAIR; DIG 5;
                DUP; DUP 3; GET; IF_NONE { PUSH string "FA2_INSUFFICIENT_BALANCE"; FAILWITH } {};
                DUP 6; SWAP; SUB; ISNAT; IF_NONE { PUSH string "FA2_INSUFFICIENT_BALANCE"; FAILWITH } {};
                SOME; DIG 2; UPDATE;
                DUG 2; PAIR; SWAP; DUP; DUP 3; GET; IF_NONE { PUSH nat 0 } {};
                DIG 3; ADD; SOME; DIG 2; UPDATE; SWAP };
         DROP };
  NIL operation; PAIR }`;
const keyT = toTy({ prim: 'pair', args: [{ prim: 'address' }, { prim: 'nat' }] });
const store2 = new Map<string, Expr>(
  keys.map((k) => [
    scriptExprHash(parseData({ prim: 'Pair', args: [{ string: k }, { int: '0' }] }, keyT)),
    { int: '1000000' },
  ]),
);
const chain2: ChainContext = {
  bigMapTypes: () => ({ key: keyT, value: toTy({ prim: 'nat' }) }),
  bigMapGet: (_id, _key, hash) => store2.get(hash) ?? null,
};
let j = 0;
time('FA2 transfers (10,000-entry big map)', 2000, () => {
  const from = keys[j % keys.length] as string;
  const to = keys[(j * 7 + 1) % keys.length] as string;
  j++;
  const tx = { prim: 'Pair', args: [{ string: to }, { prim: 'Pair', args: [{ int: '0' }, { int: '1' }] }] };
  const res = runContract({
    script: fa2,
    storage: { int: '8' },
    sender: from,
    chain: chain2,
    parameter: [{ prim: 'Pair', args: [{ string: from }, [tx]] }],
  });
  if (!res.ok) throw new Error(res.error.message);
});

// 4. Time to spend one operation's whole gas (1,040,000 gas, Octez's hard limit per operation) on endless
//    loops of cheap instructions (issue 22 item 2: target ≤ 0.5 s), and on a big-map-heavy FA2 batch. These
//    runs have no step listener, so they take the compiled path (compile.ts, compile-js.ts); the step counts come from the
//    stepping path (a listener), on a tenth of the gas.
const endless: Record<string, string> = {
  'LOOP { PUSH bool True }': 'PUSH bool True; LOOP { PUSH bool True }',
  'LOOP { UNIT; DROP; PUSH bool True }': 'PUSH bool True; LOOP { UNIT; DROP; PUSH bool True }',
  'LOOP { PUSH nat 7; PUSH nat 5; ADD; DROP; PUSH bool True }':
    'PUSH bool True; LOOP { PUSH nat 7; PUSH nat 5; ADD; DROP; PUSH bool True }',
  // The generated code folds a constant pushed then tested (and UNIT; DROP) away; here the tested bool comes
  // from the stack, so every DUP and test runs.
  'DUP; LOOP { DUP }': 'PUSH bool True; DUP; LOOP { DUP }; DROP',
  // A loop through a lambda (issue 34 item 1): EXEC of a lambda without side effects on every round.
  'LAMBDA unit unit {}; LOOP { DUP; UNIT; EXEC; DROP; PUSH bool True }':
    'LAMBDA unit unit {}; PUSH bool True; LOOP { DUP; UNIT; EXEC; DROP; PUSH bool True }; DROP',
};
/** `BENCH_ONLY=<substring>`: of the part 4 loops, only those whose name holds it. */
const only = process.env.BENCH_ONLY;
for (const [name, body] of Object.entries(endless)) {
  if (only !== undefined && !name.includes(only)) continue;
  const script = `parameter unit; storage unit; code { DROP; ${body}; UNIT; NIL operation; PAIR }`;
  // Steps per gas from a tenth of the gas with a step listener (which slows the run), then the full run.
  let n = 0;
  runContract({
    script,
    storage: { prim: 'Unit' },
    parameter: { prim: 'Unit' },
    gasLimit: 104_000_000,
    onStep: () => {
      n++;
    },
  });
  // Best of three (the machine is shared): wall time, and the CPU time of this process.
  let ms = Infinity;
  let cpuMs = Infinity;
  let consumed = 0;
  for (let rep = 0; rep < 3; rep++) {
    const t = performance.now();
    const c = process.cpuUsage();
    const res = runContract({ script, storage: { prim: 'Unit' }, parameter: { prim: 'Unit' } });
    const used = process.cpuUsage(c);
    ms = Math.min(ms, performance.now() - t);
    cpuMs = Math.min(cpuMs, (used.user + used.system) / 1000);
    if (res.ok) throw new Error(`${name} ended`);
    consumed = res.consumedMilligas;
  }
  const steps = n * 10;
  console.log(
    `max gas, ${name}: ${ms.toFixed(0)} ms (CPU ${cpuMs.toFixed(0)} ms) for ${(consumed / 1000).toLocaleString('en')} gas (~${steps.toLocaleString('en')} steps, ${((steps * 1000) / ms / 1e6).toFixed(1)} M steps/s)`,
  );
}
{
  const batch = Array.from({ length: 400 }, (_, k) => ({
    prim: 'Pair',
    args: [
      { string: keys[(k * 13 + 5) % keys.length] },
      { prim: 'Pair', args: [{ int: '0' }, { int: '1' }] },
    ],
  }));
  const from = keys[0] as string;
  let ms = Infinity;
  let cpuMs = Infinity;
  let gas = 0;
  for (let rep = 0; rep < 5; rep++) {
    const t = performance.now();
    const c = process.cpuUsage();
    const res = runContract({
      script: fa2,
      storage: { int: '8' },
      sender: from,
      chain: chain2,
      parameter: [{ prim: 'Pair', args: [{ string: from }, batch] }] as Expr,
    });
    const used = process.cpuUsage(c);
    ms = Math.min(ms, performance.now() - t);
    cpuMs = Math.min(cpuMs, (used.user + used.system) / 1000);
    if (!res.ok) throw new Error(res.error.message);
    gas = res.consumedMilligas / 1000;
  }
  console.log(
    `FA2 batch of 400 transfers (10,000-entry big map): ${ms.toFixed(0)} ms (CPU ${cpuMs.toFixed(0)} ms) for ${gas.toLocaleString('en')} gas → ${((ms * 1_040_000) / gas).toFixed(0)} ms per 1,040,000 gas`,
  );
}
