// Hostile requests of issue 22 against the running product (e2e/attacks.e2e.ts asserts the answers,
// bench/attacks.ts records how GET /v1/head answers meanwhile). Each attack is one anonymous request.
import { InMemorySigner } from '@taquito/signer';
import { BOOTSTRAP_ACCOUNTS } from '../packages/sandbox/src/accounts';
import { forgeOperation } from '../packages/sandbox/src/forging';
import { CHAIN_ID } from '../packages/sandbox/src/protocol';
import { originateAsBootstrap } from './fixture-contracts';

export interface Answer {
  status: number;
  text: string;
}

/** One request: path (from the product's origin) and JSON body text. */
export interface Hostile {
  path: string;
  body: string;
}

export interface Attack {
  name: string;
  /**
   * Builds the request (signing and forging included, so that sending it is all the attack costs the prober's
   * process); `spin` is a contract whose view `spin` never ends (see `originateSpinner`).
   */
  prepare(url: string, spin: string): Promise<Hostile> | Hostile;
  /** The answer the product must give: status and a pattern of its body. */
  expect: { status: number[]; body: RegExp };
}

const RPC = '/rpc/sandboxnet/chains/main/blocks/head';
/** The account the attacks sign with (not the baker, not one the demo seed uses in its last blocks). */
const ATTACKER = BOOTSTRAP_ACCOUNTS[4]!;

