/**
 * The compiler interface of verified source (issue 38). A language is a `SourceCompiler`: it says whether this
 * server can run it (`probe`, called once and cached) and compiles a submission into the script's sections as
 * Micheline, with the compiled instructions' source locations when it has them. It runs its compiler outside
 * the API's thread, bounded (sandbox.ts for JavaScript compilers: a worker per compile; a child process with a
 * timeout for native ones), and reports a refusal, time-out or crash as a `CompileFailure`. The registry
 * (compilers.ts `defaultCompilers`) lists the compilers the route offers; tests pass their own.
 */
import type { Micheline } from '@michelscope/michelson';

export type OptionValue = string | boolean;

/** What a compile gets: the files (names checked), the entry file, the version asked, allow-listed options. */
export interface CompileInput {
  files: { name: string; content: string }[];
  main: string;
  version: string;
  options: Record<string, OptionValue>;
}

/** Where a compiled instruction comes from in the sources. */
export interface CompiledLocation {
  /** The instruction's path in the compiled sections (`code.args[0][2].args[1][5]`, security's notation). */
  path: string;
  file: string;
  /** 1-based lines, 0-based columns. */
  start_line: number;
  start_col: number;
  end_line: number;
  end_col: number;
}

export interface CompileOutput {
  /** The sections (parameter, storage, code, views; any order). */
  script: Micheline[];
  /** Source locations of compiled instructions (empty when the compiler gives none). */
  locations: CompiledLocation[];
}

export interface CompileLimits {
  timeoutMs: number;
  maxHeapMb: number;
}

export type Availability = { available: true; versions: string[] } | { available: false; reason: string };

export interface SourceCompiler {
  /** The id requests name (`archetype`). */
  readonly id: string;
  readonly name: string;
  /** Source file extensions (`.arl`). */
  readonly extensions: string[];
  /** Whether compiles give source locations. */
  readonly sourceLocations: boolean;
  /** The options a request may set, and their type; any other is a 400. */
  readonly options: Record<string, 'string' | 'boolean'>;
  /** Whether this server can compile with it, and which versions (called once, then cached). */
  probe(limits: CompileLimits): Promise<Availability>;
  /** Compiles; throws CompileFailure when the compiler refuses, crashes or runs out of time or memory. */
  compile(input: CompileInput, limits: CompileLimits): Promise<CompileOutput>;
}
