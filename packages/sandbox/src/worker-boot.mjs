// Entry of the sandbox's worker threads: the packages are TypeScript sources, and a worker does not
// inherit the parent's loader, so register tsx here, then load the module named in workerData.entry.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