/** Sends a prepared request to the product at `url`. */
export async function send(url: string, req: Hostile): Promise<Answer> {
  const res = await fetch(`${url}${req.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: req.body,
  });
  return { status: res.status, text: await res.text() };
}

const json = (path: string, body: unknown): Hostile => ({
  path,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

const prim = (p: string, ...args: unknown[]) => (args.length ? { prim: p, args } : { prim: p });
/** `PUSH bool True; LOOP { PUSH bool True }`: runs until gas or time runs out. */
const SPIN = [
  prim('PUSH', prim('bool'), prim('True')),
  prim('LOOP', [prim('PUSH', prim('bool'), prim('True'))]),
];
const unitScript = (code: unknown[], extra: unknown[] = []) => [
  prim('parameter', prim('unit')),
  prim('storage', prim('unit')),
  prim('code', code),
  ...extra,
];

/** JSON text of a type nested `depth` levels deep: pair (pair (… nat) nat) nat (as text: too deep for JSON.stringify). */
function deepType(depth: number): string {
  const nat = '{"prim":"nat"}';
  return '{"prim":"pair","args":['.repeat(depth) + nat + `,${nat}]}`.repeat(depth);
}

/** JSON text of a code sequence nested `depth` levels deep: { { { … DROP; UNIT } } }. */
function deepCode(depth: number): string {
  return '['.repeat(depth) + '{"prim":"DROP"},{"prim":"UNIT"}' + ']'.repeat(depth);
}

async function signed(contents: Array<Record<string, unknown>>, url: string): Promise<string> {
  const branch = (await (await fetch(`${url}${RPC}/hash`)).json()) as string;
  const counter = BigInt(
    (await (await fetch(`${url}${RPC}/context/contracts/${ATTACKER.pkh}/counter`)).json()) as string,
  );
  const full = contents.map((c, i) => ({
    source: ATTACKER.pkh,
    fee: '100000',
    counter: String(counter + 1n + BigInt(i)),
    gas_limit: '100000',
    storage_limit: '10000',
    ...c,
  }));
  const bytes = await forgeOperation({ branch, contents: full });
  return (await (await InMemorySigner.fromSecretKey(ATTACKER.sk)).sign(bytes, Uint8Array.of(3))).sbytes;
}

/** Originates (signed by a bootstrap account, through the sandbox's RPC) a contract whose view `spin` never ends. */
export function originateSpinner(url: string): Promise<string> {
  return originateAsBootstrap(
    `${url}/rpc/sandboxnet`,
    unitScript(
      [prim('CDR'), prim('NIL', prim('operation')), prim('PAIR')],
      [
        {
          prim: 'view',
          args: [{ string: 'spin' }, prim('unit'), prim('unit'), [prim('DROP'), ...SPIN, prim('UNIT')]],
        },
      ],
    ),
    prim('Unit'),
  );
}

export const ATTACKS: Attack[] = [
  {
    name: 'run_code with a 1,000,000-digit int literal (1 MB body)',
    prepare: () =>
      json(`${RPC}/helpers/scripts/run_code`, {
        script: unitScript([
          prim('DROP'),
          prim('PUSH', prim('int'), { int: '9'.repeat(1_000_000) }),
          prim('DROP'),
          prim('UNIT'),
          prim('NIL', prim('operation')),
          prim('PAIR'),
        ]),
        storage: prim('Unit'),
        input: prim('Unit'),
        amount: '0',
      }),
    expect: { status: [400], body: /int literal longer than 1000 digits/ },
  },
  {
    name: 'injection of a signed 32 KB transaction whose parameter is a 68,000-digit int',
    prepare: async (url) =>
      json(
        '/rpc/sandboxnet/injection/operation',
        JSON.stringify(
          await signed(
            [
              {
                kind: 'transaction',
                amount: '0',
                destination: BOOTSTRAP_ACCOUNTS[3]!.pkh,
                parameters: { entrypoint: 'default', value: { int: '9'.repeat(68_000) } },
              },
            ],
            url,
          ),
        ),
      ),
    expect: { status: [500], body: /node\.prevalidation\.parse_error.*int literal longer than 1000 digits/ },
  },
  {
    name: 'run_code of an endless LOOP with the operation gas cap (1,040,000)',
    prepare: () =>
      json(`${RPC}/helpers/scripts/run_code`, {
        script: unitScript([
          prim('DROP'),
          ...SPIN,
          prim('UNIT'),
          prim('NIL', prim('operation')),
          prim('PAIR'),
        ]),
        storage: prim('Unit'),
        input: prim('Unit'),
        amount: '0',
        gas: '1040000',
      }),
    // Spent before the time limit: the node's gas exhaustion; past it: the sandbox's time limit.
    expect: { status: [500, 504], body: /gas_exhausted|sandbox\.time_limit_exceeded/ },
  },
  {
    name: 'run_script_view with unlimited_gas on a view that never ends',
    prepare: (_url, spin) =>
      json(`${RPC}/helpers/scripts/run_script_view`, {
        contract: spin,
        view: 'spin',
        input: prim('Unit'),
        chain_id: CHAIN_ID,
        unlimited_gas: true,
        unparsing_mode: 'Readable',
      }),
    expect: { status: [504], body: /sandbox\.time_limit_exceeded/ },
  },
  {
    name: 'off-chain views/execute of an endless LOOP through the API',
    prepare: (_url, spin) =>
      json(`/v1/contract/sandboxnet/${spin}/views/execute`, {
        kind: 'off-chain',
        data: {},
        view: {
          michelsonStorageView: { returnType: prim('unit'), code: [prim('DROP'), ...SPIN, prim('UNIT')] },
        },
      }),
    // The API's trace and view routes answer a node's refusal with 400 and its sentence.
    expect: {
      status: [400],
      body: /"message":"(Gas quota exceeded for the operation|the script ran longer than the \d+ s time limit of sandboxnet and was stopped)/,
    },
  },
  {
    name: 'fork with a 10,000-deep nested storage type',
    prepare: () =>
      json(
        '/v1/fork',
        JSON.stringify({
          script: `[{"prim":"parameter","args":[{"prim":"unit"}]},{"prim":"storage","args":[${deepType(10_000)}]},{"prim":"code","args":[[]]}]`,
          storage: {},
        }),
      ),
    expect: { status: [400], body: /"message":".*nested deeper than 1000/ },
  },
  {
    name: 'off-chain views/execute with 10,000-deep nested code',
    prepare: (_url, spin) =>
      json(
        `/v1/contract/sandboxnet/${spin}/views/execute`,
        `{"kind":"off-chain","data":{},"view":{"michelsonStorageView":{"returnType":{"prim":"unit"},"code":${deepCode(10_000)}}}}`,
      ),
    expect: { status: [400], body: /"message":".*nested deeper than 1000/ },
  },
];

export interface Probe {
  /** Latency of each GET /v1/head sent while the attack ran, in ms. */
  latencies: number[];
  /** Statuses other than 200 among them. */
  failures: number[];
}

/** Sends GET /v1/head every `everyMs` (one at a time) until `work` settles; returns their latencies. */
export async function probeWhile<T>(url: string, work: Promise<T>, everyMs = 50): Promise<[T, Probe]> {
  let done = false;
  const settled = work.finally(() => {
    done = true;
  });
  const probe: Probe = { latencies: [], failures: [] };
  const loop = (async () => {
    while (!done) {
      const t0 = performance.now();
      const res = await fetch(`${url}/v1/head`);
      await res.arrayBuffer();
      probe.latencies.push(performance.now() - t0);
      if (res.status !== 200) probe.failures.push(res.status);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  const result = await settled;
  await loop;
  return [result, probe];
}

/** The p-th percentile (0–100) of `values`. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
