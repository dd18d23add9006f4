/**
 * Indexer CPU per dense block without the database or HTTP: JSON.parse of the block text, validation of
 * the header (protocol handler), parseBlockOperations, and JSON.stringify of the rows as the writer sends
 * them. Isolates the indexer's own per-block/per-operation cost from PostgreSQL and from other load.
 *
 *   npx tsx bench/indexer-parse.ts [blocks=40] [groupsPerBlock=250] [srcDir=packages/indexer/src]
 *
 * Reports process CPU time (user + system), which a busy machine disturbs much less than wall time.
 * srcDir = another copy of the indexer sources (e.g. `git archive` of an older commit) for before/after.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ProtocolRegistry } from '@michelscope/indexer';
import { hasFixtures, TALLINN } from '../packages/indexer/test/fake-node';
import { denseNode } from './dense-chain';

const blocks = Number(process.argv[2] ?? 40);
const perBlock = Number(process.argv[3] ?? 250);
const srcDir = path.resolve(process.argv[4] ?? 'packages/indexer/src');
const { blockReferences, parseBlockOperations } = (await import(
  pathToFileURL(path.join(srcDir, 'parse/block.ts')).href
)) as typeof import('../packages/indexer/src/parse/block');
if (!hasFixtures) {
  console.error('bench: ../shared/fixtures is absent');
  process.exit(1);
}
const { node } = denseNode(blocks, perBlock);
const texts = [...node.blocks.values()].map((b) => JSON.stringify(b));
const handler = new ProtocolRegistry().get(TALLINN);
let ops = 0;
const run = () => {
  ops = 0;
  const c0 = process.cpuUsage();
  for (const [i, text] of texts.entries()) {
    const raw = JSON.parse(text) as unknown;
    handler.parseBlock(raw, `block ${i + 1}`);
    blockReferences(raw);
    const data = parseBlockOperations(
      raw,
      {
        level: i + 1,
        timestamp: new Date(),
        costPerByte: 250,
        era: handler.era,
        contract: () => undefined,
        constant: () => undefined,
      },
      `block ${i + 1}`,
    );
    ops += data.operations.length;
    JSON.stringify(data.operations);
    JSON.stringify(data.bigMapDiffs);
  }
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};
run(); // warm-up (JIT)
const times = [run(), run(), run(), run(), run()].sort((a, b) => a - b);
const ms = times[1]!;
const mb = texts.reduce((n, t) => n + t.length, 0) / blocks / 1e6;
console.log(
  `parse (${path.relative(process.cwd(), srcDir)}): ${blocks} blocks × ${perBlock} groups (${mb.toFixed(2)} MB each), ${ops} operations: median CPU ${ms.toFixed(0)} ms = ${(ms / blocks).toFixed(1)} ms/block, ${Math.round(ops / (ms / 1000))} operations/s`,
);
