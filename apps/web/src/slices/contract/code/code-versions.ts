/** Pure helpers of the Code tab: protocol versions, the download file. */
import type { Migration } from '../../../api/contract-types';

const PROTOCOL = /^P[1-9A-HJ-NP-Za-km-z]{50}$/;

/** `?protocol=` when it looks like a protocol hash, else null (Latest). */
export function protocolFromQuery(value: string | null): string | null {
  return value !== null && PROTOCOL.test(value) ? value : null;
}

/**
 * Protocol options after 'Latest': the protocols under which the contract ran other code than today, i.e. the
 * protocol before each `update` migration (a protocol change that gave the contract a new script), newest
 * first as the migrations come, plus the selected one, without duplicates. Other migration kinds leave the code
 * as it was, so their protocols would only repeat a version.
 */
export function protocolOptions(selected: string | null, migrations: readonly Migration[]): string[] {
  const out: string[] = [];
  const add = (p: string) => {
    if (PROTOCOL.test(p) && !out.includes(p)) out.push(p);
  };
  for (const m of migrations) if (m.kind === 'update') add(m.prev_protocol);
  if (selected !== null) add(selected);
  return out;
}

/** A protocol hash shortened for the selector: first 8 characters. */
export const shortProtocol = (p: string): string => (p.length > 8 ? p.slice(0, 8) : p);

/** The .tz download name: `{address}.tz`, or `{address}_{protocol prefix}.tz` for an older version. */
export function codeFileName(address: string, protocol: string | null): string {
  const safe = address.replace(/[^A-Za-z0-9]/g, '');
  return protocol === null ? `${safe}.tz` : `${safe}_${shortProtocol(protocol)}.tz`;
}
