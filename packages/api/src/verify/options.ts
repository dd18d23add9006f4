/** Options of the verified-source routes (issue 38), apart from the routes so that options.ts imports no route. */
import type { SourceCompiler } from './compiler';

export interface VerifyOptions {
  /** The compilers offered (default: Archetype, SmartPy when installed, LIGO not available). */
  compilers?: SourceCompiler[];
  /** Wall-clock limit of one compile, in ms (default 20,000). */
  timeoutMs?: number;
  /** Heap of a compile's worker, in MB (default 512). */
  maxHeapMb?: number;
  /** Submissions per client (request.ip) and window (default 10 per 10 minutes). */
  rateLimit?: { max: number; windowMs: number };
  /** Compiles running at once (default 1) and waiting (default 4; past it 503). */
  concurrency?: number;
  maxQueue?: number;
}
