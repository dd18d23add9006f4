import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blake2b } from '@noble/hashes/blake2.js';
import { b58Encode, PrefixV2, validateChain, ValidationResult } from '@taquito/utils';
import { blockHash, operationsHash } from '../src/hashing';
import { CHAIN_ID } from '../src/index';

const shared = path.resolve(__dirname, '../../../../shared');
const blocksDir = path.join(shared, 'fixtures/rpc/blocks/mainnet');
const hasShared = fs.existsSync(blocksDir);
if (!hasShared)
  console.warn(`skipping mainnet block-hash checks: ${blocksDir} is absent (no ../shared beside the repo)`);

describe('hashes', () => {
  it('uses a valid chain id derived as documented', () => {
    expect(validateChain(CHAIN_ID)).toBe(ValidationResult.VALID);
    const digest = blake2b(new TextEncoder().encode('michelscope sandboxnet'), { dkLen: 32 });
    expect(b58Encode(digest.slice(0, 4), PrefixV2.ChainID)).toBe(CHAIN_ID);
  });

  it('hashes an empty operation list to a stable LLo value', () => {
    expect(operationsHash([[], [], [], []])).toMatch(/^LLo/);
    expect(operationsHash([[], [], [], []])).not.toBe(
      operationsHash([[], [], [], ['opa3VBvwRe3PBmuoT2pZTcuu7uBNzDqeFaE3UMHoJyU1p5zFX2V']]),
    );
  });

  describe.skipIf(!hasShared)('against real mainnet blocks (shared fixtures)', () => {
    // 11680082 is Tallinn (the protocol the sandbox claims); 11610082 is Seoul.
    for (const level of ['11680082', '11610082']) {
      it(`recomputes the operations_hash (and, for Tallinn, the block hash) of mainnet block ${level}`, () => {
        const block = JSON.parse(fs.readFileSync(path.join(blocksDir, level, 'block.json'), 'utf8'));
        const header = block.header;
        const hashes = block.operations.map((pass: Array<{ hash: string }>) => pass.map((o) => o.hash));
        expect(operationsHash(hashes)).toBe(header.operations_hash);
        if (block.protocol.startsWith('PtTALLiN'))
          expect(blockHash(header, header, header.signature)).toBe(block.hash);
      });
    }
  });
});
