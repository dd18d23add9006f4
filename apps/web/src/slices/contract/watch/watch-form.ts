/**
 * The Watch tab's form (issue 39): its fields as the reader typed them, and the rule they make
 * (api-types `WatchRuleInput`), checked field by field before anything is sent. Amounts are converted
 * from tez to mutez on their digits (never through a float).
 */
import type { WatchCondition, WatchRuleInput } from '@michelscope/api-types';

export type ConditionKind = WatchCondition['kind'];
export type AmountUnit = 'tez' | 'mutez';
export type CallStatus = 'applied' | 'failed' | 'any';

/** The condition kinds, in the select's order, with their labels. */
export const CONDITION_KINDS: readonly { kind: ConditionKind; label: string }[] = [
  { kind: 'call', label: 'Calls of an entrypoint' },
  { kind: 'event', label: 'Events' },
  { kind: 'storage', label: 'Storage field' },
  { kind: 'big_map', label: 'Big-map key' },
  { kind: 'token_transfer', label: 'Token transfers' },
  { kind: 'origination', label: 'Originations' },
];

export interface WatchForm {
  kind: ConditionKind;
  /** '' for any entrypoint. */
  entrypoint: string;
  sender: string;
  amountUnit: AmountUnit;
  amountMin: string;
  amountMax: string;
  status: CallStatus;
  eventTag: string;
  bigMap: string;
  bigMapKey: string;
  path: string;
  above: string;
  below: string;
  tokenAmount: string;
  tokenId: string;
  url: string;
}

export const EMPTY_FORM: WatchForm = {
  kind: 'call',
  entrypoint: '',
  sender: '',
  amountUnit: 'tez',
  amountMin: '',
  amountMax: '',
  status: 'applied',
  eventTag: '',
  bigMap: '',
  bigMapKey: '',
  path: '',
  above: '',
  below: '',
  tokenAmount: '',
  tokenId: '',
  url: '',
};

/** The statuses a call rule watches: 'failed' also takes the calls a later failure backtracked or skipped. */
export const STATUSES: Record<CallStatus, ('applied' | 'failed' | 'backtracked' | 'skipped')[]> = {
  applied: ['applied'],
  failed: ['failed', 'backtracked', 'skipped'],
  any: ['applied', 'failed', 'backtracked', 'skipped'],
};

const MUTEZ_MAX = 18_446_744_073_709_551_615n;

/**
 * An amount typed in `unit` as mutez digits: tez take up to 6 decimals (1.5 → 1500000), mutez none;
 * null when it is not such an amount.
 */
export function toMutez(text: string, unit: AmountUnit): string | null {
  const t = text.trim();
  const m = unit === 'tez' ? /^(\d+)(?:\.(\d{0,6}))?$/.exec(t) : /^(\d+)()$/.exec(t);
  if (!m) return null;
  const value =
    BigInt(m[1]!) * (unit === 'tez' ? 1_000_000n : 1n) + BigInt((m[2] ?? '').padEnd(6, '0') || '0');
  if (value > MUTEZ_MAX) return null;
  return value.toString();
}

const ADDRESS = /^(tz[1-4]|KT1|sr1)[1-9A-HJ-NP-Za-km-z]{33}$/;
const INTEGER = /^-?\d{1,78}$/;
const NATURAL = /^\d{1,78}$/;

export type FormErrors = Partial<Record<keyof WatchForm, string>>;

