// Messages between the main thread (chain-host.ts) and the chain worker (chain-worker.ts).
import type { SandboxOptions, StorageFault } from './sandbox';

export interface ChainWorkerData {
  entry: string;
  options: Omit<SandboxOptions, 'log'>;
  /** Largest request body the worker's RPC accepts (bytes). */
  bodyLimit: number;
  /** Wall-clock limit of one script run (ms), in the worker's pool of script workers. */
  timeLimitMs: number;
}

export interface RpcRequest {
  method: string;
  /** Path and query under the RPC root, e.g. `/chains/main/blocks/head`. */
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array;
}

export interface RpcResponse {
  status: number;
  contentType: string;
  body: Uint8Array;
}

export type ToWorker =
  | { type: 'request'; id: number; request: RpcRequest }
  | { type: 'monitor'; id: number; chain: string }
  | { type: 'unmonitor'; id: number }
  | { type: 'start' }
  | { type: 'stop' };

export type FromWorker =
  | { type: 'ready'; headLevel: number }
  | { type: 'failed'; message: string }
  | { type: 'log'; line: string }
  | { type: 'head'; level: number }
  /** The chain's storage failed (`fault`) or works again (null). */
  | { type: 'storage'; fault: StorageFault | null }
  | { type: 'response'; id: number; response: RpcResponse }
  | { type: 'chunk'; id: number; data: string }
  | { type: 'stopped' };
