/**
 * Any contract of a public network at once (issue 32, capability 1), with two real instances: A serves the
 * seeded sandbox chain; B is configured with A's node as a public network (`remotenet`), which it indexes from
 * the node's head as it would mainnet. The FA1.2 token A's seed originated long before B started is unknown
 * to B's index: opened in B, it is read from the node and shown with its code, storage, entrypoints and a
 * visible note that its history before that level is not indexed. A KT1 the node does not know stays the
 * "Page not found" page. B's second public network on the same node (`scannet`) has no history source but the
 * scan of the node's blocks: the FA1.2's history backfilled there is A's too.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appPages,
  appTookOver,
  canBrowse,
  heads,
  startServer,
  syncedSandboxSession,
  tempDataDir,
  waitFor,
  type RunningServer,
} from './harness';
import { seededContracts } from './sandbox-seed';

const NET = 'remotenet';
/** The same node as B's second public network, whose history source is a scan of its blocks. */
const SCAN_NET = 'scannet';
/** A well-formed KT1 (valid checksum) that no operation originated. */
const NEVER = 'KT1BEqzn5Wx8uJrZNvuS9DVHmLvG9td3fDLi';

describe.skipIf(!canBrowse('any-contract'))('a contract older than the index, on a public network', () => {
  const a = syncedSandboxSession();
  const pages = appPages(a);
  let b: RunningServer;
  let bDir: string;
  let fa12 = '';

  beforeAll(async () => {
    fa12 = (await seededContracts(a.server.url)).find((c) => c.tags.includes('fa1-2'))?.address ?? '';
    expect(fa12).toMatch(/^KT1/);
    bDir = await tempDataDir();
    const config = path.join(bDir, 'michelscope.config.json');
    await writeFile(
      config,
      JSON.stringify({
        networks: {
          mainnet: false,
          ghostnet: false,
          sandboxnet: false,
          // A's API is B's history source: the levels where an address appears (issue 32, the backfill)
          [NET]: {
            rpc_url: `${a.server.url}/rpc/embedded`,
            history_source: { kind: 'bcd', url: a.server.url, network: 'sandboxnet' },
          },
          [SCAN_NET]: { rpc_url: `${a.server.url}/rpc/embedded`, history_source: { kind: 'scan' } },
        },
      }),
    );
    b = await startServer({ dataDir: bDir, env: { MICHELSCOPE_CONFIG: config }, timeoutMs: 240_000 });
    for (const net of [NET, SCAN_NET])
      await waitFor(`${net} indexed in B`, 120_000, async () =>
        (await heads(b.url)).find((h) => h.network === net && h.level > 0) ? true : undefined,
      );
  }, 600_000);

  afterAll(async () => {
    await b?.stop();
    if (bDir) await rm(bDir, { recursive: true, force: true });
  });

  it('opens the FA1.2 originated before B started: code, storage, entrypoints, and the note on its history', async () => {
    const page = await pages.open();
    const started = Date.now();
    await page.goto(`${b.url}/${NET}/${fa12}/storage`);
    await appTookOver(page);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const note = page.getByRole('status').filter({ hasText: 'is not indexed yet' });
    await note.waitFor();
    const text = (await note.textContent()) ?? '';
    const level = Number(/before level ([\d,]+)/.exec(text)?.[1]?.replace(/,/g, ''));
    expect(level).toBeGreaterThan(1);
    // the storage as the node has it: the FA1.2's fields, its big maps marked as not fully indexed
    await page.getByText('total_supply').first().waitFor();
    await page
      .getByText(/ledger/)
      .first()
      .waitFor();
    await page
      .getByText(/at least \d+ keys|keys not indexed/)
      .first()
      .waitFor();
    console.log(
      `[e2e any-contract] storage of a contract unknown to B shown ${Date.now() - started} ms after the request`,
    );
    // the code, read from the node once and served by B's own database
    await page.getByRole('tab', { name: 'Code' }).click();
    await page.getByText('parameter', { exact: false }).first().waitFor();
    // the entrypoints, ready to be called
    await page.getByRole('tab', { name: 'Interact' }).click();
    await page.getByText('transfer', { exact: true }).first().waitFor();
    // B's API answers as for any indexed contract, marked partial
    const c = (await (await fetch(`${b.url}/v1/contract/${NET}/${fa12}`)).json()) as Record<string, unknown>;
    expect(c).toMatchObject({ address: fa12 });
    // partial until its history is backfilled (which may already be done by now)
    if (c.partial) expect(c).toMatchObject({ partial: true, indexed_from: level });
    expect(c.entrypoints).toEqual(expect.arrayContaining(['transfer', 'approve']));
  });

  /**
   * Waits until the FA1.2's history is backfilled on B's `net`, then checks its origination level and its
   * whole operation list (every group, paged by last_id on both, below both heads) against A's.
   */
  const backfilledAsInA = async (net: string, source: string) => {
    const started = Date.now();
    const contractIn = async () =>
      (await (await fetch(`${b.url}/v1/contract/${net}/${fa12}`)).json()) as {
        partial?: boolean;
        level: number;
        history?: { state: string; done: number; total: number | null };
      };
    const done = await waitFor(`the history backfilled in B's ${net}`, 240_000, async () => {
      const c = await contractIn();
      return c.history?.state === 'done' && !c.partial ? c : undefined;
    });
    console.log(
      `[e2e any-contract] FA1.2 history (${done.history!.total} levels) backfilled in B's ${net} from ${source} ${Date.now() - started} ms after this test started`,
    );
    // the contract's origination, as A has it
    const inA = (await (await fetch(`${a.server.url}/v1/contract/sandboxnet/${fa12}`)).json()) as {
      level: number;
    };
    expect(done.level).toBe(inA.level);
    // every operation group, page by page, the same on both (below both heads)
    const groups = async (base: string, network: string) => {
      const out: Record<string, unknown>[] = [];
      let last: number | null = null;
      for (;;) {
        const page = (await (
          await fetch(
            `${base}/v1/contract/${network}/${fa12}/opg?size=10${last === null ? '' : `&last_id=${last}`}`,
          )
        ).json()) as Record<string, unknown>[];
        if (page.length === 0) return out;
        for (const g of page) out.push(g);
        last = Math.min(...page.map((g) => g.last_id as number));
      }
    };
    const [headsA, headsB] = await Promise.all([heads(a.server.url), heads(b.url)]);
    const top = Math.min(
      headsA.find((x) => x.network === 'sandboxnet')!.level,
      headsB.find((x) => x.network === net)!.level,
    );
    const strip = (gs: Record<string, unknown>[]) =>
      gs.filter((g) => (g.level as number) <= top).map(({ last_id: _id, ...rest }) => rest);
    const [ga, gb] = [strip(await groups(a.server.url, 'sandboxnet')), strip(await groups(b.url, net))];
    expect(ga.length).toBeGreaterThan(30);
    expect(gb).toEqual(ga);
  };

  it('backfills its history from A’s API: the full operation list, equal to A’s', async () => {
    await backfilledAsInA(NET, 'A’s API');
    // the page: no note any more, the operations listed down to the origination
    const page = await pages.open();
    await page.goto(`${b.url}/${NET}/${fa12}/operations`);
    await appTookOver(page);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'is not indexed yet' }).count()).toBe(0);
  });

  it('backfills its history by a scan of the node on a network without a history source: equal to A’s', async () => {
    // the address asked for on the scan network (as its page would), adopted there, then backfilled
    await fetch(`${b.url}/v1/contract/${SCAN_NET}/${fa12}`);
    await backfilledAsInA(SCAN_NET, 'a scan of the node');
  });

  it('shows "Page not found" for a KT1 the node does not know', async () => {
    // the browser's own line for the API's 404s of an unknown address
    const page = await pages.open({ allow: /status of 404/ });
    await page.goto(`${b.url}/${NET}/${NEVER}`);
    await page.getByText('Page not found').first().waitFor();
    expect((await fetch(`${b.url}/v1/contract/${NET}/${NEVER}`)).status).toBe(204);
  });
});
