/**
 * The sliced block parse the follower uses while catching up: same rows as the one-go parse, and the thread
 * is handed back between operation groups (the background writer needs those turns to send its statements).
 */
import { describe, expect, it } from 'vitest';
import { ProtocolRegistry } from '../src/protocols/registry';
import { parseBlockOperations, parseBlockOperationsInSlices } from '../src/parse/block';
import type { ParseContext } from '../src/parse/builder';
import { hasFixtures, readFixture, TALLINN } from './fake-node';

if (!hasFixtures)
  console.warn('[parse-slices] ../shared/fixtures is absent: the real-block checks are skipped.');

const ctx = (): ParseContext => ({
  level: 11680082,
  timestamp: new Date('2025-11-01T00:00:00Z'),
  costPerByte: 250,
  era: new ProtocolRegistry().get(TALLINN).era,
  contract: () => undefined,
  constant: () => undefined,
});

describe('parseBlockOperationsInSlices', () => {
  it.skipIf(!hasFixtures)(
    'gives the same block data as the one-go parse (a real Tallinn block)',
    async () => {
      const raw = readFixture('11680082/block.json');
      const once = parseBlockOperations(raw, ctx(), 'block');
      expect(once.operations.length).toBeGreaterThan(0);
      expect(await parseBlockOperationsInSlices(raw, ctx(), 'block', 0)).toEqual(once);
      expect(await parseBlockOperationsInSlices(raw, ctx(), 'block')).toEqual(once);
    },
  );

  it.skipIf(!hasFixtures)('lets other work run while it parses', async () => {
    const raw = readFixture('11680082/block.json') as { operations: unknown[][] };
    const groups = raw.operations.reduce((n, pass) => n + pass.length, 0);
    let turns = 0;
    let parsing = true;
    const tick = () => {
      if (!parsing) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    await parseBlockOperationsInSlices(raw, ctx(), 'block', 0);
    parsing = false;
    // with no time slice, the parse pauses after every group
    expect(turns).toBeGreaterThanOrEqual(groups - 1);
    turns = 0;
    parsing = true;
    setImmediate(tick);
    parseBlockOperations(raw, ctx(), 'block');
    parsing = false;
    expect(turns).toBe(0);
  });

  it('rejects a malformed block with the one-go parse error', async () => {
    const bad = { operations: [[{ contents: 'not a list' }]] };
    let message = '';
    try {
      parseBlockOperations(bad, ctx(), 'block 7');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('block 7');
    await expect(parseBlockOperationsInSlices(bad, ctx(), 'block 7', 0)).rejects.toThrow(message);
  });
});
