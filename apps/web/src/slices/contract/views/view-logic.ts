/** Views tab logic: whether a view form has parameters to fill. */
import type { JsonSchema } from '@michelscope/michelson';

export const NO_PARAMETERS = 'No parameters for this view.';
export const NO_IMPLEMENTATION_PARAMETERS = "This implementation doesn't have parameters";

/** A view takes parameters when its schema has a property other than a unit placeholder. */
export function hasParameters(schema: JsonSchema | null): boolean {
  const props = schema?.properties;
  if (!props) return false;
  return Object.values(props).some((p) => p.prim !== 'unit');
}

/** The title of the error dialog of a failed execution. */
export const errorTitle = (statusText: string, status: number) => `${statusText || 'Error'} — ${status}`;
