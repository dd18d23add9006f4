/**
 * Watch rule evaluation (issue 39): once per indexed block per network for the whole rule set, never per
 * subscriber or per rule. The live notice (db/live.ts) only queues the levels: evaluation runs after it,
 * asynchronously, one network's at a time (notices that arrive meanwhile are merged into one range, at most
 * `maxLevels` levels: a process that fell behind skips the older ones), so it never delays the indexer (which
 * sent the notice and went on) or the live stream (which has its own chain of work).
 *
 * Rules are held in memory, indexed by network and target address (reloaded every few seconds and at once
 * after this process created or deleted one). A block's candidate targets are the rules' addresses that the
 * notice lists as touched; their facts are read in one query per kind (operations, big-map diffs) whatever the
 * number of rules; each rule's condition is then matched in memory, and the deliveries written with
 * `INSERT … ON CONFLICT (rule_id, idempotency_key) DO NOTHING` — so with several API processes each evaluates
 * the block and each delivery is still created once.
 */
import { WatchCondition } from '@michelscope/api-types';
import type { Db } from '@michelscope/db/read';
import { decodeLiveNotice } from '@michelscope/db/read';
import {
  bigMapValueBefore,
  enabledWatchRules,
  insertDeliveries,
  storageBefore,
  storageTypes,
  watchFacts,
  type NewDelivery,
  type WatchRuleRow,
} from '@michelscope/db/watch';
import { Value } from '@sinclair/typebox/value';
import { matchCondition, type BlockFacts, type FactLookups } from './conditions';

interface IndexedRule {
  id: string;
  address: string;
  condition: WatchCondition;
}

interface Pending {
  from: number;
  to: number;
  /** Addresses touched, or null: any (the notice's lists did not fit). */
  touched: Set<string> | null;
}

interface NetworkState {
  running: boolean;
  pending?: Pending;
  last?: number;
}

export interface EvaluationStats {
  network: string;
  from: number;
  to: number;
  rules: number;
  matches: number;
  created: number;
  ms: number;
}

export class WatchEvaluator {
  private index = new Map<string, Map<string, IndexedRule[]>>();
  private loadedAt = 0;
  private loading?: Promise<void>;
  private readonly networks = new Map<string, NetworkState>();
  private readonly idle = new Set<() => void>();

  constructor(
    private readonly db: Db,
    private readonly opts: {
      onCreated: (count: number) => void;
      log: (msg: string) => void;
      maxLevels?: number;
      rulesTtlMs?: number;
      onEvaluated?: (s: EvaluationStats) => void;
      knownNetwork?: (network: string) => boolean;
    },
  ) {}

  /** The rules changed (created or deleted here): reload before the next evaluation. */
  invalidate(): void {
    this.loadedAt = 0;
  }

  /** A live notice's payload (db/live.ts). Returns at once: evaluation runs later. */
  onPayload(payload: string): void {
    const n = decodeLiveNotice(payload);
    if (!n || n.kind !== 'block') return;
    if (this.opts.knownNetwork && !this.opts.knownNetwork(n.network)) return;
    this.enqueue(n.network, n.from, n.level, n.expand ? null : (n.addresses ?? null));
  }

  /** Queues levels `from`..`to` of a network for evaluation. */
  enqueue(network: string, from: number, to: number, touched: string[] | null): void {
    let s = this.networks.get(network);
    if (!s) this.networks.set(network, (s = { running: false }));
    // a gap since the last evaluated level (a lost notice) is covered, without the lists
    if (s.last !== undefined && from > s.last + 1) {
      from = s.last + 1;
      touched = null;
    }
    const p = s.pending;
    if (p) {
      p.from = Math.min(p.from, from);
      p.to = Math.max(p.to, to);
      if (!p.touched || !touched) p.touched = null;
      else for (const a of touched) p.touched.add(a);
    } else s.pending = { from, to, touched: touched ? new Set(touched) : null };
    if (!s.running) void this.run(network, s);
  }