/** The rule the form makes, or the fields' errors (the API checks the same again: its 400 is shown too). */
export function buildRule(
  form: WatchForm,
  at: { network: string; address: string },
): { rule: WatchRuleInput } | { errors: FormErrors } {
  const errors: FormErrors = {};
  const threshold = (key: 'above' | 'below') => {
    const t = form[key].trim();
    if (t === '') return undefined;
    if (!INTEGER.test(t)) errors[key] = 'A whole number (e.g. 1000 or -5)';
    return t;
  };
  let condition: WatchCondition;
  switch (form.kind) {
    case 'call': {
      const sender = form.sender.trim();
      if (sender !== '' && !ADDRESS.test(sender)) errors.sender = 'An address (tz1…, KT1…)';
      const amount = (key: 'amountMin' | 'amountMax') => {
        if (form[key].trim() === '') return undefined;
        const mutez = toMutez(form[key], form.amountUnit);
        if (mutez === null)
          errors[key] =
            form.amountUnit === 'tez' ? 'An amount in tez, up to 6 decimals' : 'A whole number of mutez';
        return mutez ?? undefined;
      };
      const gte = amount('amountMin');
      const lte = amount('amountMax');
      if (gte !== undefined && lte !== undefined && BigInt(gte) > BigInt(lte))
        errors.amountMax = 'The maximum is below the minimum';
      condition = {
        kind: 'call',
        entrypoints: form.entrypoint === '' ? [] : [form.entrypoint],
        ...(sender !== '' ? { sender } : {}),
        ...(gte !== undefined ? { amount_gte: gte } : {}),
        ...(lte !== undefined ? { amount_lte: lte } : {}),
        status: STATUSES[form.status],
      };
      break;
    }
    case 'event': {
      const tag = form.eventTag.trim();
      condition = { kind: 'event', tags: tag === '' ? [] : [tag] };
      break;
    }
    case 'storage': {
      const path = form.path.trim();
      if (path === '') errors.path = 'The field’s path, e.g. total_supply or config.fee';
      const above = threshold('above');
      const below = threshold('below');
      if (above === undefined && below === undefined && !errors.above && !errors.below)
        errors.above = 'Give a threshold (at least one of the two)';
      condition = {
        kind: 'storage',
        path,
        ...(above !== undefined ? { above } : {}),
        ...(below !== undefined ? { below } : {}),
      };
      break;
    }
    case 'big_map': {
      const name = form.bigMap.trim();
      if (name === '') errors.bigMap = 'The big map’s field name in the storage, or its id';
      const key = form.bigMapKey.trim();
      const above = threshold('above');
      const below = threshold('below');
      condition = {
        kind: 'big_map',
        big_map: /^\d{1,15}$/.test(name) ? Number(name) : name,
        ...(key !== '' ? { key } : {}),
        ...(above !== undefined ? { above } : {}),
        ...(below !== undefined ? { below } : {}),
      };
      break;
    }
    case 'token_transfer': {
      const amount = form.tokenAmount.trim() === '' ? '0' : form.tokenAmount.trim();
      if (!NATURAL.test(amount)) errors.tokenAmount = 'A whole number in the token’s smallest unit';
      const id = form.tokenId.trim();
      if (id !== '' && !NATURAL.test(id)) errors.tokenId = 'A token id (a whole number)';
      condition = { kind: 'token_transfer', amount_gte: amount, ...(id !== '' ? { token_id: id } : {}) };
      break;
    }
    case 'origination':
      condition = { kind: 'origination' };
      break;
  }
  const url = form.url.trim();
  if (url === '') errors.url = 'The webhook URL (http or https)';
  else if (!/^https?:\/\/\S+$/i.test(url)) errors.url = 'An http:// or https:// URL';
  if (Object.keys(errors).length > 0) return { errors };
  return { rule: { network: at.network, address: at.address, condition, url } };
}

/** A rule's condition in words (its fields are the API's: shown as text only). */
export function conditionText(c: WatchCondition): string {
  switch (c.kind) {
    case 'call': {
      const parts = [
        c.entrypoints.length === 0 ? 'calls of any entrypoint' : `calls of ${c.entrypoints.join(', ')}`,
      ];
      if (c.sender) parts.push(`from ${c.sender}`);
      if (c.amount_gte) parts.push(`amount ≥ ${c.amount_gte} mutez`);
      if (c.amount_lte) parts.push(`amount ≤ ${c.amount_lte} mutez`);
      parts.push((c.status ?? ['applied']).join('/'));
      return parts.join(', ');
    }
    case 'event':
      return c.tags.length === 0 ? 'every event' : `events tagged ${c.tags.join(', ')}`;
    case 'storage':
      return `storage ${c.path}${thresholds(c)}`;
    case 'big_map':
      return `big map ${String(c.big_map)}${c.key !== undefined ? ` key ${c.key}` : c.key_hash ? ` key ${c.key_hash}` : ', any key'}${thresholds(c)}`;
    case 'token_transfer':
      return `token transfers of at least ${c.amount_gte}${c.token_id !== undefined ? ` (token ${c.token_id})` : ''}`;
    case 'origination':
      return 'contracts originated by it';
  }
}

const thresholds = (c: { above?: string; below?: string }) =>
  `${c.above !== undefined ? `, at or above ${c.above}` : ''}${c.below !== undefined ? `, at or below ${c.below}` : ''}`;
