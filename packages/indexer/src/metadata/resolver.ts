/**
 * The background metadata resolver of one network: takes due pending rows of `contract_metadata` and
 * `token_metadata`, resolves them (resolve.ts) a few at a time, and records the outcome: resolved
 * (status 3, with the search document), retried later with exponential back-off (retry_count + 1,
 * next_attempt_at), or failed (status 2) after `maxRetries` attempts or a permanent error. A failed row
 * keeps status 2 but is tried again after a long, growing back-off (`failedRetry`): links come back (a
 * gateway that had not found the IPFS content yet, a host that was down for days); a success resolves it.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Db } from '@michelscope/db';
import {
  dueMetadata,
  saveMetadataFailure,
  saveResolvedMetadata,
  type MetadataJob,
} from '@michelscope/db/write';
import { resolveContract, resolveToken, type ResolveContext } from './resolve';
import { MetadataError } from './uri';

export interface MetadataResolverOptions {
  db: Db;
  network: string;
  /** Node RPC base, used for `tezos-storage:` values not in the database. */
  rpcUrl?: string;
  /** IPFS gateway base for ipfs:// links, e.g. https://ipfs.io/ipfs. Default https://ipfs.io/ipfs. */
  ipfsGateway?: string;
  log?: (line: string) => void;
  /** Time between queue polls when nothing is due. Default 2000 ms. */
  pollIntervalMs?: number;
  /** Rows taken per round and resolved in parallel. Default 8 and 4. */
  batchSize?: number;
  concurrency?: number;
  /** Attempts before a row is marked failed (status 2). Default 5. */
  maxRetries?: number;
  /** Back-off after the n-th failure: initialMs × 2^(n-1), capped at maxMs. Default 30 s doubling to 1 h. */
  backoff?: { initialMs?: number; maxMs?: number };
  /**
   * Retries of failed rows (status 2): the n-th attempt after giving up comes initialMs × 2^(n-1) later,
   * capped at maxMs. Default 6 h doubling to 7 days; false = failed rows are never tried again.
   */
  failedRetry?: { initialMs?: number; maxMs?: number } | false;
  /** Limits of one fetch. Default 1 MiB, 10 s. */
  maxBytes?: number;
  timeoutMs?: number;
  /** Accept plain http:// links and loopback/private hosts in links. For local tests only. Default false. */
  allowInsecure?: boolean;
  /** Run the polling loop (default true). false = only `runOnce()` calls resolve (tests, one-shot tools). */
  background?: boolean;
}

