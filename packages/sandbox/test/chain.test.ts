import { afterEach, describe, expect, it } from 'vitest';
import {
  b58Encode,
  PrefixV2,
  validateBlock,
  validateChain,
  ValidationResult,
  verifySignature,
} from '@taquito/utils';
import { blake2b } from '@noble/hashes/blake2.js';
import { BOOTSTRAP_ACCOUNTS, CHAIN_ID, PROTOCOL } from '../src/index';
import { encodeProtocolData, encodeShellHeader } from '../src/hashing';
import { openHarness, type Harness } from './helpers';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('sandbox chain', () => {
  it('creates genesis and bakes blocks with rising levels and timestamps', async () => {
    h = await openHarness();
    // Genesis plus two blocks at creation, so that head~2 exists at once.
    expect(h.sandbox.headLevel).toBe(2);
    await h.sandbox.bakeBlock();
    await h.sandbox.bakeBlock();
    await h.sandbox.bakeBlock();
    expect(h.sandbox.headLevel).toBe(5);
    const head = await h.get('/chains/main/blocks/head/header');
    expect(head.status).toBe(200);
    expect(head.body.level).toBe(5);
    let prevTs = 0;
    let prevHash: string | undefined;
    for (let level = 0; level <= 5; level++) {
      const b = (await h.get(`/chains/main/blocks/${level}`)).body;
      const ts = Date.parse(b.header.timestamp);
      expect(ts).toBeGreaterThan(prevTs);
      if (prevHash) expect(b.header.predecessor).toBe(prevHash);
      prevTs = ts;
      prevHash = b.hash;
    }
  });

  it('resolves head, head~N, level, hash, genesis and +N to the same blocks', async () => {
    h = await openHarness();
    for (let i = 0; i < 4; i++) await h.sandbox.bakeBlock();
    const byLevel = (await h.get('/chains/main/blocks/4')).body;
    const viaHead = (await h.get('/chains/main/blocks/head~2')).body;
    const viaHash = (await h.get(`/chains/main/blocks/${byLevel.hash}`)).body;
    const viaGenesis = (await h.get('/chains/main/blocks/genesis+4')).body;
    expect(viaHead).toEqual(byLevel);
    expect(viaHash).toEqual(byLevel);
    expect(viaGenesis).toEqual(byLevel);
    expect((await h.get('/chains/main/blocks/head~2/hash')).body).toBe(byLevel.hash);
    // Octez also accepts `-N` for "N blocks before".
    expect((await h.get('/chains/main/blocks/head-2')).body).toEqual(byLevel);
    expect((await h.get(`/chains/main/blocks/${byLevel.hash}-4/header`)).body.level).toBe(0);
    expect((await h.get(`/chains/main/blocks/${byLevel.hash}~4/header`)).body.level).toBe(0);
    expect((await h.get(`/chains/${CHAIN_ID}/blocks/head/hash`)).body).toBe(
      (await h.get('/chains/main/blocks/6/hash')).body,
    );
  });

  it('serves blocks in the node shape with real hashes and a baker signature', async () => {
    h = await openHarness();
    await h.sandbox.bakeBlock();
    const b = (await h.get('/chains/main/blocks/head')).body;
    expect(Object.keys(b).sort()).toEqual([
      'chain_id',
      'hash',
      'header',
      'metadata',
      'operations',
      'protocol',
    ]);
    expect(b.protocol).toBe(PROTOCOL);
    expect(b.protocol.startsWith('PtTALLiN')).toBe(true);
    expect(validateChain(b.chain_id)).toBe(ValidationResult.VALID);
    expect(validateBlock(b.hash)).toBe(ValidationResult.VALID);
    expect(b.operations).toHaveLength(4);
    for (const field of [
      'level',
      'proto',
      'predecessor',
      'timestamp',
      'validation_pass',
      'operations_hash',
      'fitness',
      'context',
      'payload_hash',
      'payload_round',
      'proof_of_work_nonce',
      'liquidity_baking_toggle_vote',
      'signature',
    ]) {
      expect(b.header).toHaveProperty(field);
    }
    expect(b.header.operations_hash.startsWith('LLo')).toBe(true);
    expect(b.header.context.startsWith('Co')).toBe(true);
    expect(b.metadata.level_info.level).toBe(3);
    expect(b.header.level).toBe(3);
    expect(b.metadata.baker).toBe(BOOTSTRAP_ACCOUNTS[0]!.pkh);
    expect(b.metadata.protocol).toBe(PROTOCOL);
    // The hash is BLAKE2B-256 of the header bytes; the signature verifies with bootstrap1's key.
    const unsigned = new Uint8Array([...encodeShellHeader(b.header), ...encodeProtocolData(b.header)]);
    const sig = new Uint8Array(Buffer.from(b58DecodeSig(b.header.signature), 'hex'));
    expect(b58Encode(blake2b(new Uint8Array([...unsigned, ...sig]), { dkLen: 32 }), PrefixV2.BlockHash)).toBe(
      b.hash,
    );
    const chainBytes = [0x11, ...Buffer.from('', 'hex')];
    const watermark = new Uint8Array([...chainBytes, ...chainIdBytes(b.chain_id)]);
    expect(verifySignature(unsigned, BOOTSTRAP_ACCOUNTS[0]!.pk, b.header.signature, watermark)).toBe(true);
    expect(verifySignature(unsigned, BOOTSTRAP_ACCOUNTS[1]!.pk, b.header.signature, watermark)).toBe(false);

    const sub = async (s: string) => (await h!.get(`/chains/main/blocks/head/${s}`)).body;
    expect(await sub('protocols')).toEqual({ protocol: PROTOCOL, next_protocol: PROTOCOL });
    expect(await sub('metadata')).toEqual(b.metadata);
    expect(await sub('operations')).toEqual([[], [], [], []]);
    expect(await sub('operation_hashes')).toEqual([[], [], [], []]);
    expect(await sub('helpers/current_level')).toMatchObject({ level: 3, cycle: 0, cycle_position: 2 });
    expect(await sub('live_blocks')).toHaveLength(4);
  });

  it('serves the shell RPCs and the protocol constants', async () => {
    h = await openHarness();
    expect((await h.get('/chains/main/chain_id')).body).toBe(CHAIN_ID);
    expect((await h.get('/chains/main/is_bootstrapped')).body).toEqual({
      bootstrapped: true,
      sync_state: 'synced',
    });
    const v = (await h.get('/version')).body;
    expect(v.version.major).toBe(24);
    expect(v.network_version.chain_name).toMatch(/SANDBOX/);
    const c = (await h.get('/chains/main/blocks/head/context/constants')).body;
    expect(c.cost_per_byte).toBe('250');
    expect(c.origination_size).toBe(257);
    expect(c.hard_gas_limit_per_operation).toBe('1040000');
    expect(c.hard_storage_limit_per_operation).toBe('60000');
    expect(c.minimal_block_delay).toBe('60');
    expect(typeof c.blocks_per_cycle).toBe('number');
    expect((await h.get('/chains/main/mempool/pending_operations?version=2')).body).toMatchObject({
      validated: [],
      refused: [],
    });
  });

  it('serves bootstrap accounts revealed and funded, and empty accounts as zero', async () => {
    h = await openHarness();
    for (const a of BOOTSTRAP_ACCOUNTS) {
      const c = (await h.get(`/chains/main/blocks/head/context/contracts/${a.pkh}`)).body;
      // Bootstrap accounts are registered delegates, as in an octez sandbox.
      expect(c).toEqual({ balance: '4000000000000', delegate: a.pkh, counter: '0', revealed: true });
      expect((await h.get(`/chains/main/blocks/head/context/contracts/${a.pkh}/manager_key`)).body).toBe(
        a.pk,
      );
    }
    const fresh = 'tz1burnburnburnburnburnburnburjAYjjX';
    expect((await h.get(`/chains/main/blocks/head/context/contracts/${fresh}/balance`)).body).toBe('0');
    expect((await h.get(`/chains/main/blocks/head/context/contracts/${fresh}/manager_key`)).body).toBeNull();
  });

  it('answers node-like errors for malformed and unknown ids, never a crash', async () => {
    h = await openHarness();
    const cases: Array<[string, number]> = [
      ['/chains/main/blocks/nonsense', 400],
      ['/chains/main/blocks/head~x', 400],
      ['/chains/main/blocks/-1', 400],
      ['/chains/main/blocks/99999999999', 400],
      ['/chains/main/blocks/42', 404],
      ['/chains/main/blocks/head~5', 404],
      ['/chains/main/blocks/head-7', 404],
      ['/chains/main/blocks/head--1', 400],
      ['/chains/main/blocks/BLvxCa7Wimg4JCJMR62EvCrBWhzALEJRbDWHhcYtmyAL1y4ikry', 404],
      ['/chains/main/blocks/BLvxCa7Wimg4JCJMR62EvCrBWhzALEJRbDWHhcYtmyAL1y4ikrz', 400],
      ['/chains/nope/chain_id', 400],
      ['/chains/main/blocks/head/context/contracts/tz1notanaddress', 400],
      ['/chains/main/blocks/head/context/contracts/KT1TxqZ8QtKvLu3V3JH7Gx58n7Co8pgtpQU5', 404],
      ['/chains/main/blocks/head/operations/9', 404],
      ['/chains/main/blocks/head/nothing_here', 404],
    ];
    for (const [url, status] of cases) {
      const r = await h.get(url);
      expect({ url, status: r.status }).toEqual({ url, status });
      expect({ url, array: Array.isArray(r.body), body: r.body }).toMatchObject({ url, array: true });
      expect(r.body[0]).toHaveProperty('kind');
      expect(r.body[0]).toHaveProperty('id');
    }
    // An invalid percent-encoding is refused by Fastify's router itself (server-level, still a 400).
    expect((await h.get('/chains/main/blocks/%00%ff')).status).toBe(400);
    expect((await h.get('/chains/main/blocks/head/header')).status).toBe(200);
  });
});

function b58DecodeSig(sig: string): string {
  // decode the generic signature to its 64 raw bytes through Taquito
  return Buffer.from(b58Payload(sig)).toString('hex');
}

import { b58DecodeAndCheckPrefix } from '@taquito/utils';
function b58Payload(sig: string): Uint8Array {
  return b58DecodeAndCheckPrefix(sig, [PrefixV2.GenericSignature], true);
}
function chainIdBytes(id: string): number[] {
  return [...b58DecodeAndCheckPrefix(id, [PrefixV2.ChainID], true)];
}
