/**
 * Where a page's main thread goes from navigation to its data shown (issue 18, localhost target): a cold
 * visit of each given path of a running product in Debian's chromium, with a CDP CPU profile and a
 * timeline trace. Prints, per page: the time to data (as bench/web-load.ts measures it), the main thread's
 * busy time in that window by kind (script compile, module evaluation and other script, style, layout,
 * paint, idle), the forced layouts (a script reading layout), and the CPU profile's self time grouped by
 * source package (mapped through the build's source maps) with the top functions. Medians over RUNS visits
 * (after one warm-up) for the kinds; the profile of the median visit for the packages.
 *
 *   npm run build:web   # with the product serving that build, e.g. michelscope start
 *   MS_BENCH_URL=http://127.0.0.1:PORT node --import tsx bench/web-profile.ts RUNS /PATH [/PATH…]
 *
 * MS_BENCH_CPU=4: chromium's CPU throttled (a phone, as bench/web-device.ts); MS_BENCH_THROTTLE=1: the network
 * throttle of bench/web-load.ts. A path with a `#debug=` fragment waits for the debugger's stack.
 */
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import type { Browser } from 'playwright-core';
import { ROOT, launchBrowser } from '../e2e/harness';
import { raisePriority } from './priority';
import { THROTTLED } from './web-load';

const BASE = process.env.MS_BENCH_URL;
const RUNS = Number(process.argv[2] ?? 3);
const PATHS = process.argv.slice(3);
if (!BASE || PATHS.length === 0 || !Number.isInteger(RUNS) || RUNS < 1) {
  console.error(
    'usage: MS_BENCH_URL=http://127.0.0.1:PORT node --import tsx bench/web-profile.ts RUNS /PATH…',
  );
  process.exit(2);
}
const DIST = path.join(ROOT, 'apps/web/dist');
const CPU_RATE = Number(process.env.MS_BENCH_CPU ?? 1);

/** The same "data shown" conditions as bench/web-load.ts, by the path's last segment. */
const SHOWN: Record<string, string> = {
  home: `document.querySelector('table[aria-label^="Recently called contracts"] tbody a[href*="/KT1"]')`,
  operations: `document.querySelector('ul[aria-label="Operation groups"] li[data-testid="opg-row"]')`,
  storage: `document.querySelector('[role="tree"][aria-label="Storage"] [role="treeitem"]')`,
  code: `document.querySelector('[role="region"][aria-label="Michelson code"][aria-busy="false"] :is([data-n] .ms-text > span[class^="ms-"], .cm-line span)')`,
};
/** A debugger link's page (`#debug=`): the dialog's controls and a stack item (as bench/web-device.ts). */
const DEBUGGER_SHOWN = `document.querySelector('[role="dialog"] [role="toolbar"][aria-label="Debugger controls"]') && document.querySelector('[role="dialog"] [role="tree"][aria-label="Stack items, top first"] [role="treeitem"]')`;
const shownFor = (p: string) =>
  p.includes('#debug=') ? DEBUGGER_SHOWN : (SHOWN[p === '/' ? 'home' : (p.split('/').pop() ?? '')] ?? 'true');

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { data?: Record<string, unknown>; beginData?: { stackTrace?: unknown[] } };
}
interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}
interface Visit {
  /** The longest task in the window: [start, end] in trace µs. */
  longest: [number, number];
  ms: number;
  kinds: Record<string, number>;
  forced: { count: number; ms: number };
  tasks: number;
  profile: Profile;
  navStart: number;
}

const KIND: Record<string, string> = {
  'v8.compile': 'compile',
  'v8.compileModule': 'compile',
  'V8.CompileCode': 'compile',
  'v8.parseOnBackground': 'compile',
  EvaluateScript: 'script',
  'v8.evaluateModule': 'script',
  FunctionCall: 'script',
  TimerFire: 'script',
  FireAnimationFrame: 'script',
  EventDispatch: 'script',
  'v8.run': 'script',
  UpdateLayoutTree: 'style',
  RecalculateStyles: 'style',
  ParseAuthorStyleSheet: 'style',
  Layout: 'layout',
  PrePaint: 'paint',
  Paint: 'paint',
  Layerize: 'paint',
  UpdateLayer: 'paint',
  Commit: 'paint',
  ParseHTML: 'html',
  MajorGC: 'gc',
  MinorGC: 'gc',
  'V8.GC_SCAVENGER': 'gc',
};

