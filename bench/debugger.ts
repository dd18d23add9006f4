/**
 * The debugger on a long call (issue 20): a contract that loops, originated into the sandbox, called with a
 * count that makes ~100,000 steps.
 *
 *  (a) API: POST …/entrypoints/debug: time until the answer (the run and its recording, in the debug worker,
 *      and its brotli compression) and the answer's size, raw and as the route compresses it (quality 2).
 *  (b) Browser (Debian's chromium, the built web app): from the click on 'Debug' in the simulation result
 *      until the debugger shows step 1 of N with its code and stack ("opens"), and that time minus the API
 *      answer's arrival (the browser's own work); the same open on the page's clock, from the pointer going
 *      down on 'Debug' until the figure is in the DOM (Playwright's click first checks the button is visible
 *      and stable: on a loaded machine ~250 ms not spent by the app); then one step (key s), run to the end
 *      (key e) and back (b): each until the step figure shows the new position.
 *
 *   npm run build:web && node --import tsx bench/debugger.ts [RUNS]
 *   MS_BENCH_URL=http://127.0.0.1:PORT node --import tsx bench/debugger.ts   # reuse a running product
 */
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { hasChromium, hasWebBuild, launchBrowser } from '../e2e/harness';
import { loopProduct, TURNS } from './debugger-loop';
import { raisePriority } from './priority';

const RUNS = Number(process.argv[2] ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(0)} ms`;

async function main() {
  console.log(raisePriority());
  const { url, kt, close } = await loopProduct();
  try {
    const body = JSON.stringify({ name: 'default', data: { '@int_1': String(TURNS) } });
    // (a) the API
    const api: number[] = [];
    let raw = 0;
    let sent = 0;
    let steps = 0;
    for (let i = 0; i <= RUNS; i++) {
      const t0 = performance.now();
      const res = await fetch(`${url}/v1/contract/sandboxnet/${kt}/entrypoints/debug`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-encoding': 'br, gzip' },
        body,
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`debug answered ${res.status}: ${text.slice(0, 200)}`);
      if (i > 0) api.push(performance.now() - t0);
      raw = text.length;
      steps = (JSON.parse(text) as { trace: { steps: number } }).trace.steps;
      // what the route sends a browser: brotli quality 2 (RECORDING_COMPRESSION in routes/debug.ts)
      sent = brotliCompressSync(text, {
        params: { [zlib.BROTLI_PARAM_QUALITY]: 2, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
      }).length;
    }
    console.log(`steps ${steps}; API answer median ${ms(median(api))} (${api.map(ms).join(', ')})`);
    console.log(`answer ${(raw / 1e6).toFixed(2)} MB raw, ${(sent / 1e6).toFixed(2)} MB brotli (quality 2)`);

    // (b) the browser
    if (!hasChromium || !hasWebBuild) {
      console.log('no chromium or no web build: browser figures skipped');
      return;
    }
    const browser = await launchBrowser();
    const open: number[] = [];
    const own: number[] = [];
    const pressed: number[] = [];
    const stepMs: number[] = [];
    const endMs: number[] = [];
    const backMs: number[] = [];
    try {
      for (let i = 0; i <= RUNS; i++) {
        const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
        await page.goto(`${url}/sandboxnet/${kt}/interact/default`);
        await page
          .getByRole('region', { name: 'Parameters' })
          .getByLabel('int', { exact: true })
          .fill(String(TURNS));
        await page.getByRole('button', { name: 'Simulate' }).click();
        const sim = page.getByRole('dialog', { name: 'Simulation result' });
        const debug = sim.getByRole('button', { name: 'Debug' });
        await debug.waitFor({ timeout: 120_000 });
        const state = page
          .getByRole('dialog', { name: /^Debugger/ })
          .getByRole('definition')
          .first();
        const answered = page.waitForResponse((r) => r.url().endsWith('/entrypoints/debug'), {
          timeout: 120_000,
        });
        // the page's own clock: from the pointer going down on 'Debug' until the step figure is in the DOM
        // (without the time Playwright's click spends checking the button before it presses it)
        const first = `1 / ${steps.toLocaleString('en-US')}`;
        // (a script string: the bench is compiled without the DOM's types)
        await page.evaluate(`(() => {
          const text = ${JSON.stringify(first)};
          window.addEventListener('pointerdown', () => (window.benchDown ??= performance.now()), true);
          const seen = new MutationObserver(() => {
            if ([...document.querySelectorAll('dd')].some((dd) => dd.textContent === text)) {
              window.benchShown = performance.now();
              seen.disconnect();
            }
          });
          seen.observe(document.body, { childList: true, subtree: true, characterData: true });
        })()`);
        const t0 = performance.now();
        await debug.click();
        const ta = await answered.then(() => performance.now());
        const shown = (text: string) =>
          page
            .locator('dd')
            .filter({ hasText: new RegExp(`^${text}$`) })
            .waitFor({ timeout: 120_000 });
        await shown(first);
        const t1 = performance.now();
        const inPage = Number(
          await page.evaluate('window.benchShown !== undefined ? window.benchShown - window.benchDown : NaN'),
        );
        const until = async (key: string, text: string) => {
          const s = performance.now();
          await page.keyboard.press(key);
          await shown(text);
          return performance.now() - s;
        };
        const n = steps.toLocaleString('en-US');
        const tStep = await until('s', `2 / ${n}`);
        const tEnd = await until('e', `${n} / ${n}`);
        const tBack = await until('b', `${(steps - 1).toLocaleString('en-US')} / ${n}`);
        if ((await state.innerText()).trim() !== `${(steps - 1).toLocaleString('en-US')} / ${n}`)
          throw new Error('the step figure is not where the keys took it');
        if (i > 0) {
          open.push(t1 - t0);
          pressed.push(inPage);
          own.push(t1 - ta);
          stepMs.push(tStep);
          endMs.push(tEnd);
          backMs.push(tBack);
        }
        await page.close();
      }
    } finally {
      await browser.close();
    }
    console.log(`open (click → step 1 shown): median ${ms(median(open))} (${open.map(ms).join(', ')})`);
    console.log(
      `  in the page (pointerdown → step 1 in the DOM): median ${ms(median(pressed))} (${pressed.map(ms).join(', ')})`,
    );
    console.log(`  of which after the API answer: median ${ms(median(own))} (${own.map(ms).join(', ')})`);
    console.log(
      `step ${ms(median(stepMs))}, run to end ${ms(median(endMs))}, back ${ms(median(backMs))} (medians)`,
    );
  } finally {
    await close();
  }
}

await main();
