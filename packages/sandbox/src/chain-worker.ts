// The sandbox chain in its own worker thread (started by chain-host.ts): the state, the mempool, baking
// and every RPC execute here, off the main event loop that serves the API, the web app and the indexers;
// script runs and simulations go further, to this worker's pool of time-limited script workers. Requests arrive as messages and go through the same Fastify plugin as a
// standalone node (`app.inject`); `/monitor/heads` streams are messages of chunks.
import { parentPort, workerData } from 'node:worker_threads';
import Fastify from 'fastify';
import { checkChain } from './block-id';
import type { ChainWorkerData, FromWorker, ToWorker } from './chain-protocol';
import { RpcError } from './operation-types';
import { headChunk, sandboxRpcPlugin } from './rpc-plugin';
import { Sandbox } from './sandbox';
import { ScriptRunner } from './script-runner';

const port = parentPort!;
const data = workerData as ChainWorkerData;
const post = (m: FromWorker) => port.postMessage(m);
const text = (e: unknown) => (e instanceof Error ? e.message : String(e));

async function main(): Promise<void> {
  const sandbox = await Sandbox.open({ ...data.options, log: (line) => post({ type: 'log', line }) });
  const scripts = new ScriptRunner(sandbox, { timeLimitMs: data.timeLimitMs, clientHeader: true });
  const app = Fastify({ logger: false, bodyLimit: data.bodyLimit });
  await app.register(sandboxRpcPlugin(sandbox, { scripts }));
  await app.ready();
  sandbox.onHead((b) => post({ type: 'head', level: b.header.level }));
  sandbox.onStorageFault((fault) => post({ type: 'storage', fault }));
  const monitors = new Map<number, () => void>();

  port.on('message', (m: ToWorker) => {
    switch (m.type) {
      case 'request': {
        const { method, url, headers, body } = m.request;
        app
          .inject({
            method: method as 'GET',
            url,
            headers,
            ...(body ? { payload: Buffer.from(body.buffer, body.byteOffset, body.byteLength) } : {}),
          })
          .then(
            (res) =>
              post({
                type: 'response',
                id: m.id,
                response: {
                  status: res.statusCode,
                  contentType: String(res.headers['content-type'] ?? 'application/json'),
                  body: res.rawPayload,
                },
              }),
            (e: unknown) => {
              const errors = [{ kind: 'temporary', id: 'sandbox.internal_error', msg: text(e) }];
              post({
                type: 'response',
                id: m.id,
                response: {
                  status: 500,
                  contentType: 'application/json',
                  body: Buffer.from(JSON.stringify(errors)),
                },
              });
            },
          );
        return;
      }
      case 'monitor': {
        try {
          checkChain(m.chain);
        } catch (e) {
          const status = e instanceof RpcError ? e.status : 400;
          const errors = e instanceof RpcError ? e.errors : [];
          post({
            type: 'response',
            id: m.id,
            response: { status, contentType: 'application/json', body: Buffer.from(JSON.stringify(errors)) },
          });
          return;
        }
        post({ type: 'chunk', id: m.id, data: headChunk(sandbox.head) });
        monitors.set(
          m.id,
          sandbox.onHead((b) => post({ type: 'chunk', id: m.id, data: headChunk(b) })),
        );
        return;
      }
      case 'unmonitor':
        monitors.get(m.id)?.();
        monitors.delete(m.id);
        return;
      case 'start':
        sandbox.start();
        return;
      case 'stop':
        for (const off of monitors.values()) off();
        monitors.clear();
        app
          .close()
          .then(() => Promise.all([sandbox.stop(), scripts.close()]))
          .then(
            () => post({ type: 'stopped' }),
            (e: unknown) => {
              post({ type: 'log', line: `sandbox: stop failed: ${text(e)}` });
              post({ type: 'stopped' });
            },
          );
        return;
    }
  });
  post({ type: 'ready', headLevel: sandbox.headLevel });
}

main().catch((e: unknown) => post({ type: 'failed', message: text(e) }));
