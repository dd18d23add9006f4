// Persistence of the sandbox chain under `${dataDir}/sandbox/`:
//   blocks.jsonl  append-only block log, one StoredBlock JSON per line, fsync'd after each append.
//   state.json    snapshot {level, hash, state} of the head state, written to a temp file, fsync'd,
//                 then renamed over the old one (atomic on POSIX).
// On open a torn last line (crash mid-append) is truncated away; a snapshot older than the log's
// head is brought forward by replaying the receipts of the missing blocks.
import fs from 'node:fs';
import path from 'node:path';
import type { Changes } from './state';
import type { OperationEntry } from './operation-types';
import type { ProtocolData, ShellHeader } from './hashing';

export type BlockHeader = ShellHeader & ProtocolData & { signature: string };

export interface StoredBlock {
  hash: string;
  header: BlockHeader;
  /** Four validation passes; only the manager pass (3) is ever filled by the sandbox. */
  operations: OperationEntry[][];
  /** Sum of the fees of the block's operations (mutez), paid to the baker. */
  fees: string;
  /** State changes of the block: values before (`undo`) and after (`redo`); null = absent. */
  undo?: Changes;
  redo?: Changes;
}

export interface Snapshot {
  level: number;
  hash: string;
  /** The state store (see state.ts); `ledger` in snapshots of sandbox v0. */
  state?: Record<string, unknown>;
  ledger?: unknown;
}

interface IndexEntry {
  hash: string;
  offset: number;
  length: number;
  hasOps: boolean;
}

const CACHE_SIZE = 256;

export class ChainStore {
  private readonly index: IndexEntry[] = [];
  private readonly byHash = new Map<string, number>();
  private readonly cache = new Map<number, StoredBlock>();
  private fd: number;
  private size: number;

  private constructor(
    readonly dir: string,
    fd: number,
    size: number,
  ) {
    this.fd = fd;
    this.size = size;
  }

  static open(dataDir: string): ChainStore {
    const dir = path.join(dataDir, 'sandbox');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'blocks.jsonl');
    const fd = fs.openSync(file, fs.existsSync(file) ? 'r+' : 'w+');
    const store = new ChainStore(dir, fd, 0);
    store.load();
    return store;
  }

  /** Scans the log, builds the level/hash index and truncates a torn or invalid tail. */
  private load(): void {
    const data = fs.readFileSync(this.fd);
    let offset = 0;
    while (offset < data.length) {
      const nl = data.indexOf(0x0a, offset);
      if (nl < 0) break;
      const line = data.subarray(offset, nl).toString('utf8');
      let block: StoredBlock;
      try {
        block = JSON.parse(line) as StoredBlock;
      } catch {
        break;
      }
      if (!block || typeof block.hash !== 'string' || block.header?.level !== this.index.length) break;
      this.addToIndex(block, offset, nl - offset);
      offset = nl + 1;
    }
    if (offset < data.length) fs.ftruncateSync(this.fd, offset);
    this.size = offset;
  }

  private addToIndex(block: StoredBlock, offset: number, length: number): void {
    const level = block.header.level;
    this.index[level] = {
      hash: block.hash,
      offset,
      length,
      hasOps: block.operations.some((p) => p.length > 0),
    };
    this.byHash.set(block.hash, level);
  }

  /** Level of the head, or -1 for an empty log. */
  get headLevel(): number {
    return this.index.length - 1;
  }

  hashAt(level: number): string | undefined {
    return this.index[level]?.hash;
  }

  levelOf(hash: string): number | undefined {
    return this.byHash.get(hash);
  }

  hasOperations(level: number): boolean {
    return this.index[level]?.hasOps ?? false;
  }

  append(block: StoredBlock): void {
    if (block.header.level !== this.index.length)
      throw new Error(`block level ${block.header.level} is not next`);
    const buf = Buffer.from(JSON.stringify(block) + '\n', 'utf8');
    fs.writeSync(this.fd, buf, 0, buf.length, this.size);
    fs.fsyncSync(this.fd);
    this.addToIndex(block, this.size, buf.length - 1);
    this.size += buf.length;
    this.remember(block.header.level, block);
  }

  /** Drops the blocks above `level` from the log (test-only forks of the chain). */
  truncate(level: number): void {
    const next = this.index[level + 1];
    if (!next) return;
    fs.ftruncateSync(this.fd, next.offset);
    fs.fsyncSync(this.fd);
    for (let l = this.index.length - 1; l > level; l--) {
      this.byHash.delete(this.index[l]!.hash);
      this.cache.delete(l);
    }
    this.index.length = level + 1;
    this.size = next.offset;
  }

  get(level: number): StoredBlock | undefined {
    const entry = this.index[level];
    if (!entry) return undefined;
    const cached = this.cache.get(level);
    if (cached) return cached;
    const buf = Buffer.alloc(entry.length);
    fs.readSync(this.fd, buf, 0, entry.length, entry.offset);
    const block = JSON.parse(buf.toString('utf8')) as StoredBlock;
    this.remember(level, block);
    return block;
  }

  private remember(level: number, block: StoredBlock): void {
    this.cache.set(level, block);
    if (this.cache.size > CACHE_SIZE) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
  }

  readSnapshot(): Snapshot | undefined {
    try {
      const s = JSON.parse(fs.readFileSync(path.join(this.dir, 'state.json'), 'utf8')) as Snapshot;
      if (
        typeof s.level === 'number' &&
        typeof s.hash === 'string' &&
        ((s.state && typeof s.state === 'object') || (s.ledger && typeof s.ledger === 'object'))
      )
        return s;
    } catch {
      // missing or torn snapshot: the caller replays from genesis
    }
    return undefined;
  }

  writeSnapshot(s: Snapshot): void {
    const file = path.join(this.dir, 'state.json');
    const tmp = `${file}.tmp`;
    const fd = fs.openSync(tmp, 'w');
    try {
      fs.writeSync(fd, JSON.stringify(s));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  }

  close(): void {
    if (this.fd >= 0) {
      fs.closeSync(this.fd);
      this.fd = -1;
    }
  }
}
