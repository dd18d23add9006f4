/** Pure helpers of the Interact tab: parameters of a call, the command line, burn cap, simulation totals. */
import {
  formatMichelsonInline,
  isPrim,
  parametersForExecution,
  type Micheline,
} from '@michelscope/michelson';

export const BURN_CAP_MESSAGE = 'The value must be a float number';
export const NO_NAME = 'NO NAME';

/** The `parameter` type of a script (the node's `code` array). */
export function parameterType(code: Micheline[]): Micheline {
  const section = code.find((c) => isPrim(c) && c.prim === 'parameter');
  if (!section || !isPrim(section) || !section.args?.[0])
    throw new Error('The script has no parameter section');
  return section.args[0];
}

/** `{entrypoint, value}` of a call from the entrypoint form data. */
export function callParameters(code: Micheline[], entrypoint: string, data: unknown) {
  return parametersForExecution(parameterType(code), entrypoint, data);
}

/** The label of an entrypoint in the list. */
export const entrypointLabel = (name: string) => (name === '' ? NO_NAME : name);

/**
 * Burn cap: a non-negative decimal number; leading zeros are stripped ("007.5" -> "7.5").
 * Returns the normalised text or the spec's error.
 */
export function parseBurnCap(text: string): { value: string } | { error: string } {
  const t = text.trim();
  if (t === '') return { value: '' };
  if (!/^\d+(\.\d+)?$/.test(t) && !/^\d*\.\d+$/.test(t)) return { error: BURN_CAP_MESSAGE };
  const stripped = t.replace(/^0+(?=\d)/, '');
  return { value: stripped.startsWith('.') ? `0${stripped}` : stripped };
}

/** Only digits and a dot are accepted as keypresses in the burn cap field. */
export const burnCapKeyAllowed = (key: string) => key.length !== 1 || /[0-9.]/.test(key);

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Mutez -> tez text with up to 6 decimals. */
export function mutezToTez(mutez: number): string {
  const whole = Math.floor(mutez / 1_000_000);
  const frac = String(mutez % 1_000_000)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

export interface CommandLineInput {
  address: string;
  source: string;
  amountMutez: number;
  entrypoint: string;
  value: Micheline;
  burnCap: string;
  dryRun: boolean;
}

/** The tezos-client instruction of a call. */
export function commandLine(c: CommandLineInput): string {
  const parts = [
    'tezos-client transfer',
    mutezToTez(c.amountMutez),
    'from',
    c.source || '<source>',
    'to',
    c.address,
    '--entrypoint',
    shellQuote(c.entrypoint),
    '--arg',
    shellQuote(formatMichelsonInline(c.value)),
  ];
  if (c.burnCap) parts.push('--burn-cap', c.burnCap);
  if (c.dryRun) parts.push('--dry-run');
  return parts.join(' ');
}

/**
 * Simulation totals (spec §9): gas and burned summed over the main and internal operations (gas in milligas,
 * shown in gas units), and the paid storage bytes.
 */
export function simulationTotals(
  ops: {
    consumed_gas?: number | undefined;
    burned?: number | undefined;
    paid_storage_size_diff?: number | undefined;
  }[],
) {
  return {
    gas: ops.reduce((a, o) => a + (o.consumed_gas ?? 0), 0) / 1000,
    burned: ops.reduce((a, o) => a + (o.burned ?? 0), 0),
    storage: ops.reduce((a, o) => a + (o.paid_storage_size_diff ?? 0), 0),
  };
}

/** `part` as a percentage of `limit`, to 2 decimals (null without a limit). */
export const percentOf = (part: number, limit: number): number | null =>
  limit > 0 ? Math.round((part / limit) * 10_000) / 100 : null;