async function visit(browser: Browser, pagePath: string): Promise<Visit> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: {
      includedCategories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'disabled-by-default-devtools.timeline.stack',
        'v8',
        'v8.execute',
        'blink.user_timing',
        'toplevel',
        'loading',
      ],
    },
  });
  // MS_BENCH_CPU=4 / MS_BENCH_THROTTLE=1: a slow device's CPU / bench/web-load.ts's network throttle
  if (CPU_RATE > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_RATE });
  if (process.env.MS_BENCH_THROTTLE === '1') {
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, ...THROTTLED });
  }
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  try {
    await page.goto(`${BASE}${pagePath}`, { waitUntil: 'commit' });
    const handle = await page.waitForFunction(
      `(${shownFor(pagePath)}) ? performance.now() : false`,
      undefined,
      {
        polling: 'raf',
        timeout: 60_000,
      },
    );
    const ms = (await handle.jsonValue()) as number;
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
    await cdp.send('Tracing.end');
    await done;
    // the renderer's main thread: the one with the page's navigationStart mark
    const navs = events.filter((e) => e.name === 'navigationStart');
    const nav =
      navs.find((e) => (e.args?.data?.documentLoaderURL as string | undefined) ?? ''.startsWith(BASE!)) ??
      navs.find((e) => e.args?.data?.isLoadingMainFrame === true);
    if (!nav) throw new Error('no navigationStart in the trace');
    const main = events.filter(
      (e) => e.pid === nav.pid && e.tid === nav.tid && e.ph === 'X' && e.dur !== undefined,
    );
    const t0 = nav.ts;
    const t1 = nav.ts + ms * 1000;
    const inWindow = (e: TraceEvent) => e.ts >= t0 && e.ts < t1;
    const tasks = main.filter((e) => e.name === 'RunTask' && inWindow(e));
    // Time by kind: each top-level task's time goes to the innermost known kind of its children.
    const kinds: Record<string, number> = {};
    const known = main.filter((e) => KIND[e.name] && inWindow(e)).sort((a, b) => a.ts - b.ts);
    for (const task of tasks) {
      const end = task.ts + task.dur!;
      // walk microsecond intervals via events nested in the task: self time per event
      const inside = known.filter((e) => e.ts >= task.ts && e.ts < end);
      const self = new Map<TraceEvent, number>();
      for (const e of inside) self.set(e, e.dur!);
      for (const e of inside) {
        // subtract from the tightest enclosing event
        let parent: TraceEvent | undefined;
        for (const p of inside) {
          if (p === e || p.ts > e.ts || p.ts + p.dur! < e.ts + e.dur!) continue;
          if (!parent || p.dur! < parent.dur!) parent = p;
        }
        if (parent) self.set(parent, self.get(parent)! - e.dur!);
      }
      let covered = 0;
      for (const [e, t] of self) {
        const k = KIND[e.name]!;
        kinds[k] = (kinds[k] ?? 0) + t / 1000;
        covered += t;
      }
      kinds.other = (kinds.other ?? 0) + Math.max(0, task.dur! - covered) / 1000;
    }
    if (process.env.MS_PROFILE_NAMES) {
      const names = new Map<string, number>();
      for (const e of main) if (inWindow(e)) names.set(e.name, (names.get(e.name) ?? 0) + e.dur! / 1000);
      console.log(
        [...names]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 40)
          .map(([n, t]) => `${n} ${t.toFixed(1)}`)
          .join(' | '),
      );
    }
    if (process.env.MS_PROFILE_TASKS) {
      for (const task of tasks) {
        if (task.dur! < 4000) continue;
        const kids = main
          .filter((e) => e !== task && e.ts >= task.ts && e.ts < task.ts + task.dur! && e.dur! > 1000)
          .filter((e) =>
            /FunctionCall|EvaluateScript|evaluateModule|Layout|UpdateLayoutTree|TimerFire|FireAnimationFrame|ParseHTML|CommitNavigation|RunMicrotasks|Paint|compile/i.test(
              e.name,
            ),
          )
          .map((e) => {
            const d = e.args?.data ?? {};
            const what = ((d.functionName ?? d.url ?? d.fileName ?? '') as string).replace(/^.*\//, '');
            return `${e.name}${what ? `[${what}]` : ''} ${(e.dur! / 1000).toFixed(0)}`;
          });
        console.log(
          `  @${((task.ts - t0) / 1000).toFixed(0).padStart(5)} ${(task.dur! / 1000).toFixed(0).padStart(4)} ms  ${kids.slice(0, 8).join(', ')}`,
        );
      }
    }
    const busy = tasks.reduce((s, t) => s + t.dur!, 0) / 1000;
    kinds.idle = ms - busy;
    // the main thread's CPU time (thread clock: what the page's work costs, whatever the machine's load)
    kinds.cpu = tasks.reduce((s, t) => s + (t.tdur ?? t.dur!), 0) / 1000;
    const forcedLayouts = main.filter(
      (e) => e.name === 'Layout' && inWindow(e) && (e.args?.beginData?.stackTrace?.length ?? 0) > 0,
    );
    if (process.env.MS_PROFILE_TASKS) {
      for (const l of forcedLayouts) {
        const stack = (l.args?.beginData?.stackTrace ?? []) as ProfileNode['callFrame'][];
        console.log(
          `  forced layout @${((l.ts - t0) / 1000).toFixed(0)} ${(l.dur! / 1000).toFixed(1)} ms: ` +
            stack
              .slice(0, 6)
              .map((f) => origin(f, true).fn)
              .join(' < '),
        );
      }
    }
    const long = tasks.reduce((a, b) => (b.dur! > a.dur! ? b : a), tasks[0]!);
    return {
      longest: [long.ts, long.ts + long.dur!],
      ms,
      kinds,
      forced: { count: forcedLayouts.length, ms: forcedLayouts.reduce((s, e) => s + e.dur!, 0) / 1000 },
      tasks: tasks.length,
      profile,
      navStart: t0,
    };
  } finally {
    await context.close();
  }
}

