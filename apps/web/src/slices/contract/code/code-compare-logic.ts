/** Pure helpers of 'Compare code' (issue 21 part 2): the other side in the URL, block labels, unified rows. */
import type { CodeDiffBlock, CodeDiffRow } from '@michelscope/api-types';
import type { CodeLeg } from '@michelscope/api-types';

const CONTRACT = /^KT1[1-9A-HJ-NP-Za-km-z]{33}$/;
const NETWORK = /^[a-z][a-z0-9_-]{0,31}$/;
const PROTOCOL = /^P[1-9A-HJ-NP-Za-km-z]{50}$/;

/**
 * The other side of the comparison from the URL (`compare=<network>:<address>` or
 * `compare=<network>:<address>@<protocol>`), or null when absent or malformed.
 */
export function legFromQuery(value: string | null): CodeLeg | null {
  if (!value) return null;
  const m = /^([^:]+):([^@]+)(?:@(.+))?$/.exec(value.trim());
  if (!m || !NETWORK.test(m[1]!) || !CONTRACT.test(m[2]!)) return null;
  if (m[3] !== undefined && !PROTOCOL.test(m[3])) return null;
  return m[3] ? { network: m[1]!, address: m[2]!, protocol: m[3] } : { network: m[1]!, address: m[2]! };
}

export function legToQuery(leg: CodeLeg): string {
  return `${leg.network}:${leg.address}${leg.protocol ? `@${leg.protocol}` : ''}`;
}

/** Whether a typed address is a contract address. */
export const isContractAddress = (value: string) => CONTRACT.test(value.trim());

/** A heading for a block. */
export function blockLabel(b: Pick<CodeDiffBlock, 'kind' | 'name' | 'key'>): string {
  if (b.kind === 'entrypoint') return `entrypoint ${b.name ?? ''}`.trim();
  if (b.kind === 'view') return `view ${b.name ?? ''}`.trim();
  if (b.key === 'code:before') return 'code before the entrypoint dispatch';
  if (b.key === 'code:after') return 'code after the entrypoint dispatch';
  return b.key;
}

/** A unified diff line: its sign (' ', '-', '+') and text. */
export interface UnifiedLine {
  sign: ' ' | '-' | '+';
  text: string;
}

/** Side-by-side rows as unified lines: a changed row is its removed line, then its added line. */
export function unifiedLines(rows: readonly CodeDiffRow[]): UnifiedLine[] {
  const out: UnifiedLine[] = [];
  const added: string[] = [];
  const flush = () => {
    for (const t of added.splice(0)) out.push({ sign: '+', text: t });
  };
  for (const r of rows) {
    if (r.type === 'same') {
      flush();
      out.push({ sign: ' ', text: r.left ?? '' });
      continue;
    }
    // a run of changes: every removed line first, then every added one (as a unified diff reads)
    if (r.left !== null) out.push({ sign: '-', text: r.left });
    if (r.right !== null) added.push(r.right);
  }
  flush();
  return out;
}
