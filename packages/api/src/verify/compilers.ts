/**
 * The compilers verified source offers (issue 38): Archetype (archetype.ts, always there: an npm dependency),
 * SmartPy (the Python package `smartpy-tezos`, used when `python3 -c "import smartpy"` works on this server)
 * and LIGO (not offered: it needs the `ligo` binary). `compilerInfos` probes each once and keeps the answer.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CompilerInfo } from '@michelscope/api-types';
import { toMicheline, type Micheline } from '@michelscope/michelson';
import { archetypeCompiler } from './archetype';
import type { Availability, CompileInput, CompileLimits, CompileOutput, SourceCompiler } from './compiler';
import { CompileFailure } from './sandbox';

/** Runs a program with a timeout in `cwd`, with an environment of PATH and HOME only. */
function run(
  file: string,
  args: string[],
  cwd: string,
  timeoutMs: number,
): Promise<{ code: number; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        cwd,
        timeout: timeoutMs,
        maxBuffer: 4 << 20,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd },
      },
      (error, stdout, stderr) => {
        const e = error as (Error & { code?: number | string; killed?: boolean }) | null;
        resolve({
          code: e ? (typeof e.code === 'number' ? e.code : -1) : 0,
          stdout,
          stderr,
          timedOut: !!e?.killed,
        });
      },
    );
  });
}

/**
 * SmartPy: a contract's Python file run by `python3` in a scratch folder (the files written there), with the
 * route's time limit; its test scenario writes the compiled contract (`…contract.json`, Micheline) under that
 * folder. A child process: no heap limit of ours, and nothing in Node can keep it off the network (an operator
 * who needs that runs the server where Python has none). No source locations.
 */
export const smartpyCompiler: SourceCompiler = {
  id: 'smartpy',
  name: 'SmartPy',
  extensions: ['.py'],
  sourceLocations: false,
  options: {},
  async probe(limits: CompileLimits): Promise<Availability> {
    const r = await run(
      'python3',
      ['-c', "import smartpy, importlib.metadata as m; print(m.version('smartpy-tezos'))"],
      tmpdir(),
      Math.min(limits.timeoutMs, 10_000),
    ).catch(() => undefined);
    if (!r || r.code !== 0)
      return {
        available: false,
        reason: 'SmartPy is not installed on this server: install the Python package smartpy-tezos',
      };
    return { available: true, versions: [r.stdout.trim()] };
  },
  async compile(input: CompileInput, limits: CompileLimits): Promise<CompileOutput> {
    const scratch = await mkdtemp(path.join(tmpdir(), 'michelscope-smartpy-'));
    try {
      for (const f of input.files) {
        await mkdir(path.dirname(path.join(scratch, f.name)), { recursive: true });
        await writeFile(path.join(scratch, f.name), f.content);
      }
      const r = await run('python3', [input.main], scratch, limits.timeoutMs);
      if (r.timedOut)
        throw new CompileFailure(
          'timeout',
          `The compiler did not finish within ${limits.timeoutMs / 1000} s.`,
        );
      if (r.code !== 0) throw new CompileFailure('rejected', r.stderr || r.stdout || `exit code ${r.code}`);
      const outputs = (await readdir(scratch, { recursive: true }))
        .filter((f) => /contract\.json$/.test(f))
        .sort();
      if (outputs.length === 0)
        throw new CompileFailure(
          'rejected',
          'no compiled contract: add a test scenario that adds the contract',
        );
      const script = toMicheline(JSON.parse(await readFile(path.join(scratch, outputs[0]!), 'utf8')));
      return { script: script as Micheline[], locations: [] };
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  },
};

/** LIGO: not offered (its compiler is a native binary this server does not ship). */
export const ligoCompiler: SourceCompiler = {
  id: 'ligo',
  name: 'LIGO',
  extensions: ['.mligo', '.jsligo'],
  sourceLocations: false,
  options: {},
  probe: () =>
    Promise.resolve({
      available: false,
      reason:
        'LIGO is not available on this server: it needs the `ligo` compiler binary (ligolang.org) installed ' +
        'and a compile path for it',
    }),
  compile: () => Promise.reject(new CompileFailure('rejected', 'LIGO is not available on this server')),
};

export const defaultCompilers = (): SourceCompiler[] => [archetypeCompiler, smartpyCompiler, ligoCompiler];

/** Each compiler's info, probed once per registry (the probes run in parallel, each bounded). */
export class CompilerRegistry {
  private infos: Promise<Map<string, CompilerInfo>> | undefined;
  constructor(
    readonly compilers: SourceCompiler[],
    private readonly limits: CompileLimits,
  ) {}

  get(id: string): SourceCompiler | undefined {
    return this.compilers.find((c) => c.id === id);
  }

  info(): Promise<Map<string, CompilerInfo>> {
    this.infos ??= Promise.all(
      this.compilers.map(async (c): Promise<CompilerInfo> => {
        const a = await c
          .probe(this.limits)
          .catch((e: unknown): Availability => ({ available: false, reason: (e as Error).message }));
        return {
          id: c.id,
          name: c.name,
          available: a.available,
          versions: a.available ? a.versions : [],
          extensions: c.extensions,
          ...(a.available ? {} : { reason: a.reason }),
          source_locations: c.sourceLocations,
        };
      }),
    ).then((list) => new Map(list.map((i) => [i.id, i])));
    return this.infos;
  }
}
