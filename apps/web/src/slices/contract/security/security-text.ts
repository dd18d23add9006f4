/**
 * Words of the Security tab and headline (issue 37): who may call an entrypoint, what it can do, links to the
 * code lines of the evidence. Every string of the summary is untrusted: it is shown as React text, and only
 * well-formed values become in-app links.
 */
import type { SecurityEvidence, SecuritySummary } from '@michelscope/api-types';
import { isAddress } from '../../../shared/chain/patterns';

export type SecurityEntrypoint = SecuritySummary['entrypoints'][number];

/** A storage field as the code names it: `%admin`; a position (`storage.1.0`) or `code` as it is. */
export function fieldRef(field: string): string {
  return field === 'code' || /^storage(\.|$)/.test(field) ? field : `%${field}`;
}

/** What an entrypoint can do, in words (a capability this web does not know: its name). */
export const CAPABILITY_LABELS: Record<string, string> = {
  transfer_tez: 'transfers tez',
  call_contracts: 'calls contracts',
  set_delegate: 'changes the delegate',
  originate: 'originates contracts',
  mint_tickets: 'mints tickets',
  emit_events: 'emits events',
  exec_stored_lambda: 'runs stored code',
  exec_parameter_lambda: 'runs code from its parameter',
  exec_lambda: 'runs a lambda',
};
export const capabilityLabel = (cap: string): string => CAPABILITY_LABELS[cap] ?? cap;

/** The address of an admin check, when it is one (else it is not linked). */
export const linkableAddress = (value: string | undefined): string | null =>
  value !== undefined && isAddress(value) ? value : null;

/** A global constant's hash, when well formed (else it is not linked). */
export const isConstantHash = (value: string): boolean => /^expr[1-9A-HJ-NP-Za-km-z]{50}$/.test(value);

/** The Code tab's URL of an evidence's line, or null when its line is not known. */
export function evidenceHref(network: string, address: string, evidence: SecurityEvidence): string | null {
  const { line } = evidence;
  if (typeof line !== 'number' || !Number.isInteger(line) || line < 1) return null;
  return `/${encodeURIComponent(network)}/${encodeURIComponent(address)}/code?line=${line}`;
}

/** Who may call, as plain text (the table shows the same with the address linked). */
export function whoText(e: Pick<SecurityEntrypoint, 'who' | 'admin' | 'multisig' | 'reason'>): string {
  switch (e.who) {
    case 'anyone':
      return 'anyone';
    case 'nobody':
      return 'nobody';
    case 'admin': {
      const a = e.admin;
      if (!a) return 'admin';
      if (a.hardcoded && a.hardcoded.length > 0)
        return `addresses written in the code: ${a.hardcoded.join(', ')}`;
      const by = a.source ? ' (checked against SOURCE)' : '';
      if (a.set) return `a member of the set at ${fieldRef(a.field)}${by}`;
      return `admin at ${fieldRef(a.field)}${a.address ? ` (${a.address})` : ''}${by}`;
    }
    case 'multisig': {
      const m = e.multisig;
      if (!m) return 'multisig';
      const threshold =
        m.threshold !== undefined
          ? `threshold ${m.threshold}`
          : m.threshold_field
            ? `threshold at ${fieldRef(m.threshold_field)}`
            : 'a threshold';
      const keys = m.keys !== undefined ? `${m.keys} keys` : 'keys';
      return `multisig: ${threshold} of ${keys} at ${fieldRef(m.keys_field)}`;
    }
    case 'unknown':
      return `unknown: ${e.reason ?? 'not recognised'}`;
    default:
      return String(e.who);
  }
}