export interface MetadataResolverHandle {
  /** Resolves what is due now (one round) and returns how many rows were attempted. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
  stats(): { resolved: number; retried: number; failed: number };
}

/** Delay before the next attempt after `failures` failures. */
export function backoffDelay(failures: number, initialMs: number, maxMs: number): number {
  return Math.min(maxMs, initialMs * 2 ** Math.max(0, Math.min(failures - 1, 40)));
}

export function startMetadataResolver(opts: MetadataResolverOptions): MetadataResolverHandle {
  const log = opts.log ?? ((line: string) => console.log(line));
  const prefix = `[metadata ${opts.network}]`;
  const controller = new AbortController();
  const maxBytes = opts.maxBytes ?? 1024 * 1024;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const insecure = opts.allowInsecure ?? false;
  const ctx: ResolveContext = {
    db: opts.db,
    network: opts.network,
    ...(opts.rpcUrl ? { rpcUrl: opts.rpcUrl } : {}),
    ipfsGateway: opts.ipfsGateway ?? 'https://ipfs.io/ipfs',
    limits: {
      maxBytes,
      timeoutMs,
      allowHttp: insecure,
      allowPrivateHosts: insecure,
      signal: controller.signal,
    },
    trustedLimits: {
      maxBytes,
      timeoutMs,
      allowHttp: true,
      allowPrivateHosts: true,
      signal: controller.signal,
    },
  };
  const maxRetries = Math.max(1, opts.maxRetries ?? 5);
  const initialMs = opts.backoff?.initialMs ?? 30_000;
  const maxMs = opts.backoff?.maxMs ?? 3_600_000;
  const failedRetry = opts.failedRetry === false ? null : (opts.failedRetry ?? {});
  const failedInitialMs = failedRetry?.initialMs ?? 6 * 3_600_000;
  const failedMaxMs = failedRetry?.maxMs ?? 7 * 24 * 3_600_000;
  const counts = { resolved: 0, retried: 0, failed: 0 };
  let lastDbError = '';

  async function attempt(job: MetadataJob): Promise<void> {
    const what =
      job.kind === 'contract'
        ? `contract metadata of ${job.address}`
        : `token ${job.contract}:${job.tokenId}`;
    try {
      const r = job.kind === 'contract' ? await resolveContract(ctx, job) : await resolveToken(ctx, job);
      if (await saveResolvedMetadata(opts.db, opts.network, job, r)) counts.resolved++;
    } catch (e) {
      if (controller.signal.aborted) return; // stopping: the attempt does not count
      const err =
        e instanceof MetadataError ? e : new MetadataError(e instanceof Error ? e.message : String(e), false);
      const failures = job.retryCount + 1;
      const giveUp = job.status === 2 || err.permanent || failures >= maxRetries;
      const retryAt = giveUp ? null : new Date(Date.now() + backoffDelay(failures, initialMs, maxMs));
      // Attempts since the row failed: 1 when it fails now (after maxRetries, or earlier on a permanent error).
      const failedAttempts = Math.max(1, failures - maxRetries + 1);
      const failedRetryAt =
        giveUp && failedRetry
          ? new Date(Date.now() + backoffDelay(failedAttempts, failedInitialMs, failedMaxMs))
          : null;
      if (await saveMetadataFailure(opts.db, opts.network, job, err.message, retryAt, failedRetryAt)) {
        if (job.status === 2) counts.retried++;
        else if (giveUp) {
          counts.failed++;
          log(
            `${prefix} ${what}: failed (${err.message})${failedRetryAt ? `; next try ${failedRetryAt.toISOString()}` : ''}`,
          );
        } else counts.retried++;
      }
    }
  }

  async function runOnce(): Promise<number> {
    const jobs = await dueMetadata(opts.db, opts.network, opts.batchSize ?? 8);
    // Contracts first: a token's resolution reads its contract's metadata (off-chain views).
    for (const group of [jobs.filter((j) => j.kind === 'contract'), jobs.filter((j) => j.kind === 'token')]) {
      const queue = [...group];
      const workers = Array.from({ length: Math.max(1, opts.concurrency ?? 4) }, async () => {
        for (let job = queue.shift(); job && !controller.signal.aborted; job = queue.shift())
          await attempt(job);
      });
      await Promise.all(workers);
    }
    return jobs.length;
  }

  // The timer's abort listener is removed when it fires (timers/promises), so polling adds none for good to
  // the resolver's long-lived signal (a listener per poll made Node print MaxListenersExceededWarning).
  const sleep = (ms: number) => delay(ms, undefined, { signal: controller.signal }).catch(() => {});

  const loop = (async () => {
    while (opts.background !== false && !controller.signal.aborted) {
      let n = 0;
      try {
        n = await runOnce();
        lastDbError = '';
      } catch (e) {
        const msg = e instanceof Error ? e.message : String(e);
        if (msg !== lastDbError && !controller.signal.aborted)
          log(`${prefix} database error, retrying: ${msg}`);
        lastDbError = msg;
      }
      if (n === 0) await sleep(opts.pollIntervalMs ?? 2000);
    }
  })();

  let stopping: Promise<void> | null = null;
  return {
    runOnce,
    stop() {
      stopping ??= (async () => {
        controller.abort();
        await loop;
      })();
      return stopping;
    },
    stats: () => ({ ...counts }),
  };
}
