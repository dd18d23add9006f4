/**
 * The code as Micheline JSON for "Raw JSON". Its own module, loaded when that dialog opens: the text parser
 * (@taquito/michel-codec, ~18 kB compressed) is not part of the code tab's first load.
 */
import { parseMichelsonScript } from '@michelscope/michelson';

export interface CodeJson {
  value: unknown;
  error: string | null;
}

/** Micheline JSON of the shown code, or the parse error. */
export function codeJson(code: string): CodeJson {
  try {
    return { value: parseMichelsonScript(code), error: null };
  } catch (e) {
    return {
      value: null,
      error: `The code could not be converted to JSON: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
}
