// Test helpers: temporary sandboxes behind a Fastify instance, and signed operations built with
// Taquito's own forger and signer (as a wallet would).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { LocalForger } from '@taquito/local-forging';
import { InMemorySigner } from '@taquito/signer';
import { randomBytes } from 'node:crypto';
import { b58Encode, PrefixV2 } from '@taquito/utils';
import { Sandbox, sandboxRpcPlugin } from '../src/index';
import { ScriptRunner } from '../src/script-runner';

export async function tempDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'ms-sandbox-'));
}

export interface Harness {
  dir: string;
  sandbox: Sandbox;
  app: FastifyInstance;
  get(url: string): Promise<{ status: number; body: any }>;
  post(url: string, payload: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/**
 * A sandbox behind Fastify, its script runs and simulations in a pool of script workers as in the product
 * (`inThread: true` runs them in the test's thread instead).
 */
export async function openHarness(dir?: string, opts: { inThread?: boolean } = {}): Promise<Harness> {
  const d = dir ?? (await tempDir());
  const sandbox = await Sandbox.open({ dataDir: d, blockTimeMs: 60_000 });
  const scripts = opts.inThread ? undefined : new ScriptRunner(sandbox, { timeLimitMs: 60_000 });
  const app = Fastify({ forceCloseConnections: true });
  await app.register(sandboxRpcPlugin(sandbox, { scripts }), { prefix: '/rpc/sandboxnet' });
  await app.ready();
  const parse = (raw: string) => {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  };
  return {
    dir: d,
    sandbox,
    app,
    async get(url) {
      const r = await app.inject({ method: 'GET', url: `/rpc/sandboxnet${url}` });
      return { status: r.statusCode, body: parse(r.body) };
    },
    async post(url, payload) {
      const r = await app.inject({
        method: 'POST',
        url: `/rpc/sandboxnet${url}`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
      return { status: r.statusCode, body: parse(r.body) };
    },
    async close() {
      await app.close();
      await Promise.all([sandbox.stop(), scripts?.close()]);
    },
  };
}

const forger = new LocalForger();

export interface TransferSpec {
  sk: string;
  branch: string;
  counter: number | string;
  destination: string;
  amount: string;
  fee?: string;
  storageLimit?: string;
  gasLimit?: string;
  reveal?: boolean;
}

/** Forges and signs a (reveal +) transaction; returns the signed hex as /injection/operation wants it. */
export async function signedTransfer(spec: TransferSpec): Promise<string> {
  return signedTransferAs(spec.sk, spec);
}

/** Like signedTransfer, but the bytes are signed with `signingSk` (which may not be the source's key). */
export async function signedTransferAs(signingSk: string, spec: TransferSpec): Promise<string> {
  const signer = await InMemorySigner.fromSecretKey(spec.sk);
  const source = await signer.publicKeyHash();
  const contents: any[] = [];
  let counter = BigInt(spec.counter);
  if (spec.reveal) {
    contents.push({
      kind: 'reveal',
      source,
      fee: '1000',
      counter: String(counter),
      gas_limit: '200',
      storage_limit: '0',
      public_key: await signer.publicKey(),
    });
    counter += 1n;
  }
  contents.push({
    kind: 'transaction',
    source,
    fee: spec.fee ?? '500',
    counter: String(counter),
    gas_limit: spec.gasLimit ?? '1000',
    storage_limit: spec.storageLimit ?? '300',
    amount: spec.amount,
    destination: spec.destination,
  });
  const bytes = await forger.forge({ branch: spec.branch, contents });
  const signed = await (await InMemorySigner.fromSecretKey(signingSk)).sign(bytes, Uint8Array.of(3));
  return signed.sbytes;
}

/** A new random ed25519 secret key (edsk…), for an account that does not exist on the chain yet. */
export function freshSecretKey(): string {
  return b58Encode(new Uint8Array(randomBytes(32)), PrefixV2.Ed25519Seed);
}

/** Forges and signs any manager operation (contents as JSON); returns the signed hex. */
export async function signedOperation(sk: string, branch: string, contents: unknown[]): Promise<string> {
  const bytes = await forger.forge({ branch, contents } as never);
  const signed = await (await InMemorySigner.fromSecretKey(sk)).sign(bytes, Uint8Array.of(3));
  return signed.sbytes;
}

/** An operation group as the baked block includes it. */
export interface IncludedGroup {
  hash: string;
  contents: any[];
  level: number;
}

/**
 * Returns a function that signs `contents` as `signer` (fee, a fresh counter and limits filled in, each
 * content's own fields winning), injects the group into the harness, bakes a block and returns the group
 * as included. Counters count from 1 per returned function: one per signer and sandbox.
 */
export function groupInjector(
  harness: () => Harness,
  signer: { pkh: string; sk: string },
): (contents: Array<Record<string, unknown>>) => Promise<IncludedGroup> {
  let counter = 0;
  return async (contents) => {
    const h = harness();
    const branch = (await h.get('/chains/main/blocks/head/hash')).body as string;
    const full = contents.map((c) => ({
      source: signer.pkh,
      fee: '10000',
      counter: String(++counter),
      gas_limit: '100000',
      storage_limit: '5000',
      ...c,
    }));
    const r = await h.post('/injection/operation', await signedOperation(signer.sk, branch, full));
    if (r.status !== 200) throw new Error(`injection refused (${r.status}): ${JSON.stringify(r.body)}`);
    const block = await h.sandbox.bakeBlock();
    const op = block.operations[3]!.find((o) => o.hash === r.body);
    if (!op) throw new Error(`group ${String(r.body)} is not in the baked block`);
    return { hash: r.body as string, contents: op.contents as any[], level: block.header.level };
  };
}

/** Michelson source of a test contract under test/contracts. */
export async function contractSource(name: string): Promise<string> {
  return fs.readFile(path.join(import.meta.dirname, 'contracts', `${name}.tz`), 'utf8');
}
