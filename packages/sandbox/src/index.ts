// Public API of @michelscope/sandbox: an embedded local Tezos chain ("sandboxnet").
export { Sandbox, type SandboxOptions, type StorageFault } from './sandbox';
export { StorageError } from './chain-store';
export { BOOTSTRAP_ACCOUNTS } from './accounts';
export { sandboxRpcPlugin } from './rpc-plugin';
export { startStandaloneSandbox } from './standalone';
export { CHAIN_ID, PROTOCOL } from './protocol';
export { injectAs } from './inject-as';
export { SandboxWorker, SandboxUnavailableError, type SandboxWorkerOptions } from './chain-host';
export { embeddedClientHeaders, sandboxWorkerRpcPlugin } from './chain-host-plugin';
export { bundledWorker } from '@michelscope/interpreter';
