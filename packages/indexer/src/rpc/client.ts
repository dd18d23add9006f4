/**
 * Minimal node RPC client for the indexer: GET with a per-request timeout and the indexer's stop signal.
 * (Taquito's RpcClient has no per-request abort, which `stop()` needs; its response types are reused.)
 */

export type RpcErrorKind = 'unreachable' | 'timeout' | 'http' | 'not_found' | 'invalid';

/** A failed RPC call: the node could not be reached, answered an error status, or sent unusable data. */
export class RpcError extends Error {
  override name = 'RpcError';
  constructor(
    readonly kind: RpcErrorKind,
    message: string,
    /** Short reason for log lines, e.g. `ECONNREFUSED`, `HTTP 502`, `timeout after 30000 ms`. */
    readonly reason: string,
  ) {
    super(message);
  }
}

/** Thrown when the indexer was stopped while a call or a wait was pending. */
export class StoppedError extends Error {
  override name = 'StoppedError';
}

export interface RpcClientOptions {
  timeoutMs: number;
  signal: AbortSignal;
  /** Largest accepted response body (bytes). Default 64 MiB. */
  maxBytes?: number;
}

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

export class NodeRpc {
  readonly baseUrl: string;

  constructor(
    rpcUrl: string,
    private readonly opts: RpcClientOptions,
  ) {
    this.baseUrl = rpcUrl.replace(/\/+$/, '');
  }

  /** GET `{rpcUrl}{path}` and parse JSON. Throws RpcError or StoppedError, never anything else. */
  async get(path: string): Promise<unknown> {
    if (this.opts.signal.aborted) throw new StoppedError('indexer stopped');
    const url = `${this.baseUrl}${path}`;
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    const signal = AbortSignal.any([this.opts.signal, timeout]);
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, {
        signal,
        headers: { accept: 'application/json', 'user-agent': 'Michelscope-indexer' },
      });
      text = await readLimited(res, this.opts.maxBytes ?? DEFAULT_MAX_BYTES);
    } catch (err) {
      if (this.opts.signal.aborted) throw new StoppedError('indexer stopped');
      if (timeout.aborted) {
        throw new RpcError(
          'timeout',
          `GET ${url}: no answer within ${this.opts.timeoutMs} ms`,
          `timeout after ${this.opts.timeoutMs} ms`,
        );
      }
      if (err instanceof RpcError) throw err;
      const reason = networkReason(err);
      throw new RpcError('unreachable', `GET ${url}: ${reason}`, reason);
    }
    if (res.status === 404) throw new RpcError('not_found', `GET ${url}: 404 not found`, 'HTTP 404');
    if (!res.ok) {
      const body = text.slice(0, 200).replace(/\s+/g, ' ');
      throw new RpcError(
        'http',
        `GET ${url}: HTTP ${res.status}${body ? ` ${body}` : ''}`,
        `HTTP ${res.status}`,
      );
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new RpcError(
        'invalid',
        `GET ${url}: the node answered something that is not JSON`,
        'invalid JSON',
      );
    }
  }
}

async function readLimited(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel();
    throw new RpcError(
      'invalid',
      `response of ${declared} bytes exceeds the ${maxBytes}-byte limit`,
      'response too large',
    );
  }
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes)
      throw new RpcError('invalid', `response exceeds the ${maxBytes}-byte limit`, 'response too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `ECONNREFUSED`, `ENOTFOUND`, … from undici's "fetch failed" TypeError, else the message. */
function networkReason(err: unknown): string {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code) return code;
    current = (current as { cause?: unknown }).cause;
  }
  const message = err instanceof Error ? err.message : String(err);
  return message || 'network error';
}
