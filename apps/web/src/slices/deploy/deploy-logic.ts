/**
 * Deploy wizard logic (workspace spec §2 Deploy screen, §5 limits): reading a Michelson code file into its
 * script, storage type, storage form schema and empty model; and the storage value of a filled form.
 */
import {
  buildTypeTree,
  emptyModel,
  entrypointSchemaOf,
  entrypointsDocsOf,
  schemaOf,
  formToMicheline,
  isPrim,
  jsonSchema,
  parseMichelsonScript,
  typedef,
  wrapEntrypointSchema,
  type JsonSchema,
  type Micheline,
} from '@michelscope/michelson';
import type { Typedef } from '../../api/contract-types';

/** Code files must be under 1,000,000 bytes. */
export const MAX_CODE_BYTES = 1_000_000;

export const DEPLOY_MESSAGES = {
  tooLarge: 'Code file size should be less than 1MB',
  noFile: 'You should select file to upload',
  uploadFailed: 'Error occured during upload file. Please, check file format and size.',
  help: 'The code file must not exceed 1 MB.',
} as const;

export interface ParsedCode {
  code: Micheline[];
  storageType: Micheline;
  schema: JsonSchema;
  model: Record<string, unknown>;
  typedef: Typedef[];
}

/** Checks the file before reading it: the spec's error text, or null. */
export function fileError(file: { size: number } | null | undefined): string | null {
  if (!file) return DEPLOY_MESSAGES.noFile;
  if (file.size >= MAX_CODE_BYTES) return DEPLOY_MESSAGES.tooLarge;
  return null;
}

/** Parses Michelson source text into what step 2 needs; throws with the parser's reason. */
export function parseCode(source: string): ParsedCode {
  const parsed = parseMichelsonScript(source);
  const code = Array.isArray(parsed) ? parsed : [parsed];
  const section = (name: string) => code.find((c) => isPrim(c) && c.prim === name);
  for (const name of ['parameter', 'storage', 'code'])
    if (!section(name)) throw new Error(`The script has no ${name} section`);
  const storage = section('storage');
  const storageType = isPrim(storage) ? storage.args?.[0] : undefined;
  if (!storageType) throw new Error('The storage section has no type');
  const schema = wrapEntrypointSchema(jsonSchema(storageType), buildTypeTree(storageType));
  return {
    code,
    storageType,
    schema,
    model: emptyModel(schema),
    typedef: typedef(storageType) ?? [],
  };
}

/** The initial storage value of the filled form (throws FormValidationError with the spec's texts). */
export function storageValue(storageType: Micheline, data: Record<string, unknown>): Micheline {
  return formToMicheline(storageType, data);
}

/** An entrypoint of a script not yet deployed: its name and the form schema of its parameter. */
export interface ScriptEntrypoint {
  name: string;
  schema: JsonSchema;
}

/**
 * The entrypoints of a script, each with its parameter's form schema: what the API gives for a deployed
 * contract (GET …/entrypoints), computed here from the script's parameter type.
 */
export function scriptEntrypoints(code: Micheline[]): ScriptEntrypoint[] {
  const section = code.find((c) => isPrim(c) && c.prim === 'parameter');
  const type = isPrim(section) ? section.args?.[0] : undefined;
  if (!type) return [];
  const tree = buildTypeTree(type);
  return entrypointsDocsOf(tree).map((d) => ({
    name: d.name,
    schema: entrypointSchemaOf(tree, d.name) ?? wrapEntrypointSchema(schemaOf(tree), tree),
  }));
}
