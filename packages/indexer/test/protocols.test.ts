import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProtocolRegistry, defaultHandler, InvalidNodeDataError } from '../src/index';
import { blockHash, FIXTURE_BLOCKS, SHARED, TALLINN } from './fake-node';

const MISC = path.join(SHARED, 'fixtures/rpc/misc');
const hasBlocks = existsSync(FIXTURE_BLOCKS);
if (!hasBlocks)
  console.warn(`[indexer tests] ${FIXTURE_BLOCKS} is absent: real-block parsing tests are skipped.`);
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

const registry = new ProtocolRegistry();

describe.skipIf(!hasBlocks)('protocol handlers on real mainnet blocks', () => {
  it.each(['839681', '1064978', '11610082', '11680082'])(
    'parses block %s (header fields and protocols)',
    (level) => {
      const raw = readJson(path.join(FIXTURE_BLOCKS, level, 'block.json'));
      const header = raw.header as Record<string, unknown>;
      const metadata = raw.metadata as Record<string, unknown>;
      const block = registry.get(raw.protocol as string).parseBlock(raw, `block ${level}`);
      expect(block).toEqual({
        level: Number(level),
        hash: raw.hash,
        predecessor: header.predecessor,
        timestamp: new Date(header.timestamp as string),
        protocol: raw.protocol,
        chainId: raw.chain_id,
        nextProtocol: metadata.next_protocol,
      });
    },
  );

  it('gives pre-Granada protocols the time_between_blocks constant and newer ones minimal_block_delay', () => {
    const legacy = readJson(path.join(MISC, 'go-tezos/constants.json'));
    const babylon = registry.get('PsBabyM1eUXZseaJdmXFApDSBqj8YBfwELoxZHHW77EMcAbbwAS');
    const parsed = babylon.parseConstants(legacy, 'constants');
    expect(parsed.timeBetweenBlocks).toBe(Number((legacy.time_between_blocks as string[])[0]));
    expect(parsed.costPerByte).toBe(Number(legacy.cost_per_byte));
    expect(parsed.raw).toBe(legacy);

    const tallinn = readJson(path.join(FIXTURE_BLOCKS, '11680082/constants.json'));
    expect(registry.get(TALLINN).parseConstants(tallinn, 'constants').timeBetweenBlocks).toBe(
      Number(tallinn.minimal_block_delay),
    );
    // The modern handler does not fall back to the legacy field: a pre-Granada constants object is refused.
    expect(() => registry.get(TALLINN).parseConstants(legacy, 'constants')).toThrow(/minimal_block_delay/);
  });

  it('parses the /header answer of a real node', () => {
    const raw = readJson(path.join(MISC, 'mainnet/head_header.json'));
    const header = registry.get(raw.protocol as string).parseHeader(raw, 'head');
    expect(header).toMatchObject({
      level: raw.level,
      hash: raw.hash,
      protocol: raw.protocol,
      chainId: raw.chain_id,
    });
  });
});

describe('protocol registry', () => {
  it('uses the default handler for an unknown protocol and lets a network register its own', () => {
    const unknown = 'ProtoALphaALphaALphaALphaALphaALphaALphaALphaDdp3zK';
    const own = new ProtocolRegistry();
    expect(own.has(unknown)).toBe(false);
    expect(own.get(unknown)).toBe(defaultHandler);
    const sandbox = { ...defaultHandler, name: 'sandbox' };
    own.register(unknown, sandbox);
    expect(own.get(unknown).name).toBe('sandbox');
    expect(registry.get(unknown)).toBe(defaultHandler);
  });

  it('genesis protocols have no constants', () => {
    expect(registry.get('PrihK96nBAFSxVL1GLJTVhu9YnzkMFiBeuJRPA8NwuZVZCE1L6i').hasConstants).toBe(false);
    expect(registry.get(TALLINN).hasConstants).toBe(true);
  });
});

describe('validation of node data', () => {
  const good = () => ({
    protocol: TALLINN,
    chain_id: 'NetXdQprcVkpaWU',
    hash: blockHash('x:5'),
    header: { level: 5, predecessor: blockHash('x:4'), timestamp: '2026-01-27T12:11:37Z' },
    metadata: { protocol: TALLINN, next_protocol: TALLINN },
  });
  const parse = (raw: unknown) => defaultHandler.parseBlock(raw, 'block 5');

  it('accepts a well-formed block', () => {
    expect(parse(good())).toMatchObject({ level: 5, nextProtocol: TALLINN });
  });

  it.each([
    [
      'missing level',
      (b: ReturnType<typeof good>) => delete (b.header as Partial<typeof b.header>).level,
      /level must be a non-negative integer level, got nothing/,
    ],
    [
      'fractional level',
      (b: ReturnType<typeof good>) => ((b.header as Record<string, unknown>).level = 5.5),
      /level must be/,
    ],
    [
      'string level',
      (b: ReturnType<typeof good>) => ((b.header as Record<string, unknown>).level = '5'),
      /level must be/,
    ],
    ['missing hash', (b: ReturnType<typeof good>) => delete (b as Partial<typeof b>).hash, /hash is missing/],
    [
      'hash with a bad checksum',
      (b: ReturnType<typeof good>) => (b.hash = b.hash.slice(0, -1) + (b.hash.endsWith('a') ? 'b' : 'a')),
      /hash is not a valid block hash/,
    ],
    [
      'operation hash as block hash',
      (b: ReturnType<typeof good>) => (b.hash = 'ooLSfHyM6zAmLxGdt9y9mUnKHtKtFnvCzyJAYHu4KS3WGoQXExr'),
      /hash is not a valid block hash/,
    ],
    [
      'predecessor not a string',
      (b: ReturnType<typeof good>) => ((b.header as Record<string, unknown>).predecessor = 42),
      /predecessor is missing/,
    ],
    [
      'predecessor equal to hash',
      (b: ReturnType<typeof good>) => (b.header.predecessor = b.hash),
      /predecessor equals/,
    ],
    [
      'timestamp not RFC 3339',
      (b: ReturnType<typeof good>) => (b.header.timestamp = 'yesterday'),
      /timestamp must be an RFC 3339 timestamp/,
    ],
    [
      'impossible date',
      (b: ReturnType<typeof good>) => (b.header.timestamp = '2026-13-45T99:00:00Z'),
      /timestamp/,
    ],
    [
      'bad protocol',
      (b: ReturnType<typeof good>) => (b.protocol = 'PtNotAProtocol'),
      /protocol is not a valid protocol hash/,
    ],
    [
      'bad chain id',
      (b: ReturnType<typeof good>) => (b.chain_id = 'NetXbad'),
      /chain_id is not a valid chain id/,
    ],
    [
      'metadata protocol differs',
      (b: ReturnType<typeof good>) =>
        (b.metadata.protocol = 'PsBabyM1eUXZseaJdmXFApDSBqj8YBfwELoxZHHW77EMcAbbwAS'),
      /metadata.protocol differs/,
    ],
    [
      'header not an object',
      (b: ReturnType<typeof good>) => ((b as Record<string, unknown>).header = 'nope'),
      /header: expected an object/,
    ],
  ])('rejects %s with a clear error', (_name, mutate, message) => {
    const b = good();
    mutate(b);
    expect(() => parse(b)).toThrow(InvalidNodeDataError);
    expect(() => parse(b)).toThrow(message);
  });

  it('rejects a block that is not an object at all', () => {
    expect(() => parse(null)).toThrow(/block 5: expected an object, got null/);
    expect(() => parse('<html>')).toThrow(/expected an object/);
  });
});
