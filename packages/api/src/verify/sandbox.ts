/**
 * Runs a compiler's JavaScript in a worker thread of its own, one per compile (issue 38): never on the thread
 * serving the API. Bounded: a wall-clock limit (the worker is terminated past it), a heap limit (worker
 * `resourceLimits`), and a scratch folder (a fresh temporary directory holding the submitted files, removed
 * after). Inside the worker, before the compiler runs, the `fs` module answers only paths under the scratch
 * folder and the network and process modules (`net`, `http`, `child_process`, …) cannot be loaded: the
 * compiler reads no file and reaches no host the submitter could name. This is a guard within Node, not an OS
 * sandbox: it holds for the compilers registered here (js_of_ocaml code that uses `fs` only).
 *
 * The worker's code is a string (`new Worker(code, { eval: true })`), so the same file serves the sources
 * under tsx and the server bundle, with no worker entry of its own; a compiler's module is found with
 * `require.resolve` here (a path, nothing loaded) and required inside the worker only.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/** Why a compile gave no script. */
export class CompileFailure extends Error {
  constructor(
    readonly kind: 'rejected' | 'timeout' | 'memory' | 'crashed',
    message: string,
  ) {
    super(message);
  }
}

export interface SandboxLimits {
  /** Wall-clock limit, in ms (the route's: 20 s). */
  timeoutMs: number;
  /** Old-generation heap of the worker, in MB (default 512). */
  maxHeapMb?: number;
}

/**
 * The prelude every compile worker runs first: it loads the modules named in `workerData.preload` (the
 * compiler, while the file system is still open to node_modules), then closes `fs` to everything outside
 * `workerData.scratch` and refuses the network and process modules. `workerData.task` is for the body.
 */
const PRELUDE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const nodePath = require('node:path');
const Module = require('node:module');
const loaded = {};
for (const [name, file] of Object.entries(workerData.preload || {})) loaded[name] = require(file);
const scratch = workerData.scratch;
const inside = (p) => {
  if (typeof p === 'number') return true;
  let s = p;
  if (p instanceof URL) s = p.pathname;
  else if (Buffer.isBuffer(p)) s = p.toString();
  if (typeof s !== 'string') return false;
  const r = nodePath.resolve(scratch, s);
  return r === scratch || r.startsWith(scratch + nodePath.sep);
};
const denied = (p) => Object.assign(new Error('ENOENT: no such file or directory, ' + String(p)), { code: 'ENOENT' });
for (const key of Object.keys(fs)) {
  const f = fs[key];
  if (typeof f !== 'function' || /^[A-Z]/.test(key) || key === 'fstatSync' || key === 'readSync' ||
      key === 'writeSync' || key === 'closeSync' || key === 'fsyncSync') continue;
  fs[key] = function (p, ...rest) {
    if (!inside(p)) {
      if (key === 'existsSync') return false;
      const cb = rest[rest.length - 1];
      if (typeof cb === 'function' && !key.endsWith('Sync')) return void process.nextTick(cb, denied(p));
      throw denied(p);
    }
    return f.call(this, p, ...rest);
  };
}
const closed = new Set(['net', 'http', 'https', 'http2', 'tls', 'dgram', 'dns', 'child_process', 'cluster',
  'inspector', 'worker_threads', 'undici']);
const load = Module._load;
Module._load = function (request, ...rest) {
  const bare = String(request).replace(/^node:/, '');
  if (closed.has(bare)) throw new Error('module ' + bare + ' is not available to a compiler');
  return load.call(this, request, ...rest);
};
delete globalThis.fetch;
delete globalThis.WebSocket;
const done = (value) => parentPort.postMessage({ ok: true, value });
const fail = (message) => parentPort.postMessage({ ok: false, message: String(message) });
`;

/**
 * Runs `body` (JavaScript: the prelude's `loaded`, `scratch`, `workerData.task`, `done(value)` and
 * `fail(message)` in scope) in a fresh worker with `files` written under its scratch folder. Resolves with
 * what `done` gave; rejects with a CompileFailure: `rejected` (fail), `timeout`, `memory`, `crashed`.
 */
export async function runSandboxed<T>(
  body: string,
  input: { preload?: Record<string, string>; task?: unknown; files?: { name: string; content: string }[] },
  limits: SandboxLimits,
): Promise<T> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'michelscope-compile-'));
  try {
    for (const f of input.files ?? []) {
      const target = path.join(scratch, f.name);
      if (!target.startsWith(scratch + path.sep))
        throw new CompileFailure('rejected', `bad file name ${f.name}`);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, f.content);
    }
    return await new Promise<T>((resolve, reject) => {
      const worker = new Worker(
        `${PRELUDE}\n;(async () => {\n${body}\n})().catch((e) => fail(e && e.message || e));`,
        {
          eval: true,
          workerData: { scratch, preload: input.preload ?? {}, task: input.task },
          resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb ?? 512, maxYoungGenerationSizeMb: 64 },
          stdout: true,
          stderr: true,
          env: {},
        },
      );
      worker.stdout.resume(); // a compiler's prints are not read
      worker.stderr.resume();
      let settled = false;
      const settle = (f: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        f();
        void worker.terminate();
      };
      const seconds = limits.timeoutMs / 1000;
      const timer = setTimeout(
        () =>
          settle(() =>
            reject(
              new CompileFailure(
                'timeout',
                `The compiler did not finish within ${seconds >= 1 ? `${seconds} s` : `${limits.timeoutMs} ms`}.`,
              ),
            ),
          ),
        limits.timeoutMs,
      );
      worker.on('message', (m: { ok: boolean; value?: T; message?: string }) =>
        settle(() =>
          m.ok ? resolve(m.value as T) : reject(new CompileFailure('rejected', m.message ?? '')),
        ),
      );
      worker.on('error', (e: Error & { code?: string }) =>
        settle(() =>
          reject(
            e.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? new CompileFailure(
                  'memory',
                  `The compiler ran out of memory (at most ${limits.maxHeapMb ?? 512} MB).`,
                )
              : new CompileFailure('crashed', `The compiler crashed: ${e.message}`),
          ),
        ),
      );
      worker.on('exit', (code) =>
        settle(() => reject(new CompileFailure('crashed', `The compiler stopped (exit code ${code}).`))),
      );
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