const maps = new Map<string, TraceMap | null>();
function mapOf(url: string): TraceMap | null {
  if (!maps.has(url)) {
    let map: TraceMap | null = null;
    try {
      const file = path.join(DIST, new URL(url).pathname + '.map');
      if (existsSync(file)) map = new TraceMap(readFileSync(file, 'utf8'));
    } catch {
      map = null;
    }
    maps.set(url, map);
  }
  return maps.get(url)!;
}

/** The package (or our source folder) a profile frame comes from, and a readable function name. */
function origin(frame: ProfileNode['callFrame'], oneBased = false): { group: string; fn: string } {
  if (!frame.url) return { group: `(${frame.functionName || 'program'})`, fn: frame.functionName };
  const map = mapOf(frame.url);
  if (!map) return { group: new URL(frame.url).pathname, fn: frame.functionName };
  const pos = oneBased
    ? originalPositionFor(map, { line: frame.lineNumber, column: Math.max(0, frame.columnNumber - 1) })
    : originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber });
  const source = pos.source ?? '?';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1];
  const group = pkg ?? source.replace(/^.*\/src\//, 'src/').replace(/\/[^/]+$/, '/');
  const fn = `${pos.name ?? frame.functionName ?? '?'} (${source.replace(/^.*node_modules\//, '').replace(/^.*\/src\//, 'src/')}:${pos.line})`;
  return { group, fn };
}

function profileSelf(profile: Profile, t0: number, t1: number) {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const groups = new Map<string, number>();
  const fns = new Map<string, number>();
  // MS_PROFILE_TOTAL=1: functions by inclusive time (our sources only) instead of self time
  const inclusive = process.env.MS_PROFILE_TOTAL === '1';
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]!;
    const next = i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1]! : 0;
    if (t < t0 || t >= t1) continue;
    const node = byNode.get(profile.samples[i]!)!;
    if (node.callFrame.functionName === '(idle)') continue;
    const { group, fn } = origin(node.callFrame);
    groups.set(group, (groups.get(group) ?? 0) + next / 1000);
    if (!inclusive) fns.set(fn, (fns.get(fn) ?? 0) + next / 1000);
    else {
      const seen = new Set<string>();
      for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
        const f = origin(byNode.get(id)!.callFrame);
        if (!f.group.startsWith('src/') && !process.env.MS_PROFILE_ALL) continue;
        if (seen.has(f.fn)) continue;
        seen.add(f.fn);
        fns.set(f.fn, (fns.get(f.fn) ?? 0) + next / 1000);
      }
    }
  }
  const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  return { groups: top(groups, 20), fns: top(fns, Number(process.env.MS_PROFILE_TOP ?? 14)) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log(raisePriority());
const browser = await launchBrowser();
try {
  for (const p of PATHS) {
    await visit(browser, p); // warm-up
    const visits: Visit[] = [];
    for (let i = 0; i < RUNS; i++) {
      // a trace now and then misses the navigation's mark: that visit is done again
      visits.push(await visit(browser, p).catch(() => visit(browser, p)));
    }
    const mid = [...visits].sort((a, b) => a.ms - b.ms)[Math.floor(visits.length / 2)]!;
    const kinds = [...new Set(visits.flatMap((v) => Object.keys(v.kinds)))];
    console.log(`\n${p}: data shown at ${visits.map((v) => Math.round(v.ms)).join(', ')} ms`);
    console.log(
      '  main thread (medians, ms): ' +
        kinds.map((k) => `${k} ${Math.round(median(visits.map((v) => v.kinds[k] ?? 0)))}`).join(' · ') +
        ` · forced layouts ${median(visits.map((v) => v.forced.count))} (${Math.round(median(visits.map((v) => v.forced.ms)))} ms)`,
    );
    // the profile's clock is the trace's (monotonic µs)
    // MS_PROFILE_FROM=ms: only the samples from that time after the navigation on
    const from = Number(process.env.MS_PROFILE_FROM ?? 0) * 1000;
    const [a, b] = process.env.MS_PROFILE_LONGEST
      ? mid.longest
      : [mid.navStart + from, mid.navStart + mid.ms * 1000];
    if (process.env.MS_PROFILE_LONGEST)
      console.log(`  (the longest task only: ${((b - a) / 1000).toFixed(0)} ms)`);
    const { groups, fns } = profileSelf(mid.profile, a, b);
    console.log(
      '  CPU self time by source (median visit): ' +
        groups.map(([g, t]) => `${g} ${Math.round(t)}`).join(' · '),
    );
    for (const [f, t] of fns) console.log(`    ${t.toFixed(1).padStart(7)} ms  ${f}`);
  }
} finally {
  await browser.close();
}
