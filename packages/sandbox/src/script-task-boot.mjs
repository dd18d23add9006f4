// Entry of the script workers (piscina): register tsx for the TypeScript sources, then hand piscina the
// task function of script-task.ts.
import { register } from 'tsx/esm/api';

register();
const { runScriptTask } = await import('./script-task.ts');
export default runScriptTask;
