/**
 * Archetype (`@completium/archetype`, the compiler as js_of_ocaml JavaScript, ~2.7 MB): loaded only inside a
 * compile worker (sandbox.ts), never on the API's thread. `compile_from_string` of the main file gives the
 * script's sections as Micheline JSON (`{target: 'michelson', json: true}`), and with `{target: 'debug-trace'}`
 * the same Micheline where statements' instructions carry `debug.range` (file, begin and end line/col): the
 * source map. Contract parameters (`archetype counter(owner : address)`) only fill the initial storage, so the
 * code does not depend on them. The version a request names is the compiler's own (`version()`: 1.5.3 for the
 * npm package 1.0.6).
 */
import { createRequire } from 'node:module';
import type { Micheline } from '@michelscope/michelson';
import type {
  CompiledLocation,
  CompileInput,
  CompileLimits,
  CompileOutput,
  SourceCompiler,
} from './compiler';
import { runSandboxed } from './sandbox';

const BODY = String.raw`
const a = loaded.archetype;
const t = workerData.task;
if (t.kind === 'version') return done(String(a.version()));
let out;
try {
  out = JSON.parse(a.compile_from_string(t.source, { target: 'michelson', json: true }));
} catch (e) {
  return fail(e && e.message ? e.message : String(e));
}
const locations = [];
try {
  const d = JSON.parse(a.compile_from_string(t.source, { target: 'debug-trace' }));
  const stack = [[d.contract, '']];
  while (stack.length) {
    const [n, path] = stack.pop();
    if (Array.isArray(n)) {
      n.forEach((c, i) => stack.push([c, path === '' && c && c.prim ? c.prim : path + '[' + i + ']']));
    } else if (n && typeof n === 'object' && typeof n.prim === 'string') {
      const r = n.debug && n.debug.range;
      const b = r && (r.begin || r.begin_);
      const e = r && (r.end || r.end_);
      if (b && e && typeof b.line === 'number')
        locations.push({ path, start_line: b.line, start_col: b.col, end_line: e.line, end_col: e.col });
      (n.args || []).forEach((c, i) => stack.push([c, path + '.args[' + i + ']']));
    }
  }
} catch {}
done({ script: out.code, locations });
`;

let modulePath: string | undefined;
/** The compiler module's file (resolved, not loaded). */
const archetypeModule = () =>
  (modulePath ??= createRequire(import.meta.url).resolve('@completium/archetype'));

export const archetypeCompiler: SourceCompiler = {
  id: 'archetype',
  name: 'Archetype',
  extensions: ['.arl'],
  sourceLocations: true,
  options: {},
  async probe(limits: CompileLimits) {
    try {
      const version = await runSandboxed<string>(
        BODY,
        { preload: { archetype: archetypeModule() }, task: { kind: 'version' } },
        {
          timeoutMs: limits.timeoutMs,
          maxHeapMb: limits.maxHeapMb,
        },
      );
      return { available: true, versions: [version] };
    } catch (e) {
      return { available: false, reason: `The Archetype compiler could not start: ${(e as Error).message}` };
    }
  },
  async compile(input: CompileInput, limits: CompileLimits): Promise<CompileOutput> {
    const source = input.files.find((f) => f.name === input.main)!.content;
    const out = await runSandboxed<{ script: Micheline[]; locations: Omit<CompiledLocation, 'file'>[] }>(
      BODY,
      { preload: { archetype: archetypeModule() }, task: { kind: 'compile', source }, files: input.files },
      limits,
    );
    return { script: out.script, locations: out.locations.map((l) => ({ ...l, file: input.main })) };
  },
};
