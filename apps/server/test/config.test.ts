import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, sortNetworks } from '../src/config';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'ms-config-'));

describe('loadConfig', () => {
  it('defaults to sandboxnet embedded plus mainnet and ghostnet, mainnet first then by name descending', () => {
    const config = loadConfig({}, tmp());
    expect(config.port).toBe(8080);
    expect(config.networks.map((n) => n.name)).toEqual(['mainnet', 'sandboxnet', 'ghostnet']);
    const sandbox = config.networks.find((n) => n.name === 'sandboxnet')!;
    expect(sandbox.rpcUrl).toBe('embedded');
    // no "sandbox" in the URL: the BCD frontend rewrites that word (issue 17)
    expect(sandbox.publicRpcUrl).toBe('http://localhost:8080/rpc/embedded');
    // its statistics come from the local index: the Statistics tabs are shown for the seeded demo
    expect(sandbox.statsEnabled).toBe(true);
    const mainnet = config.networks.find((n) => n.name === 'mainnet')!;
    expect(mainnet.rpcUrl).toMatch(/^https:\/\//);
    expect(mainnet.statsEnabled).toBe(true);
    expect(mainnet.explorerUrl).toMatch(/^https:\/\//);
    expect(config.mempoolEnabled).toBe(true);
    expect(config.sandboxMode).toBe(false);
  });

  it('takes PORT, DATA_DIR and DATABASE_URL from the environment', () => {
    const cwd = tmp();
    const config = loadConfig({ PORT: '9090', DATA_DIR: 'state', DATABASE_URL: 'postgres://u@h/db' }, cwd);
    expect(config.port).toBe(9090);
    expect(config.dataDir).toBe(path.join(cwd, 'state'));
    expect(config.databaseUrl).toBe('postgres://u@h/db');
    expect(config.networks.find((n) => n.name === 'sandboxnet')!.publicRpcUrl).toBe(
      'http://localhost:9090/rpc/embedded',
    );
  });

  it('reads michelscope.config.json, or the file MICHELSCOPE_CONFIG names, and lets it drop or add networks', () => {
    const cwd = tmp();
    writeFileSync(
      path.join(cwd, 'custom.json'),
      JSON.stringify({
        sandbox_mode: true,
        networks: { ghostnet: false, oxfordnet: { rpc_url: 'http://127.0.0.1:1/', stats: true } },
      }),
    );
    const config = loadConfig({ MICHELSCOPE_CONFIG: 'custom.json' }, cwd);
    expect(config.sandboxMode).toBe(true);
    expect(config.networks.map((n) => n.name)).toEqual(['mainnet', 'sandboxnet', 'oxfordnet']);
  });

  it('rejects bad input with a clear message', () => {
    const cwd = tmp();
    expect(() => loadConfig({ PORT: 'eighty' }, cwd)).toThrow('PORT must be a port number, got "eighty"');
    expect(() => loadConfig({ MICHELSCOPE_CONFIG: 'missing.json' }, cwd)).toThrow(/does not exist/);
    writeFileSync(path.join(cwd, 'michelscope.config.json'), '{ nope');
    expect(() => loadConfig({}, cwd)).toThrow(/is not valid JSON/);
    writeFileSync(
      path.join(cwd, 'michelscope.config.json'),
      JSON.stringify({ networks: { mainnet: { rpc_url: 'file:///etc' } } }),
    );
    expect(() => loadConfig({}, cwd)).toThrow('network "mainnet": rpc_url must be http(s) or "embedded"');
  });

  it.each([
    [{ rate_limt: { max: 10 } }, 'unknown key "rate_limt" in michelscope.config.json'],
    [{ sandbox: { block_time: 500 } }, 'unknown key "sandbox.block_time" in michelscope.config.json'],
    [
      { networks: { mainnet: { rpc: 'https://x' } } },
      'unknown key "networks.mainnet.rpc" in michelscope.config.json',
    ],
    [{ rate_limit: { max: 5, window: 1 } }, 'unknown key "rate_limit.window" in michelscope.config.json'],
    [{ cors: 'yes' }, '"cors" in michelscope.config.json must be true or false, or a list of strings'],
    [{ networks: 'mainnet' }, '"networks" in michelscope.config.json must be an object'],
    [
      { networks: { mainnet: 'on' } },
      '"networks.mainnet" in michelscope.config.json must be false, or an object',
    ],
    [
      { networks: { x: { stats: 'yes' } } },
      '"networks.x.stats" in michelscope.config.json must be true or false',
    ],
    [
      { networks: { x: { start_level: 'tail' } } },
      '"networks.x.start_level" in michelscope.config.json must be a whole number, or "head", or "genesis"',
    ],
    [{ sandbox: { seed: 1 } }, '"sandbox.seed" in michelscope.config.json must be true or false'],
    [{ ipfs_gateway: 42 }, '"ipfs_gateway" in michelscope.config.json must be a string'],
    [[], 'michelscope.config.json must hold a JSON object'],
  ])('refuses %j with one line', (file, message) => {
    const cwd = tmp();
    writeFileSync(path.join(cwd, 'michelscope.config.json'), JSON.stringify(file));
    expect(() => loadConfig({}, cwd)).toThrow(message);
    try {
      loadConfig({}, cwd);
    } catch (e) {
      expect((e as Error).message).toBe(message);
    }
  });

  it('reads where a network starts, how many blocks it fetches at once and its RPC rate limit', () => {
    const cwd = tmp();
    const defaults = loadConfig({}, cwd).networks;
    expect(defaults.find((n) => n.name === 'mainnet')).toMatchObject({ startLevel: 'head', fetchAhead: 4 });
    expect(defaults.find((n) => n.name === 'sandboxnet')).toMatchObject({ startLevel: 0, fetchAhead: 4 });
    expect(defaults.find((n) => n.name === 'mainnet')!.rpcRateLimit).toBeUndefined();
    writeFileSync(
      path.join(cwd, 'michelscope.config.json'),
      JSON.stringify({
        networks: {
          mainnet: { rpc_url: 'http://archive.local:8732', start_level: 'genesis', fetch_ahead: 16 },
          ghostnet: { start_level: 5_000_000, rpc_rate_limit: 10 },
        },
      }),
    );
    const networks = loadConfig({}, cwd).networks;
    expect(networks.find((n) => n.name === 'mainnet')).toMatchObject({
      rpcUrl: 'http://archive.local:8732',
      startLevel: 'genesis',
      fetchAhead: 16,
    });
    expect(networks.find((n) => n.name === 'ghostnet')).toMatchObject({
      startLevel: 5_000_000,
      fetchAhead: 4,
      rpcRateLimit: 10,
    });
    for (const [network, message] of [
      [{ fetch_ahead: 0 }, 'network "mainnet": fetch_ahead must be a whole number from 1 to 64'],
      [{ fetch_ahead: 65 }, 'network "mainnet": fetch_ahead must be a whole number from 1 to 64'],
      [
        { rpc_rate_limit: 0 },
        'network "mainnet": rpc_rate_limit must be a number of requests per second > 0',
      ],
      [{ start_level: -1 }, 'network "mainnet": start_level must be "head", "genesis" or a level'],
    ] as const) {
      writeFileSync(
        path.join(cwd, 'michelscope.config.json'),
        JSON.stringify({ networks: { mainnet: network } }),
      );
      expect(() => loadConfig({}, cwd)).toThrow(message);
    }
  });

  it("reads mainnet's and ghostnet's history from TzKT by default, never by a scan of their public nodes", () => {
    const cwd = tmp();
    writeFileSync(
      path.join(cwd, 'michelscope.config.json'),
      JSON.stringify({
        networks: { mainnet: { rpc_url: 'http://127.0.0.1:9' }, other: { rpc_url: 'http://x' } },
      }),
    );
    const networks = loadConfig({}, cwd).networks;
    const source = (name: string) => networks.find((n) => n.name === name)?.historySource;
    expect(source('mainnet')).toEqual({ kind: 'tzkt', url: 'https://api.tzkt.io' });
    expect(source('ghostnet')).toEqual({ kind: 'tzkt', url: 'https://api.ghostnet.tzkt.io' });
    // a network of the operator's own: the indexer's default, a scan of its node
    expect(source('other')).toBeUndefined();
  });

  it('takes a history source per network (issue 32): bcd, tzkt, scan or off; bcd and tzkt need a URL', () => {
    const cwd = tmp();
    writeFileSync(
      path.join(cwd, 'michelscope.config.json'),
      JSON.stringify({
        networks: {
          mainnet: { history_source: { kind: 'tzkt', url: 'https://api.tzkt.io' } },
          ghostnet: { history_source: { kind: 'bcd', url: 'http://a.local:8000', network: 'sandboxnet' } },
          sandboxnet: { history_source: false },
        },
      }),
    );
    const networks = loadConfig({}, cwd).networks;
    expect(networks.find((n) => n.name === 'mainnet')?.historySource).toEqual({
      kind: 'tzkt',
      url: 'https://api.tzkt.io',
    });
    expect(networks.find((n) => n.name === 'ghostnet')?.historySource).toEqual({
      kind: 'bcd',
      url: 'http://a.local:8000',
      network: 'sandboxnet',
    });
    expect(networks.find((n) => n.name === 'sandboxnet')?.historySource).toBe(false);
    writeFileSync(
      path.join(cwd, 'michelscope.config.json'),
      JSON.stringify({ networks: { mainnet: { history_source: { kind: 'bcd' } } } }),
    );
    expect(() => loadConfig({}, cwd)).toThrow('network "mainnet": history_source.url must be an http(s) URL');
  });

  it('names the file MICHELSCOPE_CONFIG points to', () => {
    const cwd = tmp();
    writeFileSync(path.join(cwd, 'prod.json'), JSON.stringify({ mempool: true }));
    expect(() => loadConfig({ MICHELSCOPE_CONFIG: 'prod.json' }, cwd)).toThrow(
      'unknown key "mempool" in prod.json',
    );
  });

  it('accepts postgres:// and postgresql:// DATABASE_URLs only, before any connection', () => {
    const cwd = tmp();
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@h/db' }, cwd).databaseUrl).toBe('postgresql://u@h/db');
    expect(() => loadConfig({ DATABASE_URL: 'mysql://root@127.0.0.1/x' }, cwd)).toThrow(
      'DATABASE_URL must be a postgres:// or postgresql:// URL, not mysql://',
    );
    expect(() => loadConfig({ DATABASE_URL: '127.0.0.1:5432' }, cwd)).toThrow(
      /^DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL$/,
    );
  });
});

describe('sortNetworks', () => {
  it('puts mainnet first and the rest by name descending', () => {
    const names = ['ghostnet', 'sandboxnet', 'mainnet', 'nairobinet', 'oxfordnet', 'dailynet'];
    expect(sortNetworks(names.map((name) => ({ name }))).map((n) => n.name)).toEqual([
      'mainnet',
      'sandboxnet',
      'oxfordnet',
      'nairobinet',
      'ghostnet',
      'dailynet',
    ]);
  });
});

describe('API limits', () => {
  it('defaults to a generous per-IP rate limit and open CORS, both configurable', () => {
    const cwd = tmp();
    expect(loadConfig({}, cwd).rateLimit).toEqual({
      max: 3000,
      timeWindowMs: 60_000,
      pages: 300,
      store: 'memory',
    });
    expect(loadConfig({}, cwd).cors).toBe(true);
    writeFileSync(
      path.join(cwd, 'michelscope.config.json'),
      JSON.stringify({ rate_limit: false, cors: ['https://example.org'] }),
    );
    expect(loadConfig({}, cwd).rateLimit).toBe(false);
    expect(loadConfig({}, cwd).cors).toEqual(['https://example.org']);
    writeFileSync(path.join(cwd, 'michelscope.config.json'), JSON.stringify({ rate_limit: { max: 0 } }));
    expect(() => loadConfig({}, cwd)).toThrow(/rate_limit needs/);
    writeFileSync(path.join(cwd, 'michelscope.config.json'), JSON.stringify({ rate_limit: { pages: 20 } }));
    expect(loadConfig({}, cwd).rateLimit).toEqual({
      max: 3000,
      timeWindowMs: 60_000,
      pages: 20,
      store: 'memory',
    });
    writeFileSync(path.join(cwd, 'michelscope.config.json'), JSON.stringify({ rate_limit: { pages: 0.5 } }));
    expect(() => loadConfig({}, cwd)).toThrow('rate_limit.pages must be a whole number ≥ 1');
  });

  it('counts the rate limits in the database on PostgreSQL (one limit across API processes), else in memory', () => {
    const cwd = tmp();
    const pg = { DATABASE_URL: 'postgres://u@h/db' };
    expect(loadConfig(pg, cwd).rateLimit).toMatchObject({ store: 'database' });
    writeFileSync(
      path.join(cwd, 'michelscope.config.json'),
      JSON.stringify({ rate_limit: { store: 'memory' } }),
    );
    expect(loadConfig(pg, cwd).rateLimit).toMatchObject({ store: 'memory' });
    writeFileSync(
      path.join(cwd, 'michelscope.config.json'),
      JSON.stringify({ rate_limit: { store: 'database' } }),
    );
    expect(() => loadConfig({}, cwd)).toThrow('rate_limit.store "database" needs DATABASE_URL (PostgreSQL)');
  });

  it('takes DATABASE_READ_URL (a read replica) beside DATABASE_URL only', () => {
    const cwd = tmp();
    const env = { DATABASE_URL: 'postgres://u@primary/db', DATABASE_READ_URL: 'postgres://u@replica/db' };
    expect(loadConfig(env, cwd).databaseReadUrl).toBe('postgres://u@replica/db');
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://u@replica/db' }, cwd)).toThrow(
      'DATABASE_READ_URL needs DATABASE_URL (the primary, which takes the writes)',
    );
    expect(() => loadConfig({ ...env, DATABASE_READ_URL: 'mysql://u@replica/db' }, cwd)).toThrow(
      'DATABASE_READ_URL must be a postgres:// or postgresql:// URL, not mysql://',
    );
  });

  it('trusts no proxy by default; trust_proxy lists addresses, CIDR ranges or proxy-addr names', () => {
    const cwd = tmp();
    expect(loadConfig({}, cwd).trustProxy).toBe(false);
    const list = ['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', 'loopback', 'uniquelocal'];
    writeFileSync(path.join(cwd, 'michelscope.config.json'), JSON.stringify({ trust_proxy: list }));
    expect(loadConfig({}, cwd).trustProxy).toEqual(list);
    writeFileSync(path.join(cwd, 'michelscope.config.json'), JSON.stringify({ trust_proxy: false }));
    expect(loadConfig({}, cwd).trustProxy).toBe(false);
    for (const [value, error] of [
      [true, '"trust_proxy" in michelscope.config.json must be false, or a list of strings'],
      [[], 'trust_proxy must list proxy addresses, or be false'],
      [['10.0.0.0/33'], 'trust_proxy: "10.0.0.0/33" is not an address'],
      [['proxy.example'], 'trust_proxy: "proxy.example" is not an address'],
      [['10.0.0.1/8/1'], 'trust_proxy: "10.0.0.1/8/1" is not an address'],
    ] as const) {
      writeFileSync(path.join(cwd, 'michelscope.config.json'), JSON.stringify({ trust_proxy: value }));
      expect(() => loadConfig({}, cwd), JSON.stringify(value)).toThrow(error);
    }
  });

  it('limits live-update streams to 20 per client IP and 10,000 in all by default, both configurable', () => {
    const cwd = tmp();
    expect(loadConfig({}, cwd).live).toEqual({ maxConnectionsPerIp: 20, maxConnections: 10_000 });
    writeFileSync(
      path.join(cwd, 'michelscope.config.json'),
      JSON.stringify({ live: { max_connections_per_ip: 2000, max_connections: 5000 } }),
    );
    expect(loadConfig({}, cwd).live).toEqual({ maxConnectionsPerIp: 2000, maxConnections: 5000 });
    writeFileSync(
      path.join(cwd, 'michelscope.config.json'),
      JSON.stringify({ live: { max_connections: 0.5 } }),
    );
    expect(() => loadConfig({}, cwd)).toThrow('live.max_connections must be a whole number ≥ 1');
  });
});
