// Persistence of the sandbox chain under `${dataDir}/sandbox/`:
//   blocks.jsonl  append-only block log, one StoredBlock JSON per line, fsync'd after each append.
//   state.json    snapshot {level, hash, state} of the head state, written to a temp file, fsync'd,
//                 then renamed over the old one (atomic on POSIX).
// On open a torn last line (crash mid-append) is truncated away; a snapshot older than the log's
// head is brought forward by replaying the receipts of the missing blocks.
// A write that fails (disk full, permission denied, the folder removed under it) throws a StorageError and
// leaves the log as it was (a partly written line is cut off again), and `ensureWritable` finds a folder
// that was removed, whose log the store still holds open (issue 34).
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

/** A write or check of the store failed: the chain cannot be persisted (the cause's code, e.g. ENOSPC). */
export class StorageError extends Error {
  readonly code: string | undefined;
  constructor(message: string, cause?: unknown) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    super(`${message}${detail}`, { cause });
    this.name = 'StorageError';
    this.code = code;
  }
}

/** Writes all of `buf` at `position` (a write may take fewer bytes than asked, e.g. on a filling disk). */
function writeAll(fd: number, buf: Buffer, position: number): void {
  for (let done = 0; done < buf.length;) {
    const n = fs.writeSync(fd, buf, done, buf.length - done, position + done);
    if (n <= 0) throw new Error(`a write of ${buf.length} bytes stopped at ${done}`);
    done += n;
  }
}

/** Runs a file operation; its error becomes a StorageError saying what was being done. */
function io<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw e instanceof StorageError ? e : new StorageError(what, e);
  }
}

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

  /** `mustExist`: a reopen of a chain that was open (a restarted worker): its missing log is a fault, not a new chain. */
  static open(dataDir: string, mustExist = false): ChainStore {
    const dir = path.join(dataDir, 'sandbox');
    const file = path.join(dir, 'blocks.jsonl');
    if (mustExist && !fs.existsSync(file))
      throw new StorageError(
        `the sandbox's block log ${file} is gone; restore it or restart to begin a new chain`,
      );
    fs.mkdirSync(dir, { recursive: true });
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

  /**
   * Checks that the store's folder is there and holds the log this store has open. When the folder was
   * removed and made again (empty, or with another log), the chain this store still holds open is written
   * there again (a temporary file, fsync'd, renamed), so that nothing of it is lost. Throws a StorageError
   * while the folder is missing.
   */
  ensureWritable(): void {
    const file = path.join(this.dir, 'blocks.jsonl');
    const dirStat = io(`the sandbox's storage folder ${this.dir} is gone`, () => fs.statSync(this.dir));
    if (!dirStat.isDirectory()) throw new StorageError(`${this.dir} is not a folder`);
    const open = fs.fstatSync(this.fd);
    let onDisk: fs.Stats | undefined;
    try {
      onDisk = fs.statSync(file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new StorageError(`cannot read ${file}`, e);
    }
    if (onDisk && onDisk.ino === open.ino && onDisk.dev === open.dev) return;
    // the folder is new: write the log held open into it
    const tmp = `${file}.tmp`;
    io(`cannot write the block log again into ${this.dir}`, () => {
      const out = fs.openSync(tmp, 'w');
      try {
        const chunk = Buffer.alloc(1 << 20);
        for (let at = 0; at < this.size;) {
          const n = fs.readSync(this.fd, chunk, 0, Math.min(chunk.length, this.size - at), at);
          if (n <= 0) throw new Error(`the block log held open ends at ${at} of ${this.size} bytes`);
          writeAll(out, chunk.subarray(0, n), at);
          at += n;
        }
        fs.fsyncSync(out);
      } catch (e) {
        fs.closeSync(out);
        fs.rmSync(tmp, { force: true });
        throw e;
      }
      fs.renameSync(tmp, file);
      fs.closeSync(out);
    });
    const fd = io(`cannot open ${file}`, () => fs.openSync(file, 'r+'));
    fs.closeSync(this.fd);
    this.fd = fd;
  }

  append(block: StoredBlock): void {
    if (block.header.level !== this.index.length)
      throw new Error(`block level ${block.header.level} is not next`);
    const buf = Buffer.from(JSON.stringify(block) + '\n', 'utf8');
    try {
      writeAll(this.fd, buf, this.size);
      fs.fsyncSync(this.fd);
    } catch (e) {
      // a partly written line is not a block: cut it off (best effort; a reopen would truncate it too)
      try {
        fs.ftruncateSync(this.fd, this.size);
      } catch {
        // the next append overwrites it
      }
      throw new StorageError(`cannot append block ${block.header.level} to the block log`, e);
    }
    this.addToIndex(block, this.size, buf.length - 1);
    this.size += buf.length;
    this.remember(block.header.level, block);
  }

  /** Drops the blocks above `level` from the log (test-only forks of the chain). */
  truncate(level: number): void {
    const next = this.index[level + 1];
    if (!next) return;
    io(`cannot truncate the block log to level ${level}`, () => {
      fs.ftruncateSync(this.fd, next.offset);
      fs.fsyncSync(this.fd);
    });
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
    io(`cannot write the state snapshot ${file}`, () => {
      const fd = fs.openSync(tmp, 'w');
      try {
        writeAll(fd, Buffer.from(JSON.stringify(s), 'utf8'), 0);
        fs.fsyncSync(fd);
      } catch (e) {
        fs.closeSync(fd);
        // a half-written snapshot holds space a full disk needs back
        fs.rmSync(tmp, { force: true });
        throw e;
      }
      fs.closeSync(fd);
      fs.renameSync(tmp, file);
    });
  }

  close(): void {
    if (this.fd >= 0) {
      fs.closeSync(this.fd);
      this.fd = -1;
    }
  }
}
