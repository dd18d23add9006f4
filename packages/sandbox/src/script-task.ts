// One script run in a script worker (see script-runner.ts): the RPC's own handler, on a replica of the
// chain rebuilt from the task's snapshot. Errors travel back as data (status + the node's error list).
import { helperHandlers } from './rpc-helpers';
import { scriptHandlers } from './rpc-scripts';
import { RpcError } from './operation-types';
import { replicaHost } from './script-host';
import type { ScriptResult, ScriptTask } from './script-runner';

export async function runScriptTask(task: ScriptTask): Promise<ScriptResult> {
  task.started?.postMessage('started');
  task.started?.close();
  const handler =
    helperHandlers[task.path] ??
    (task.path.startsWith('scripts/') ? scriptHandlers[task.path.slice('scripts/'.length)] : undefined);
  if (!handler) throw new Error(`no script handler for ${task.path}`);
  try {
    const value = await handler(replicaHost(task.host), task.params, task.body);
    return { ok: true, json: JSON.stringify(value) };
  } catch (e) {
    if (e instanceof RpcError) return { ok: false, status: e.status, errors: e.errors };
    const status = (e as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const msg = e instanceof Error ? e.message : String(e);
      return { ok: false, status, errors: [{ kind: 'permanent', id: 'rpc.invalid_request', msg }] };
    }
    throw e;
  }
}
