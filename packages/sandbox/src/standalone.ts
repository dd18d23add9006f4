// A standalone sandbox node (`michelscope sandbox --port 8732`): the RPC at the server root.
import Fastify from 'fastify';
import { sandboxRpcPlugin } from './rpc-plugin';
import { Sandbox, type SandboxOptions } from './sandbox';
import { ScriptRunner } from './script-runner';

export async function startStandaloneSandbox(
  opts: SandboxOptions & { port: number; host?: string; timeLimitMs?: number },
): Promise<{ url: string; sandbox: Sandbox; close(): Promise<void> }> {
  const sandbox = await Sandbox.open(opts);
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024, forceCloseConnections: true });
  const scripts = new ScriptRunner(sandbox, { timeLimitMs: opts.timeLimitMs });
  await app.register(sandboxRpcPlugin(sandbox, { scripts }));
  const host = opts.host ?? '127.0.0.1';
  let address: string;
  try {
    address = await app.listen({ port: opts.port, host });
  } catch (e) {
    await Promise.all([sandbox.stop(), scripts.close()]);
    throw e;
  }
  sandbox.start();
  opts.log?.(`sandbox: RPC listening on ${address}`);
  return {
    url: address,
    /** The chain itself, for in-process callers (tests use its test-only controls). */
    sandbox,
    async close() {
      await app.close();
      await Promise.all([sandbox.stop(), scripts.close()]);
    },
  };
}