  /** Resolves when no evaluation is queued or running (tests, the benchmark). */
  settled(): Promise<void> {
    if ([...this.networks.values()].every((s) => !s.running && !s.pending)) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  private async run(network: string, s: NetworkState): Promise<void> {
    s.running = true;
    try {
      while (s.pending) {
        const p = s.pending;
        s.pending = undefined;
        const max = this.opts.maxLevels ?? 100;
        if (p.to - p.from + 1 > max) {
          this.opts.log(`[watch] ${network}: ${p.to - p.from + 1 - max} levels behind skipped`);
          p.from = p.to - max + 1;
        }
        try {
          await this.evaluate(network, p.from, p.to, p.touched);
        } catch (err) {
          this.opts.log(`[watch] ${network} ${p.from}..${p.to}: ${(err as Error).message}`);
        }
        s.last = Math.max(s.last ?? p.to, p.to);
      }
    } finally {
      s.running = false;
      if ([...this.networks.values()].every((x) => !x.running && !x.pending)) {
        for (const f of [...this.idle]) f();
        this.idle.clear();
      }
    }
  }

  private async rules(): Promise<Map<string, Map<string, IndexedRule[]>>> {
    if (Date.now() - this.loadedAt < (this.opts.rulesTtlMs ?? 5_000)) return this.index;
    this.loading ??= (async () => {
      const started = Date.now();
      const rows = await enabledWatchRules(this.db);
      this.index = indexRules(rows, this.opts.log);
      this.loadedAt = started;
    })().finally(() => (this.loading = undefined));
    await this.loading;
    return this.index;
  }

  /** Evaluates every rule of a network over levels `from`..`to`; `touched` narrows the targets read. */
  async evaluate(
    network: string,
    from: number,
    to: number,
    touched: Set<string> | null,
  ): Promise<EvaluationStats> {
    const started = performance.now();
    const byAddress = (await this.rules()).get(network);
    const stats: EvaluationStats = { network, from, to, rules: 0, matches: 0, created: 0, ms: 0 };
    if (!byAddress?.size) return stats;
    const targets = touched ? [...touched].filter((a) => byAddress.has(a)) : [...byAddress.keys()];
    if (targets.length === 0) {
      stats.ms = performance.now() - started;
      this.opts.onEvaluated?.(stats);
      return stats;
    }
    const kinds = new Set(targets.flatMap((a) => byAddress.get(a)!.map((r) => r.condition.kind)));
    const facts: BlockFacts = {
      network,
      ...(await watchFacts(this.db, network, from, to, targets, {
        operations: kinds.size > 1 || !kinds.has('big_map'),
        bigMaps: kinds.has('big_map'),
      })),
    };
    const types = new Map<string, Promise<unknown>>();
    const before = new Map<string, Promise<unknown>>();
    const lookups: FactLookups = {
      storageType: (address) => {
        let t = types.get(address);
        if (!t)
          types.set(address, (t = storageTypes(this.db, network, [address]).then((m) => m.get(address))));
        return t;
      },
      // asked by every storage rule of a target: read once per evaluation
      storageBefore: (address, level) => {
        const key = `${address}:${level}`;
        let v = before.get(key);
        if (!v) before.set(key, (v = storageBefore(this.db, network, address, level)));
        return v;
      },
      bigMapValueBefore: (ptr, keyHash, level) => bigMapValueBefore(this.db, network, ptr, keyHash, level),
    };
    const rows: NewDelivery[] = [];
    for (const address of targets) {
      for (const rule of byAddress.get(address)!) {
        stats.rules++;
        let matches;
        try {
          matches = await matchCondition(rule.condition, address, facts, lookups);
        } catch (err) {
          this.opts.log(`[watch] rule ${rule.id}: ${(err as Error).message}`);
          continue;
        }
        for (const m of matches)
          rows.push({
            rule_id: rule.id,
            idempotency_key: m.key,
            level: m.level,
            operation_hash: m.operation_hash,
            body: {
              rule_id: rule.id,
              network,
              level: m.level,
              operation_hash: m.operation_hash,
              matched: m.matched,
              idempotency_key: m.key,
            },
          });
      }
    }
    stats.matches = rows.length;
    for (let i = 0; i < rows.length; i += 500) {
      const created = await insertDeliveries(this.db, rows.slice(i, i + 500));
      stats.created += created.length;
    }
    if (stats.created > 0) this.opts.onCreated(stats.created);
    stats.ms = performance.now() - started;
    this.opts.onEvaluated?.(stats);
    return stats;
  }
}

/** Rules by network, then target address; a stored condition that no longer validates is left out. */
export function indexRules(rows: WatchRuleRow[], log: (msg: string) => void = () => {}) {
  const index = new Map<string, Map<string, IndexedRule[]>>();
  for (const r of rows) {
    if (!Value.Check(WatchCondition, r.condition)) {
      log(`[watch] rule ${r.id}: stored condition not understood, skipped`);
      continue;
    }
    let net = index.get(r.network);
    if (!net) index.set(r.network, (net = new Map()));
    const list = net.get(r.address) ?? [];
    list.push({ id: r.id, address: r.address, condition: r.condition });
    net.set(r.address, list);
  }
  return index;
}
