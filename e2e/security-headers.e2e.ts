import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  canBrowse,
  freePort,
  heads,
  launchBrowser,
  startServer,
  seededDataDir,
  waitFor,
  type RunningServer,
} from './harness';
import { api } from './sandbox-seed';

// Security headers on every response, and the app (forms, sandbox wallet, octez.connect) working under its CSP.
const canRun = canBrowse('security-headers');

// page-side code (the e2e tsconfig has no DOM library)
declare const document: {
  addEventListener(
    type: 'securitypolicyviolation',
    fn: (e: { violatedDirective: string; blockedURI: string }) => void,
  ): void;
  body: { children: ArrayLike<{ shadowRoot: { childElementCount: number } | null }> };
};

/** Records the CSP violations and the uncaught errors of a page. */
async function watched(browser: Browser): Promise<{ page: Page; violations: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const violations: string[] = [];
  const errors: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI}`),
    );
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && /CSP violation|Content Security Policy/.test(m.text()))
      violations.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, violations, errors };
}

async function contractWith(url: string, network: string, entrypoint: string): Promise<string> {
  const client = api(url);
  // an answer other than 2xx (ApiError) or a 204 (no data): nothing yet, as before
  const rows = await client
    .unwrap(
      client.GET('/v1/stats/{network}/recently_called_contracts', {
        params: { path: { network }, query: { size: 10 } },
      }),
    )
    .catch(() => undefined);
  for (const { address } of rows ?? []) {
    const eps = await client
      .unwrap(
        client.GET('/v1/contract/{network}/{address}/entrypoints', {
          params: { path: { network, address } },
        }),
      )
      .catch(() => undefined);
    if (eps?.some((e) => e.name === entrypoint)) return address;
  }
  throw new Error(`no ${network} contract with a ${entrypoint} entrypoint yet`);
}

describe.skipIf(!canRun)('security headers', () => {
  let dataDir: string;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    dataDir = await seededDataDir();
    const port = await freePort();
    // "localnet": a public-style network (octez.connect, not the sandbox wallet) over the same local chain
    const config = path.join(dataDir, 'michelscope.config.json');
    await writeFile(
      config,
      JSON.stringify({
        networks: {
          mainnet: false,
          ghostnet: false,
          localnet: { rpc_url: `http://127.0.0.1:${port}/rpc/sandboxnet`, start_level: 0 },
        },
      }),
    );
    server = await startServer({ dataDir, port, env: { MICHELSCOPE_CONFIG: config }, timeoutMs: 240_000 });
    browser = await launchBrowser();
    await waitFor('both networks synced', 150_000, async () => {
      const hs = await heads(server.url);
      return hs.length === 2 && hs.every((h) => h.synced && h.level > 5) ? true : undefined;
    });
  }, 420_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('sends CSP, nosniff, frame denial and a referrer policy on the app, the APIs and the node RPC', async () => {
    const kt = await contractWith(server.url, 'sandboxnet', 'increment');
    for (const p of [
      '/',
      `/sandboxnet/${kt}/storage`,
      '/v1/head',
      '/v1/nope',
      '/rpc/sandboxnet/chains/main/chain_id',
    ]) {
      const res = await fetch(`${server.url}${p}`);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, p).toContain("frame-ancestors 'none'");
      expect(csp, p).toContain("default-src 'self'");
      expect(csp, p).toMatch(/script-src 'self'[^;]*;/);
      expect(csp, p).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(csp, p).toMatch(/img-src[^;]* https:/);
      expect(res.headers.get('x-content-type-options'), p).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), p).toBe('DENY');
      expect(res.headers.get('referrer-policy'), p).toBe('strict-origin-when-cross-origin');
    }
  });

  it('sends a hashed script without the document-only headers, still nosniff and immutable', async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const src = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(src, 'index.html names its entry script').toBeTruthy();
    const res = await fetch(`${server.url}${src}`, { headers: { 'accept-encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect(res.headers.get('content-security-policy')).toBeNull();
    expect(res.headers.get('x-frame-options')).toBeNull();
    let headerBytes = 0;
    res.headers.forEach((v, k) => (headerBytes += k.length + v.length + 4));
    expect(headerBytes).toBeLessThan(600);
  });

  it('runs forms, the sandbox wallet and octez.connect without a CSP violation', async () => {
    const { page, violations, errors } = await watched(browser);
    await page.goto(server.url);
    await page.locator('#root header').first().waitFor({ timeout: 30_000 });

    // entrypoint form (JSON-schema validation), simulation, and a send signed in the page
    const kt = await contractWith(server.url, 'sandboxnet', 'increment');
    await page.goto(`${server.url}/sandboxnet/${kt}/interact/increment`);
    await page.getByRole('heading', { name: 'increment', level: 2 }).waitFor({ timeout: 30_000 });
    await page.getByLabel('increment').fill('7');
    await page.getByRole('button', { name: 'Simulate' }).click();
    const result = page.getByRole('dialog', { name: 'Simulation result' });
    await result.waitFor({ timeout: 30_000 });
    expect(await result.getByRole('table', { name: 'Simulated operations' }).innerText()).toContain(
      'applied',
    );
    await result.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Send with wallet' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect a wallet' });
    await dialog.waitFor({ timeout: 60_000 });
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await page.getByText('Operation has been sucessfully injected').waitFor({ timeout: 60_000 });
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);

    // octez.connect: the SDK loads (WebAssembly crypto, injected styles) and starts pairing; offline its relay
    // servers do not answer (its own uncaught "No server responded."), which is not a CSP matter
    const onLocal = await waitFor('a localnet contract', 60_000, () =>
      contractWith(server.url, 'localnet', 'increment').catch(() => undefined),
    );
    await page.goto(`${server.url}/localnet/${onLocal}/interact/increment`);
    await page.getByRole('heading', { name: 'increment', level: 2 }).waitFor({ timeout: 30_000 });
    await page.getByLabel('increment').fill('1');
    await page.getByRole('button', { name: 'Send with wallet' }).click();
    await page.getByRole('button', { name: 'Connect with octez.connect' }).click();
    // the SDK renders its UI in a shadow root it appends to <body>
    await waitFor('the octez.connect UI', 60_000, () =>
      page
        .evaluate(() =>
          Array.from(document.body.children).some((e) => e.shadowRoot && e.shadowRoot.childElementCount > 0),
        )
        .then((shown) => (shown ? true : undefined)),
    );
    await page.waitForTimeout(2000);
    if (process.env.E2E_SHOTS)
      await page.screenshot({ path: path.join(process.env.E2E_SHOTS, 'octez-connect.png') });
    expect(violations).toEqual([]);
    await page.close();
  });
});
