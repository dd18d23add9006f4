// Entry of the debug workers (piscina): register tsx for the TypeScript sources, then hand piscina the task
// function of worker.ts.
import { register } from 'tsx/esm/api';

register();
const { runDebugTask } = await import('./worker.ts');
export default runDebugTask;
